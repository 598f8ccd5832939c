#include "tests/engine/podmanservice.h"

#include "client/providers/engine/engineapi.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>

#include <csignal>
#include <sys/mount.h>
#include <sys/prctl.h>

using namespace sbx;

namespace sbxtest {

using namespace Qt::StringLiterals;

namespace {

// Extra tools hooks commonly use, taken when the machine has them.
const QStringList optionalTools = {u"grep"_s, u"sed"_s};

// Debian merges /bin and /lib into /usr; the image does the same with symlinks.
QString underUsr(const QString &path) {
    for (const QString &top : {u"/bin/"_s, u"/sbin/"_s, u"/lib/"_s, u"/lib64/"_s}) {
        if (path.startsWith(top))
            return u"/usr"_s + path;
    }
    return path;
}

QString tail(const QByteArray &text) {
    return QString::fromUtf8(text.right(1500)).trimmed();
}

bool run(const QString &program, const QStringList &args, QByteArray *output,
         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
         int timeoutMs = 120000) {
    QProcess process;
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, args);
    const bool finished = process.waitForFinished(timeoutMs);
    if (!finished)
        process.kill();
    process.waitForFinished(5000);
    if (output)
        *output = process.readAll();
    return finished && process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0;
}

} // namespace

PodmanService::PodmanService() {
    m_env = QProcessEnvironment::systemEnvironment();
    // The CLI must act on this service's storage, never on a remote connection.
    for (const QString &key : {u"CONTAINER_HOST"_s, u"CONTAINER_CONNECTION"_s, u"DOCKER_HOST"_s})
        m_env.remove(key);
    m_env.insert(u"CONTAINERS_CONF"_s, m_dir.filePath(u"containers.conf"_s));
    m_env.insert(u"CONTAINERS_STORAGE_CONF"_s, m_dir.filePath(u"storage.conf"_s));
}

PodmanService::~PodmanService() {
    stop();
}

QString PodmanService::socketPath() const {
    return m_dir.filePath(u"podman.sock"_s);
}

QString PodmanService::scratchDir() const {
    const QString path = m_dir.filePath(u"scratch"_s);
    QDir().mkpath(path);
    return path;
}

bool PodmanService::writeConfig() {
    const QString base = m_dir.path();
    // This machine: runc rather than crun, no systemd (cgroupfs, file events), bounded ulimits.
    const QString containers = uR"([containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
log_driver = "k8s-file"

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "%1/events.log"
tmp_dir = "%1/libpod"
)"_s.arg(base);
    // vfs: no overlay mounts to leak into the host when a run is killed.
    const QString storage = uR"([storage]
driver = "vfs"
graphroot = "%1/root"
runroot = "%1/run"
)"_s.arg(base);
    for (const auto &[name, text] :
         {std::pair{u"containers.conf"_s, containers}, std::pair{u"storage.conf"_s, storage}}) {
        QFile file(m_dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0) {
            m_reason = u"cannot write %1"_s.arg(file.fileName());
            return false;
        }
    }
    return true;
}

int PodmanService::podman(const QStringList &args, QByteArray *output, int timeoutMs) {
    QProcess process;
    process.setProcessEnvironment(m_env);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(m_podman, args);
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        if (output)
            *output = process.readAll();
        return -1;
    }
    if (output)
        *output = process.readAll();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

