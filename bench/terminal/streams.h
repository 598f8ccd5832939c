#pragma once

// The generators the terminal benchmarks share, so each measures the same kind of bytes.
#include <QByteArray>
#include <QString> // operator+ of QByteArray, through QStringBuilder

#include <iterator>
#include <random>
#include <vector>

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

// `ls -lR --color=always` of a large tree as the PTY delivers it (\r\n line ends): directory
// headers and totals, long-format rows, names in GNU ls's default colours for directories,
// symbolic links and programs. Synthetic, so every machine and both terminals get the same
// bytes.
inline QByteArray lsLongStream(qsizetype size, unsigned seed) {
    static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    static const char *const owners[] = {"root", "daemon", "man", "www-data", "postgres"};
    static const char *const extensions[] = {"h", "so", "py", "txt", "gz", "conf", "1", "html"};
    std::mt19937 rng(seed);
    const auto padded = [](qint64 value, int width) {
        return QByteArray::number(value).rightJustified(width, ' ');
    };
    QByteArray out;
    QByteArray path = "/usr";
    int depth = 0;
    while (out.size() < size) {
        out += path + ":\r\ntotal " + QByteArray::number(int(rng() % 4000)) + "\r\n";
        std::vector<QByteArray> dirs;
        const int entries = 3 + int(rng() % 40);
        for (int i = 0; i < entries; ++i) {
            const unsigned kind = rng() % 10; // 0-1 directory, 2 link, 3 program, else a file
            QByteArray name = word(rng);
            const char *owner = owners[rng() % std::size(owners)];
            QByteArray line = kind < 2    ? "drwxr-xr-x"
                              : kind == 2 ? "lrwxrwxrwx"
                              : kind == 3 ? "-rwxr-xr-x"
                                          : "-rw-r--r--";
            line += ' ' + padded(kind < 2 ? 2 + int(rng() % 30) : 1, 2) + ' ' + owner + ' ' +
                    owner + ' ' + padded(kind < 2 ? 4096 : qint64(rng() % 900000), 7) + ' ' +
                    months[rng() % 12] + ' ' + padded(1 + int(rng() % 28), 2) + ' ';
            if (rng() % 3 == 0)
                line += ' ' + QByteArray::number(2015 + int(rng() % 9));
            else
                line += padded(int(rng() % 24), 2).replace(' ', '0') + ':' +
                        padded(int(rng() % 60), 2).replace(' ', '0');
            line += ' ';
            if (kind < 2) {
                line += "\x1b[01;34m" + name + "\x1b[0m";
                dirs.push_back(name);
            } else if (kind == 2) {
                line += "\x1b[01;36m" + name + "\x1b[0m -> ../lib/" + word(rng) + ".so." +
                        QByteArray::number(int(rng() % 9));
            } else if (kind == 3) {
                line += "\x1b[01;32m" + name + "\x1b[0m";
            } else {
                line += name + '.' + extensions[rng() % std::size(extensions)];
            }
            out += line + "\r\n";
        }
        out += "\r\n";
        if (!dirs.empty() && depth < 6) {
            path += '/' + dirs[rng() % dirs.size()];
            ++depth;
        } else {
            path = "/usr/" + word(rng);
            depth = 1;
        }
    }
    return out.left(out.lastIndexOf("\r\n", size - 1) + 2);
}

// `cat` of a large C++ source file as the PTY delivers it: comments, signatures, nested
// blocks indented by four spaces (now and then a tab), statements and blank lines.
inline QByteArray sourceStream(qsizetype size, unsigned seed) {
    static const char *const types[] = {"int",  "auto",   "const QString &", "std::size_t",
                                        "bool", "double", "QByteArray",      "std::vector<int>"};
    static const char *const ops[] = {" = ", " += ", " == ", " < ", " != ", " * ", " - "};
    std::mt19937 rng(seed);
    QByteArray out;
    const auto indent = [&](int level) {
        return rng() % 50 == 0 ? QByteArray(level, '\t') : QByteArray(4 * level, ' ');
    };
    while (out.size() < size) {
        out += "// " + word(rng) + ' ' + word(rng) + ' ' + word(rng) + " of the " + word(rng) +
               ", " + word(rng) + " when " + word(rng) + " is " + word(rng) + ".\r\n";
        out += QByteArray(types[rng() % std::size(types)]) + ' ' + word(rng) + "::" + word(rng) +
               '(' + types[rng() % std::size(types)] + ' ' + word(rng) + ", int " + word(rng) +
               ") {\r\n";
        int level = 1;
        const int statements = 4 + int(rng() % 30);
        for (int i = 0; i < statements; ++i) {
            const unsigned kind = rng() % 8;
            if (kind == 0 && level < 5) {
                out += indent(level) + "if (" + word(rng) + ops[rng() % std::size(ops)] +
                       word(rng) + ") {\r\n";
                ++level;
            } else if (kind == 1 && level > 1) {
                --level;
                out += indent(level) + "}\r\n";
            } else if (kind == 2) {
                out += indent(level) + "for (int i = 0; i < " + word(rng) + ".size(); ++i)\r\n";
                out += indent(level + 1) + word(rng) + "[i]" + ops[rng() % std::size(ops)] +
                       word(rng) + ";\r\n";
            } else if (kind == 3) {
                out += "\r\n";
            } else {
                out += indent(level) + types[rng() % std::size(types)] + ' ' + word(rng) +
                       ops[rng() % 2] + word(rng) + '(' + word(rng) + ", " +
                       QByteArray::number(int(rng() % 1000)) + ");\r\n";
            }
        }
        while (level > 1) {
            --level;
            out += indent(level) + "}\r\n";
        }
        out += indent(level) + "return " + word(rng) + ";\r\n}\r\n\r\n";
    }
    return out.left(out.lastIndexOf("\r\n", size - 1) + 2);
}

} // namespace sbxbench
