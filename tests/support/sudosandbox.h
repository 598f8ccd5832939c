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
    // Starts the filestest build with the stand-in sudo on its shells' PATH.
    bool start();
    // False where the build has no filestest server (SBX_SERVER_TESTS=OFF).
    static bool built();
};

} // namespace sbxtest

// In a test function: starts sandbox, or skips the test saying why where it cannot be built.
#define SBX_START_SUDO_SANDBOX(sandbox)                                                            \
    do {                                                                                           \
        if (!sbxtest::SudoSandbox::built())                                                        \
            QSKIP("needs the sandbox-server-filestest build (SBX_SERVER_TESTS=ON)");               \
        QVERIFY2((sandbox).start(), qPrintable((sandbox).server.error()));                         \
    } while (false)