bool PodmanService::start() {
    if (!m_dir.isValid()) {
        m_reason = u"cannot make a temporary folder"_s;
        return false;
    }
    m_podman = QStandardPaths::findExecutable(u"podman"_s);
    if (m_podman.isEmpty()) {
        m_reason =
            u"podman is not installed (packaging/install-deps.sh installs podman and runc)"_s;
        return false;
    }
    if (QStandardPaths::findExecutable(u"runc"_s).isEmpty()) {
        m_reason = u"runc is not installed (packaging/install-deps.sh installs it)"_s;
        return false;
    }
    if (!writeConfig())
        return false;
    QByteArray output;
    if (podman({u"info"_s, u"--format"_s, u"{{.Host.OCIRuntime.Name}}"_s}, &output, 60000) != 0) {
        m_reason = u"podman cannot run here: `podman info` failed: %1"_s.arg(tail(output));
        return false;
    }

    m_service = std::make_unique<QProcess>();
    m_service->setProcessEnvironment(m_env);
    m_service->setProcessChannelMode(QProcess::MergedChannels);
    // The service dies with the test, even when the test is killed.
    m_service->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    m_service->start(m_podman,
                     {u"system"_s, u"service"_s, u"--time=0"_s, u"unix://"_s + socketPath()});
    if (!m_service->waitForStarted(10000)) {
        m_reason = u"cannot start `podman system service`"_s;
        return false;
    }
    // Bounded: the service answers /_ping once it is ready; waitForFinished is the poll's pace
    // and notices a service that gave up.
    const QDeadlineTimer deadline(60000);
    while (!deadline.hasExpired()) {
        if (QFileInfo::exists(socketPath()) &&
            performEngineRequest(unixEngineEndpoint(socketPath()),
                                 EngineRequest::get(u"/_ping"_s, 2000))
                .ok())
            return true;
        if (m_service->waitForFinished(100)) {
            m_reason = u"`podman system service` exited: %1"_s.arg(tail(m_service->readAll()));
            return false;
        }
    }
    m_reason = u"`podman system service` did not answer on %1 within 60 s"_s.arg(socketPath());
    return false;
}

bool PodmanService::buildImageTree(const QString &serverBinary, const QString &root) {
    QStringList binaries = {serverBinary, QStandardPaths::findExecutable(u"bash"_s)};
    QByteArray listing;
    if (run(u"dpkg"_s, {u"-L"_s, u"coreutils"_s}, &listing)) {
        for (const QByteArray &line : listing.split('\n')) {
            const QString path = QString::fromUtf8(line.trimmed());
            const QFileInfo info(path);
            if ((path.startsWith(u"/bin/"_s) || path.startsWith(u"/usr/bin/"_s)) && info.isFile() &&
                info.isExecutable())
                binaries.append(path);
        }
    } else {
        for (const QString &tool : {u"cat"_s, u"echo"_s, u"ls"_s, u"mkdir"_s, u"rm"_s, u"touch"_s,
                                    u"sleep"_s, u"env"_s, u"id"_s, u"true"_s})
            binaries.append(QStandardPaths::findExecutable(tool));
    }
    for (const QString &tool : optionalTools)
        binaries.append(QStandardPaths::findExecutable(tool));
    binaries.removeAll(QString());

    QSet<QString> libraries;
    static const QRegularExpression libraryPath(u"(/\\S+) \\(0x"_s);
    for (const QString &binary : std::as_const(binaries)) {
        QByteArray ldd;
        if (!run(u"ldd"_s, {binary}, &ldd))
            continue; // statically linked
        auto it = libraryPath.globalMatch(QString::fromUtf8(ldd));
        while (it.hasNext())
            libraries.insert(it.next().captured(1));
    }

    QDir dir(root);
    for (const QString &path : {u"usr/bin"_s, u"usr/sbin"_s, u"usr/lib"_s, u"usr/lib64"_s, u"etc"_s,
                                u"root"_s, u"tmp"_s, u"workspace"_s})
        dir.mkpath(path);
    for (const auto &[link, target] :
         {std::pair{u"bin"_s, u"usr/bin"_s}, std::pair{u"sbin"_s, u"usr/sbin"_s},
          std::pair{u"lib"_s, u"usr/lib"_s}, std::pair{u"lib64"_s, u"usr/lib64"_s},
          std::pair{u"usr/bin/sh"_s, u"bash"_s}})
        QFile::link(target, dir.filePath(link));
    QFile::setPermissions(dir.filePath(u"tmp"_s), QFileDevice::Permissions(0x7777));

    const auto copy = [&](const QString &source, const QString &target) {
        const QString destination = root + target;
        dir.mkpath(QFileInfo(destination).path());
        QFile::remove(destination);
        if (!QFile::copy(QFileInfo(source).canonicalFilePath(), destination)) {
            m_reason = u"cannot copy %1 into the test image"_s.arg(source);
            return false;
        }
        return true;
    };
    for (const QString &binary : std::as_const(binaries)) {
        const QString target = binary == serverBinary
                                   ? u"/usr/bin/sandbox-server"_s
                                   : underUsr(binary).replace(u"/usr/sbin/"_s, u"/usr/bin/"_s);
        if (!copy(binary, target))
            return false;
    }
    for (const QString &library : std::as_const(libraries)) {
        if (!copy(library, underUsr(library)))
            return false;
    }
    QFile passwd(dir.filePath(u"etc/passwd"_s));
    QFile group(dir.filePath(u"etc/group"_s));
    if (!passwd.open(QIODevice::WriteOnly) || !group.open(QIODevice::WriteOnly)) {
        m_reason = u"cannot write the test image's /etc"_s;
        return false;
    }
    passwd.write("root:x:0:0:root:/root:/bin/bash\n");
    group.write("root:x:0:\n");
    return true;
}

