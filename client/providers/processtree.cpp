#include "client/providers/processtree.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QSet>

#include <csignal>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

struct StatLine {
    char state = 0;
    qint64 parent = 0;
};

// "pid (comm) S ppid ...": comm may hold spaces and parentheses, so parse after the last ')'.
StatLine readStat(qint64 pid) {
    QFile file(u"/proc/%1/stat"_s.arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = file.read(4096);
    const qsizetype close = text.lastIndexOf(')');
    if (close < 0)
        return {};
    const QList<QByteArray> fields = text.mid(close + 1).trimmed().split(' ');
    if (fields.size() < 2 || fields.at(0).isEmpty())
        return {};
    return {fields.at(0).at(0), fields.at(1).toLongLong()};
}

} // namespace

QList<qint64> processTree(qint64 root) {
    if (root <= 0)
        return {};
    QHash<qint64, QList<qint64>> children;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid)
            continue;
        const StatLine stat = readStat(pid);
        // A zombie has exited (its parent has not reaped it yet): nothing there to stop.
        if (stat.state != 0 && stat.state != 'Z' && stat.state != 'X')
            children[stat.parent].append(pid);
    }
    QList<qint64> tree{root};
    for (qsizetype i = 0; i < tree.size(); ++i)
        tree += children.value(tree.at(i));
    return tree;
}

QList<qint64> signalProcessTree(qint64 root, int sig) {
    QList<qint64> signalled;
    QSet<qint64> seen;
    for (;;) {
        bool found = false;
        const QList<qint64> tree = processTree(root);
        for (const qint64 pid : tree) {
            if (seen.contains(pid))
                continue;
            seen.insert(pid);
            found = true;
            if (::kill(static_cast<pid_t>(pid), sig) == 0)
                signalled.append(pid);
        }
        if (!found)
            return signalled;
    }
}

char processState(qint64 pid) {
    return pid > 0 ? readStat(pid).state : 0;
}

} // namespace sbx
