#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace sbxtest {

// A podman API service of the test's own: its configuration (runc, cgroupfs, ulimits), storage
// and socket live in a temporary folder, so the suite depends on nothing the machine has set up.
class PodmanService final {
public:
    PodmanService();
    ~PodmanService();
    PodmanService(const PodmanService &) = delete;
    PodmanService &operator=(const PodmanService &) = delete;

    // Starts `podman system service` and waits (bounded) until it answers. False with
    // unavailableReason() saying why this machine cannot run it.
    bool start();
    QString socketPath() const;
    QString unavailableReason() const { return m_reason; }

    // Builds the test image (sandbox-server, the libraries ldd lists, bash, coreutils) as a
    // tarball and imports it. False with unavailableReason().
    // serverArgs go after the image's usual command line (e.g. --without observe).
    bool importSandboxImage(const QString &serverBinary, const QString &imageName,
                            const QStringList &serverArgs = {});
    // Runs a throwaway container of the image: false where this machine cannot (cgroups,
    // namespaces, runtime), with unavailableReason().
    bool canRunContainers(const QString &imageName);

    // Runs the podman CLI against this service's storage, bounded; the exit code, -1 on timeout.
    int podman(const QStringList &args, QByteArray *output = nullptr, int timeoutMs = 120000);
    // A folder inside the service's temporary folder, for bind mounts and rendezvous files.
    QString scratchDir() const;

private:
    bool writeConfig();
    bool buildImageTree(const QString &serverBinary, const QString &root);
    void stop();
    void unmountLeftovers();

    QTemporaryDir m_dir;
    QProcessEnvironment m_env;
    std::unique_ptr<QProcess> m_service;
    QString m_podman;
    QString m_reason;
};

} // namespace sbxtest
