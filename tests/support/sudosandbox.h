#pragma once

#include "tests/support/testserver.h"

#include <QTemporaryDir>

namespace sbxtest {

using namespace Qt::StringLiterals;

// A sandbox-server test build (sandbox-server-filestest: it claims `file-sudo` and refuses its
// file routes anything under a folder named root-only, as AIO refuses its user root's files)
// whose shells find a stand-in `sudo` first: the tests run as root already, so it runs the
// command, and logs how it was asked.
struct SudoSandbox {
    QTemporaryDir home;
    TestServer server;
    // Where the stand-in sudo logs its arguments, one line a call.
    QString sudoLog() const { return home.filePath(u"sudo.log"_s); }
    // Starts binary (the filestest build) with the stand-in sudo on its shells' PATH.
    bool start(const QString &binary);
};

} // namespace sbxtest
