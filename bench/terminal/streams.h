#pragma once

// The generators the terminal benchmarks share, so each measures the same kind of bytes.
#include <QByteArray>
#include <QString> // operator+ of QByteArray, through QStringBuilder

#include <random>

namespace sbxbench {

// A random word of 2 to 10 letters and digits.
inline QByteArray word(std::mt19937 &rng) {
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    QByteArray w;
    const int len = 2 + int(rng() % 9);
    for (int i = 0; i < len; ++i)
        w += letters[rng() % (sizeof letters - 1)];
    return w;
}

// One line of the SGR stream, cols wide at most: a colour change (16, 256, true colour or
// underline on 256) before every word, a reset after it.
inline QByteArray sgrLine(std::mt19937 &rng, int cols) {
    QByteArray out;
    int col = 0;
    while (col < cols - 12) {
        const QByteArray w = word(rng);
        switch (rng() % 4) {
        case 0:
            out += "\x1b[" + QByteArray::number(30 + int(rng() % 8)) + 'm';
            break;
        case 1:
            out += "\x1b[1;38;5;" + QByteArray::number(int(rng() % 256)) + 'm';
            break;
        case 2:
            out += "\x1b[38;2;" + QByteArray::number(int(rng() % 256)) + ';' +
                   QByteArray::number(int(rng() % 256)) + ';' +
                   QByteArray::number(int(rng() % 256)) + 'm';
            break;
        default:
            out += "\x1b[4;48;5;" + QByteArray::number(int(rng() % 256)) + 'm';
            break;
        }
        out += w + "\x1b[0m ";
        col += int(w.size()) + 1;
    }
    return out + "\r\n";
}

} // namespace sbxbench
