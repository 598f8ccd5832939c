// Throughput of the terminal: six fixed 8 MiB byte streams fed through the emulation alone
// and through an offscreen TerminalView at 120x40 that paints as it would on screen. The
// last two are vtebench's kind: `ls -lR --color=always` of a large tree, `cat` of a source file.
#include "bench/terminal/streams.h"
#include "models/terminal/terminalemulation.h"
#include "tests/support/paintcounter.h"
#include "widgets/terminal/terminalview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QScrollBar>
#include <QTextStream>

#include <vterm.h>

#include <cstdio>
#include <random>

using namespace sbx;
using namespace sbxbench;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

constexpr qsizetype StreamSize = 8 * 1024 * 1024;
constexpr qsizetype Chunk = 16 * 1024; // what one WebSocket frame of PTY output carries
constexpr int Cols = 120;
constexpr int Rows = 40;

QByteArray plainStream() {
    std::mt19937 rng(1);
    QByteArray out;
    while (out.size() < StreamSize) {
        QByteArray line;
        const int width = 20 + int(rng() % 100);
        while (line.size() < width)
            line += word(rng) + ' ';
        out += line.left(width) + "\r\n";
    }
    return out.left(StreamSize);
}

QByteArray sgrStream() {
    std::mt19937 rng(2);
    QByteArray out;
    while (out.size() < StreamSize)
        out += sgrLine(rng, Cols);
    return out.left(StreamSize);
}

QByteArray unicodeStream() {
    std::mt19937 rng(3);
    const QString cjk = u"漢字仮名交じり文中文字符日本語한국어"_s;
    const QString emoji = u"😀🚀🎉👍🔥💡"_s;
    const QString combining = u"e\u0301a\u0300o\u0308n\u0303"_s;
    QByteArray out;
    while (out.size() < StreamSize) {
        QString line;
        int width = 0;
        while (width < Cols - 4) {
            switch (rng() % 4) {
            case 0:
                line += cjk.at(int(rng() % cjk.size()));
                width += 2;
                break;
            case 1: {
                const int i = int(rng() % 6) * 2; // each emoji is a surrogate pair
                line += emoji.mid(i, 2);
                width += 2;
                break;
            }
            case 2: {
                const int i = int(rng() % 4) * 2;
                line += combining.mid(i, 2);
                width += 1;
                break;
            }
            default:
                line += QString::fromLatin1(word(rng)) + QLatin1Char(' ');
                width = int(line.size()); // close enough: ASCII dominates the width here
                break;
            }
        }
        out += line.toUtf8() + "\r\n";
    }
    // Cut at a line end: a half UTF-8 character at the end would not be fair to either side.
    return out.left(out.lastIndexOf("\r\n", StreamSize - 1) + 2);
}

QByteArray regionStream() {
    std::mt19937 rng(4);
    QByteArray out = "\x1b[2J\x1b[3;38r\x1b[38;1H";
    int lines = 0;
    while (out.size() < StreamSize) {
        QByteArray line;
        const int width = 30 + int(rng() % 80);
        while (line.size() < width)
            line += word(rng) + ' ';
        out += line.left(width) + "\r\n";
        if (++lines % 40 == 0) // a status line outside the region, as top or a build tool draws
            out +=
                "\x1b[s\x1b[1;1H\x1b[7mstatus " + QByteArray::number(lines) + "\x1b[0m\x1b[K\x1b[u";
    }
    return out.left(out.lastIndexOf("\r\n", StreamSize - 1) + 2);
}

QByteArray lsStream() {
    return lsLongStream(StreamSize, 5);
}

QByteArray catStream() {
    return sourceStream(StreamSize, 6);
}

double mbPerSecond(qsizetype bytes, qint64 nsecs) {
    return double(bytes) / 1e6 / (nsecs / 1e9);
}

