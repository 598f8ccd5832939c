// Memory of the console with ten terminals open, each with 10 000 lines of scrollback: ten
// TerminalPanes in a tab widget, as the console holds them, each a shell in a sandbox-server on
// loopback that printed 10 000 lines. Prints VmRSS and VmHWM of this process (KiB) before the
// first terminal opened and after the last one settled.
// bench-terminal-sessions [SERVER_BINARY]
#include "bench/terminal/benchserver.h"
#include "bench/terminal/streams.h"
#include "client/sandboxclient.h"
#include "models/terminal/terminalemulation.h"
#include "widgets/shell/terminalpane.h"
#include "widgets/terminal/terminalview.h"

#include <QApplication>
#include <QFile>
#include <QScrollBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

using namespace sbx;
using namespace sbxbench;
using namespace Qt::StringLiterals;

namespace {

constexpr int Terminals = 10;
constexpr int Lines = 10000;
constexpr int Cols = 120;
constexpr int Rows = 40;

QByteArray statusField(const char *name) {
    QFile file(u"/proc/self/status"_s);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : file.readAll().split('\n'))
        if (line.startsWith(name))
            return line.mid(qsizetype(std::strlen(name))).trimmed().split(' ').first();
    return {};
}

// The first `lines` lines of a stream, with the PTY's \r\n turned back into a file's \n.
QByteArray fileOf(const QByteArray &stream, int lines) {
    qsizetype at = 0;
    for (int i = 0; i < lines && at >= 0; ++i)
        at = stream.indexOf("\r\n", at) + 2;
    QByteArray text = stream.left(at);
    text.replace("\r\n", "\n");
    return text;
}

bool atPrompt(const TerminalEmulation *emulation) {
    const QString text = emulation->screenText().trimmed();
    return text.endsWith(QLatin1Char('$')) || text.endsWith(QLatin1Char('#'));
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const QString binary = args.size() > 1 ? args.at(1) : QStringLiteral(SBX_SERVER_BINARY);
    QTemporaryDir workspace;
    // Half the terminals show a source file, half a coloured `ls -lR`: plain and SGR lines.
    // More than fit: the scrollback is full at 10 000 whatever the screen's height settles at.
    const int fileLines = Lines + 2 * Rows;
    QFile source(workspace.filePath(u"source.txt"_s));
    QFile listing(workspace.filePath(u"listing.txt"_s));
    if (!source.open(QIODevice::WriteOnly) || !listing.open(QIODevice::WriteOnly) ||
        source.write(fileOf(sourceStream(4 << 20, 11), fileLines)) < 0 ||
        listing.write(fileOf(lsLongStream(4 << 20, 12), fileLines)) < 0) {
        std::fprintf(stderr, "cannot write the files to show\n");
        return 1;
    }
    source.close();
    listing.close();
    QProcess server;
    const QUrl url = startServer(server, binary, workspace.path());
    if (!url.isValid()) {
        std::fprintf(stderr, "sandbox-server (%s) did not start: %s\n", qPrintable(binary),
                     server.readAllStandardError().constData());
        return 1;
    }

    int status = 0;
    {
        SandboxClient client({url, {}}, {});
        QTabWidget tabs;
        tabs.resize(1200, 800);
        tabs.show();
        idle(200);
        const QByteArray rss0 = statusField("VmRSS:");
        const QByteArray hwm0 = statusField("VmHWM:");
        std::vector<TerminalPane *> panes;
        for (int i = 0; i < Terminals; ++i) {
            auto *pane = new TerminalPane(&client);
            tabs.addTab(pane, u"shell %1"_s.arg(i + 1));
            panes.push_back(pane);
        }
        for (int i = 0; i < Terminals; ++i) {
            TerminalPane *pane = panes[size_t(i)];
            tabs.setCurrentWidget(pane);
            if (!waitFor([&] { return pane->channel()->state() == TerminalChannel::State::Live; },
                         10000) ||
                !waitFor([&] { return atPrompt(pane->view()->emulation()); }, 10000)) {
                std::fprintf(stderr, "terminal %d: no shell prompt (state %d):\n%s\n", i + 1,
                             int(pane->channel()->state()),
                             qPrintable(pane->view()->emulation()->screenText()));
                return 1;
            }
        }
        // Sized once every banner is gone, so that each grid is 120x40 before any output.
        TerminalView *first = panes.front()->view();
        const QSizeF cell = first->cellSize();
        tabs.resize(tabs.width() + int((Cols - first->columns()) * cell.width()),
                    tabs.height() + (Rows - first->rows()) * int(cell.height()));
        idle(300);
        for (int i = 0; i < Terminals; ++i)
            panes[size_t(i)]->session()->sendInput(i % 2 ? "cat listing.txt\r"
                                                         : "cat source.txt\r");
        for (int i = 0; i < Terminals; ++i) {
            const TerminalEmulation *e = panes[size_t(i)]->view()->emulation();
            if (!waitFor([&] { return e->scrollbackCount() >= Lines && atPrompt(e); }, 60000)) {
                std::fprintf(stderr, "terminal %d: %d lines of scrollback, not %d\n", i + 1,
                             e->scrollbackCount(), Lines);
                return 1;
            }
        }
        idle(300);
        int columns = 0;
        int rows = 0;
        int minScrollback = Lines * 2;
        for (TerminalPane *pane : panes) {
            columns = pane->view()->columns();
            rows = pane->view()->rows();
            minScrollback = std::min(minScrollback, pane->view()->emulation()->scrollbackCount());
        }
        const QByteArray rss = statusField("VmRSS:");
        const QByteArray hwm = statusField("VmHWM:");
        std::printf("terminals %d scrollback %d cols %d rows %d rss0 %s hwm0 %s rss %s hwm %s\n",
                    Terminals, minScrollback, columns, rows, rss0.constData(), hwm0.constData(),
                    rss.constData(), hwm.constData());
        for (TerminalPane *pane : panes)
            pane->terminateSession();
        idle(100);
        status = minScrollback >= Lines ? 0 : 1;
    }
    server.terminate();
    server.waitForFinished(10000);
    return status;
}