bool PodmanService::importSandboxImage(const QString &serverBinary, const QString &imageName,
                                       const QStringList &serverArgs) {
    const QString root = m_dir.filePath(u"image"_s);
    if (!buildImageTree(serverBinary, root))
        return false;
    const QString tarball = m_dir.filePath(u"image.tar"_s);
    QByteArray output;
    if (!run(u"tar"_s, {u"-C"_s, root, u"-cf"_s, tarball, u"."_s}, &output)) {
        m_reason = u"cannot pack the test image: %1"_s.arg(tail(output));
        return false;
    }
    QDir(root).removeRecursively();
    // As the AIO image: the server listens on 8080 on every address of the container.
    QString extra;
    for (const QString &arg : serverArgs)
        extra += u", \""_s + arg + u'"';
    const QString cmd =
        uR"(CMD ["/usr/bin/sandbox-server", "--host", "0.0.0.0", "--port", "8080", "--workspace", "/workspace"%1])"_s
            .arg(extra);
    if (podman({u"import"_s, u"--change"_s, cmd, u"--change"_s, u"WORKDIR /workspace"_s, tarball,
                imageName},
               &output) != 0) {
        m_reason = u"`podman import` failed: %1"_s.arg(tail(output));
        return false;
    }
    QFile::remove(tarball);
    return true;
}

bool PodmanService::canRunContainers(const QString &imageName) {
    QByteArray output;
    if (podman({u"run"_s, u"--rm"_s, imageName, u"/usr/bin/true"_s}, &output) != 0) {
        m_reason = u"a container cannot run here: %1"_s.arg(tail(output));
        return false;
    }
    return true;
}

void PodmanService::stop() {
    if (!m_service)
        return;
    if (!m_podman.isEmpty())
        podman({u"rm"_s, u"--all"_s, u"--force"_s, u"--time"_s, u"0"_s}, nullptr, 60000);
    m_service->terminate();
    if (!m_service->waitForFinished(10000)) {
        m_service->kill();
        m_service->waitForFinished(5000);
    }
    m_service.reset();
    unmountLeftovers();
}

void PodmanService::unmountLeftovers() {
    // A container's /dev/shm can stay mounted under the storage after its cleanup ran outside
    // this configuration; the temporary folder could not be removed with it.
    QFile mountInfo(u"/proc/self/mountinfo"_s);
    if (!mountInfo.open(QIODevice::ReadOnly))
        return;
    const QByteArray prefix = QFile::encodeName(m_dir.path()) + '/';
    QList<QByteArray> mountPoints;
    for (const QByteArray &line : mountInfo.readAll().split('\n')) {
        const QList<QByteArray> fields = line.split(' ');
        if (fields.size() > 4 && fields[4].startsWith(prefix))
            mountPoints.prepend(fields[4]); // innermost first
    }
    for (const QByteArray &mountPoint : std::as_const(mountPoints))
        ::umount2(mountPoint.constData(), MNT_DETACH);
}

} // namespace sbxtest
