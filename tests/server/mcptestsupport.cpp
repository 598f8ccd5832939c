#include "tests/server/mcptestsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLockFile>
#include <QProcess>
#include <QStandardPaths>

namespace sbxtest {

using namespace Qt::StringLiterals;

namespace {

QString npmRoot() {
    return QStringLiteral(SBX_MCP_NPM_DIR);
}

QString installedVersion(const QString &prefix, const QString &package) {
    QFile file(prefix + u"/node_modules/"_s + package + u"/package.json"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value("version"_L1).toString();
}

} // namespace

QString npmCacheDir() {
    return npmRoot() + u"/cache"_s;
}

namespace {

// One npm package in its own prefix under the build folder; its dist/index.js.
QString installedNpmServer(const QString &folder, const QString &package, const QString &version,
                           QString *why) {
    const QString prefix = npmRoot() + u'/' + folder;
    const QString script = prefix + u"/node_modules/"_s + package + u"/dist/index.js"_s;
    QDir().mkpath(prefix);
    // Suites run in parallel: one installs, the others wait for it.
    QLockFile lock(npmRoot() + u'/' + folder + u".lock"_s);
    lock.setStaleLockTime(0);
    if (!lock.tryLock(300000)) {
        *why = u"could not take the npm install lock in "_s + npmRoot();
        return {};
    }
    if (installedVersion(prefix, package) == version && QFile::exists(script))
        return script;
    const QString npm = QStandardPaths::findExecutable(u"npm"_s);
    if (npm.isEmpty() || QStandardPaths::findExecutable(u"node"_s).isEmpty()) {
        *why = u"node or npm is not on PATH"_s;
        return {};
    }
    QProcess install;
    install.setProcessChannelMode(QProcess::MergedChannels);
    install.start(npm, {u"install"_s, u"--prefix"_s, prefix, u"--cache"_s, npmCacheDir(),
                        u"--no-audit"_s, u"--no-fund"_s, u"--loglevel=error"_s,
                        package + u"@"_s + version});
    if (!install.waitForFinished(240000)) {
        install.kill();
        install.waitForFinished(5000);
        *why = u"npm install of "_s + package + u" did not finish in 240 s"_s;
        return {};
    }
    if (install.exitCode() != 0 || installedVersion(prefix, package) != version) {
        *why = u"npm install of "_s + package + u"@"_s + version + u" failed: "_s +
               QString::fromUtf8(install.readAll().right(800));
        return {};
    }
    return script;
}

} // namespace

QString installedEverythingServer(QString *why) {
    return installedNpmServer(u"everything"_s, QString::fromLatin1(kEverythingPackage),
                              QString::fromLatin1(kEverythingVersion), why);
}

QString installedFilesystemServer(QString *why) {
    return installedNpmServer(u"filesystem"_s, QString::fromLatin1(kFilesystemPackage),
                              QString::fromLatin1(kFilesystemVersion), why);
}

QJsonObject everythingEntry(const QString &script, const QJsonObject &extra) {
    QJsonObject entry = extra;
    entry.insert("command"_L1, u"node"_s);
    entry.insert("args"_L1, QJsonArray{script, u"stdio"_s});
    return entry;
}

HttpResult callTool(const QUrl &base, const QString &server, const QString &tool,
                    const QJsonObject &arguments, const HeaderPairs &headers, int timeoutMs) {
    QUrl url = base;
    url.setPath(u"/v1/mcp/"_s + server + u"/tools/"_s + tool);
    HeaderPairs all = headers;
    all.append(std::pair<QByteArray, QByteArray>("Content-Type", "application/json"));
    return request("POST", url, all, QJsonDocument(arguments).toJson(QJsonDocument::Compact),
                   timeoutMs);
}

QJsonObject filesystemEntry(const QString &script, const QStringList &folders) {
    QJsonArray args{script};
    for (const QString &folder : folders)
        args.append(folder);
    return {{"command"_L1, u"node"_s}, {"args"_L1, args}};
}

QString firstText(const QJsonObject &envelope) {
    const QJsonArray content = envelope.value("data"_L1).toObject().value("content"_L1).toArray();
    for (const QJsonValue &item : content) {
        if (item.toObject().value("type"_L1).toString() == "text"_L1)
            return item.toObject().value("text"_L1).toString();
    }
    return {};
}

QList<qint64> childProcesses(qint64 parent, const QByteArray &text) {
    QList<qint64> found;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool number = false;
        const qint64 pid = entry.toLongLong(&number);
        if (!number)
            continue;
        QFile stat(u"/proc/%1/stat"_s.arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray line = stat.readAll();
        // "pid (comm) state ppid ...": comm may hold spaces, so from the last ')'.
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() < 2 || fields.at(1).toLongLong() != parent || fields.at(0) == "Z")
            continue;
        QFile cmdline(u"/proc/%1/cmdline"_s.arg(pid));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().contains(text))
            found.append(pid);
    }
    return found;
}

bool processExists(qint64 pid) {
    return QFile::exists(u"/proc/%1"_s.arg(pid));
}

} // namespace sbxtest
