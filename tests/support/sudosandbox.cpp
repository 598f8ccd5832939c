#include "tests/support/sudosandbox.h"

#include <QDir>
#include <QFile>

namespace sbxtest {

using namespace Qt::StringLiterals;

bool SudoSandbox::built() {
#ifdef SBX_FILESTEST_BINARY
    return true;
#else
    return false;
#endif
}

bool SudoSandbox::start() {
#ifdef SBX_FILESTEST_BINARY
    const QString binary = QStringLiteral(SBX_FILESTEST_BINARY);
#else
    const QString binary;
    return false;
#endif
    const QString bin = home.filePath(u"bin"_s);
    QDir().mkpath(bin);
    QFile sudo(bin + u"/sudo"_s);
    if (!sudo.open(QIODevice::WriteOnly))
        return false;
    sudo.write("#!/bin/sh\n"
               "echo \"$*\" >> \"$HOME/sudo.log\"\n"
               "[ \"$1\" = -n ] || { echo 'sudo: -n expected' >&2; exit 1; }\n"
               "shift; [ \"$1\" = -- ] && shift\n"
               "exec \"$@\"\n");
    sudo.close();
    sudo.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    // /etc/profile sets PATH; the login file the shells read afterwards puts bin first.
    QFile profile(home.filePath(u".bash_profile"_s));
    if (!profile.open(QIODevice::WriteOnly))
        return false;
    profile.write("PATH=\"" + bin.toUtf8() + ":$PATH\"\n");
    profile.close();
    TestServer::Options options;
    options.binary = binary;
    options.env.insert(u"HOME"_s, home.path());
    return server.start(options);
}

} // namespace sbxtest