// libvterm's parser and state layer with callbacks that do nothing: the ceiling for any
// emulation built on it, printed so our own overhead can be read off.
double runStateOnly(const QByteArray &data) {
    VTerm *vt = vterm_new(Rows, Cols);
    vterm_set_utf8(vt, 1);
    VTermState *state = vterm_obtain_state(vt);
    VTermStateCallbacks callbacks{};
    callbacks.putglyph = [](VTermGlyphInfo *, VTermPos, void *) {
        return 1;
    };
    callbacks.scrollrect = [](VTermRect, int, int, void *) {
        return 1;
    };
    vterm_state_set_callbacks(state, &callbacks, nullptr);
    vterm_state_reset(state, 1);
    QElapsedTimer timer;
    timer.start();
    for (qsizetype at = 0; at < data.size(); at += Chunk)
        vterm_input_write(vt, data.constData() + at, size_t(std::min(Chunk, data.size() - at)));
    const qint64 elapsed = timer.nsecsElapsed();
    vterm_free(vt);
    return mbPerSecond(data.size(), elapsed);
}

double runEmulation(const QByteArray &data) {
    TerminalEmulation emulation(Cols, Rows);
    QElapsedTimer timer;
    timer.start();
    for (qsizetype at = 0; at < data.size(); at += Chunk)
        emulation.feed(
            QByteArray::fromRawData(data.constData() + at, std::min(Chunk, data.size() - at)));
    return mbPerSecond(data.size(), timer.nsecsElapsed());
}

double runView(const QByteArray &data, int *paints) {
    TerminalEmulation emulation(80, 24);
    TerminalView view(&emulation);
    const QSizeF cell = view.cellSize();
    view.resize(int(Cols * cell.width()) + view.verticalScrollBar()->sizeHint().width() + 1,
                int(Rows * cell.height()));
    view.show();
    QCoreApplication::processEvents();
    if (view.columns() != Cols || view.rows() != Rows)
        std::fprintf(stderr, "view grid is %dx%d, not %dx%d\n", view.columns(), view.rows(), Cols,
                     Rows);
    PaintCounter counter;
    view.viewport()->installEventFilter(&counter);
    QElapsedTimer timer;
    timer.start();
    // As the GUI would: one chunk arrives, the event loop runs (timers, paints), the next one.
    for (qsizetype at = 0; at < data.size(); at += Chunk) {
        view.feed(
            QByteArray::fromRawData(data.constData() + at, std::min(Chunk, data.size() - at)));
        QCoreApplication::processEvents();
    }
    const qint64 elapsed = timer.nsecsElapsed();
    // The last frame waits for its timer: idle time, not work, so it is not timed.
    QElapsedTimer tail;
    tail.start();
    while (tail.elapsed() < 40)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    *paints = counter.paints;
    return mbPerSecond(data.size(), elapsed);
}

} // namespace

int main(int argc, char **argv) {
    QApplication app(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    const QString dir = args.size() > 1 ? args.at(1) : QDir::tempPath() + u"/sbx-term-bench"_s;
    QDir().mkpath(dir);
    const struct {
        const char *name;
        QByteArray (*make)();
    } streams[] = {{"plain", plainStream},   {"sgr", sgrStream}, {"unicode", unicodeStream},
                   {"region", regionStream}, {"ls", lsStream},   {"cat", catStream}};
    std::printf("%-8s %10s %10s %10s %8s\n", "stream", "vtermstate", "emulation", "view", "paints");
    for (const auto &stream : streams) {
        const QByteArray data = stream.make();
        QFile file(dir + QLatin1Char('/') + QLatin1String(stream.name) + u".bin"_s);
        if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size()) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(file.fileName()));
            return 1;
        }
        file.close();
        // Best of two: the machine is shared, the slower run measures the neighbours.
        const double stateOnly = std::max(runStateOnly(data), runStateOnly(data));
        const double emulation = std::max(runEmulation(data), runEmulation(data));
        int paints = 0;
        const double view = std::max(runView(data, &paints), runView(data, &paints));
        std::printf("%-8s %10.1f %10.1f %10.1f %8d\n", stream.name, stateOnly, emulation, view,
                    paints);
        std::fflush(stdout);
    }
    return 0;
}
