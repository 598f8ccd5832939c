// Memory of the whole process with 100 000 lines in the scrollback of an offscreen
// TerminalView: bench-terminal-memory plain|sgr prints VmRSS and VmHWM before and after.
// bench-terminal-memory plain|sgr --dump FILE writes the same bytes for xterm.js instead.
#include "bench/terminal/streams.h"
#include "models/terminal/terminalemulation.h"
#include "widgets/terminal/terminalview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>

#include <cstdio>
#include <cstring>
#include <functional>
#include <random>

using namespace sbx;
using namespace sbxbench;
using namespace Qt::StringLiterals;

namespace {

constexpr int Lines = 100000;
constexpr qsizetype Chunk = 16 * 1024;
constexpr int Rows = 40;

struct Stream {
    const char *name;
    int cols;
    QByteArray (*line)(std::mt19937 &rng);
};

// Words filling exactly 80 columns.
QByteArray plainLine(std::mt19937 &rng) {
    QByteArray line;
    while (line.size() < 80)
        line += word(rng) + ' ';
    return line.left(80) + "\r\n";
}

// The throughput benchmark's SGR stream, one line of it: a colour change every word.
QByteArray sgrLine120(std::mt19937 &rng) {
    return sgrLine(rng, 120);
}

const Stream Streams[] = {{"plain", 80, plainLine}, {"sgr", 120, sgrLine120}};

// Generated chunk by chunk: holding a 50 MB stream would be measured along with the terminal.
void generate(const Stream &stream, const std::function<void(const QByteArray &)> &sink) {
    std::mt19937 rng(7);
    QByteArray chunk;
    // The screen's rows come on top: the scrollback itself ends up holding Lines lines.
    for (int i = 0; i < Lines + Rows; ++i) {
        chunk += stream.line(rng);
        if (chunk.size() >= Chunk) {
            sink(chunk);
            chunk.clear();
        }
    }
    if (!chunk.isEmpty())
        sink(chunk);
}

QByteArray statusField(const QByteArray &status, const char *name) {
    for (const QByteArray &line : status.split('\n'))
        if (line.startsWith(name))
            return line.mid(qsizetype(std::strlen(name))).trimmed();
    return {};
}

QByteArray procStatus() {
    QFile file(u"/proc/self/status"_s);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void settle() {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 100)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

} // namespace

int main(int argc, char **argv) {
    const Stream *stream = nullptr;
    for (const Stream &s : Streams)
        if (argc > 1 && std::strcmp(argv[1], s.name) == 0)
            stream = &s;
    if (!stream) {
        std::fprintf(stderr, "usage: bench-terminal-memory plain|sgr [--dump FILE]\n");
        return 2;
    }
    if (argc > 3 && std::strcmp(argv[2], "--dump") == 0) {
        // No QApplication: the dump needs no display and is not measured.
        QFile file(QString::fromLocal8Bit(argv[3]));
        if (!file.open(QIODevice::WriteOnly))
            return 1;
        generate(*stream, [&file](const QByteArray &chunk) { file.write(chunk); });
        return 0;
    }

    QApplication app(argc, argv);
    TerminalEmulation standalone(80, 24);
    TerminalView view(&standalone);
    view.setScrollbackLines(Lines);
    const QSizeF cell = view.cellSize();
    view.resize(int(stream->cols * cell.width()) + view.verticalScrollBar()->sizeHint().width() + 1,
                int(Rows * cell.height()));
    view.show();
    settle();
    if (view.columns() != stream->cols || view.rows() != Rows)
        std::fprintf(stderr, "view grid is %dx%d, not %dx%d\n", view.columns(), view.rows(),
                     stream->cols, Rows);
    const QByteArray before = procStatus();
    qsizetype bytes = 0;
    // As the GUI would: a chunk arrives, the event loop runs (timers, paints), the next one.
    generate(*stream, [&view, &bytes](const QByteArray &chunk) {
        view.feed(chunk);
        bytes += chunk.size();
        QCoreApplication::processEvents();
    });
    settle();
    const QByteArray after = procStatus();
    const TerminalEmulation *emulation = view.emulation();
    std::printf("%s %d %lld %d %s %s %s %s\n", stream->name, emulation->scrollbackCount(),
                static_cast<long long>(bytes), view.columns(),
                statusField(before, "VmRSS:").split(' ').first().constData(),
                statusField(before, "VmHWM:").split(' ').first().constData(),
                statusField(after, "VmRSS:").split(' ').first().constData(),
                statusField(after, "VmHWM:").split(' ').first().constData());
    return 0;
}
