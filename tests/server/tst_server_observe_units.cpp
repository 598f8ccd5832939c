// Observe's Beast-free readers, linked directly: /proc/<pid>/stat parsing (hostile comm
// names), cgroup key files, the source rule, and a process-tree scan over a fake /proc whose
// entries vanish or hold garbage.
#include "server/observe/cgroupstats.h"
#include "server/observe/procscan.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace sbx;

namespace {

std::string statLine(int pid, const std::string &comm, int ppid, long utime, long stime,
                     long rssPages) {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime
    // stime cutime cstime priority nice num_threads itrealvalue starttime vsize rss ...
    return std::to_string(pid) + " (" + comm + ") S " + std::to_string(ppid) +
           " 1 1 0 -1 0 0 0 0 0 " + std::to_string(utime) + " " + std::to_string(stime) +
           " 0 0 20 0 3 0 1000 123456 " + std::to_string(rssPages) + " 18446744073709551615 0";
}

bool writeFile(const std::string &name, const std::string &text) {
    const QString path = QString::fromStdString(name);
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(text.data(), static_cast<qint64>(text.size())) ==
               static_cast<qint64>(text.size());
}

} // namespace

class TestServerObserveUnits final : public QObject {
    Q_OBJECT

private slots:
    void statParsesHostileComm();
    void statRefusesTruncatedText();
    void cgroupKeyFiles();
    void sourceRule();
    void fakeTreeScan();
};

void TestServerObserveUnits::statParsesHostileComm() {
    ProcSample sample;
    QVERIFY(parseProcStat(statLine(42, "a) (b c", 7, 150, 50, 10), 4096, sample));
    QCOMPARE(sample.pid, 42);
    QCOMPARE(sample.comm, std::string("a) (b c"));
    QCOMPARE(sample.state, 'S');
    QCOMPARE(sample.ppid, 7);
    QCOMPARE(sample.cpuTicks, std::uint64_t(200));
    QCOMPARE(sample.threads, 3);
    QCOMPARE(sample.startTicks, std::uint64_t(1000));
    QCOMPARE(sample.rssBytes, std::int64_t(40960));
    QVERIFY(parseProcStat(statLine(1, "", 0, 0, 0, 0), 4096, sample));
    QCOMPARE(sample.comm, std::string());
}

void TestServerObserveUnits::statRefusesTruncatedText() {
    ProcSample sample;
    const std::string whole = statLine(42, "x", 7, 1, 1, 1);
    for (std::size_t cut : {std::size_t(0), std::size_t(3), std::size_t(10), whole.size() / 2})
        QVERIFY(!parseProcStat(whole.substr(0, cut), 4096, sample));
    QVERIFY(!parseProcStat("42 x) S 7", 4096, sample));
    QVERIFY(
        !parseProcStat("abc (x) S 7 1 1 0 -1 0 0 0 0 0 1 1 0 0 20 0 3 0 1000 1 1", 4096, sample));
    QVERIFY(
        !parseProcStat("42 (x) S 7 1 1 0 -1 0 0 0 0 0 z 1 0 0 20 0 3 0 1000 1 1", 4096, sample));
}

void TestServerObserveUnits::cgroupKeyFiles() {
    const std::string stat = "usage_usec 123\nuser_usec 100\nnr_periods 5\nnr_throttled 0\n";
    QCOMPARE(keyedValue(stat, "usage_usec"), std::optional<std::uint64_t>(123));
    QCOMPARE(keyedValue(stat, "nr_throttled"), std::optional<std::uint64_t>(0));
    QVERIFY(!keyedValue(stat, "usage"));
    QVERIFY(!keyedValue(stat, "throttled_usec"));
    QVERIFY(!keyedValue("oom_kill x\n", "oom_kill"));
    QCOMPARE(unifiedCgroupPath("12:memory:/a\n0::/user.slice/x.scope\n"),
             std::optional<std::string>("/user.slice/x.scope"));
    QCOMPARE(unifiedCgroupPath("0::/\n"), std::optional<std::string>("/"));
    QVERIFY(!unifiedCgroupPath("4:memory:/a\n"));

    QTemporaryDir dir;
    const std::string root = dir.path().toStdString();
    QVERIFY(writeFile(root + "/cpu.stat", stat));
    QVERIFY(writeFile(root + "/memory.current", "1048576\n"));
    QVERIFY(writeFile(root + "/memory.max", "max\n"));
    QVERIFY(writeFile(root + "/memory.events", "low 0\nhigh 0\nmax 2\noom 1\noom_kill 1\n"));
    QVERIFY(writeFile(root + "/memory.stat", "anon 4096\nfile 8192\nshmem 0\nslab 512\n"));
    const CgroupFigures figures = readCgroup(root);
    QCOMPARE(figures.usageUsec, std::optional<std::uint64_t>(123));
    QCOMPARE(figures.memCurrent, std::optional<std::uint64_t>(1048576));
    QVERIFY(!figures.memMax);
    QCOMPARE(figures.oomKill, std::optional<std::uint64_t>(1));
    QCOMPARE(figures.file, std::optional<std::uint64_t>(8192));
    QVERIFY(!figures.throttledUsec);
    QVERIFY(!readCgroup(root + "/missing").memCurrent);
}

void TestServerObserveUnits::sourceRule() {
    QTemporaryDir dir;
    const std::string root = dir.path().toStdString();
    CgroupPaths paths;
    paths.procSelfCgroup = root + "/cgroup";
    paths.procSelfCgroupNs = "/proc/self/ns/cgroup";
    // A temporary folder is never cgroup v2: auto falls back to the tree whatever the file says.
    paths.mount = root;
    QVERIFY(writeFile(root + "/cgroup", "0::/\n"));
    QCOMPARE(chooseSource(ObserveSource::Auto, paths).source, ObserveSource::ProcessTree);
    QVERIFY(writeFile(root + "/cgroup", "0::/user.slice/session-2.scope\n"));
    QCOMPARE(chooseSource(ObserveSource::Auto, paths).source, ObserveSource::ProcessTree);
    QCOMPARE(chooseSource(ObserveSource::ProcessTree, paths).source, ObserveSource::ProcessTree);
    const SourceChoice forced = chooseSource(ObserveSource::Cgroup, paths);
    QCOMPARE(forced.source, ObserveSource::Cgroup);
    QCOMPARE(forced.cgroupDir, paths.mount + "/user.slice/session-2.scope");
    QVERIFY(parseObserveSource("tree") == ObserveSource::ProcessTree);
    QVERIFY(!parseObserveSource("desktop"));
}

void TestServerObserveUnits::fakeTreeScan() {
    QTemporaryDir dir;
    const std::string proc = dir.path().toStdString();
    // 100 is the root; 101 and 102 its children, 103 a grandchild, 200 a stranger, 104 a child
    // whose stat is garbage, 105 a child that vanished (a folder without a stat file).
    QVERIFY(writeFile(proc + "/100/stat", statLine(100, "server", 1, 5, 5, 100)));
    QVERIFY(writeFile(proc + "/101/stat", statLine(101, "bash", 100, 10, 0, 200)));
    QVERIFY(writeFile(proc + "/102/stat", statLine(102, "py thon", 100, 20, 0, 300)));
    QVERIFY(writeFile(proc + "/103/stat", statLine(103, "sleep", 101, 0, 0, 50)));
    QVERIFY(writeFile(proc + "/200/stat", statLine(200, "other", 1, 0, 0, 999)));
    QVERIFY(writeFile(proc + "/104/stat", "104 (broken"));
    QVERIFY(QDir().mkpath(QString::fromStdString(proc + "/105")));
    QVERIFY(writeFile(proc + "/uptime", "3600.50 7000.00\n"));
    QVERIFY(writeFile(proc + "/vmstat", "nr_free_pages 1\noom_kill 3\n"));
    const ProcScanner scanner(proc);
    const std::vector<ProcSample> tree = scanner.descendants(100);
    std::vector<int> pids;
    for (const ProcSample &sample : tree)
        pids.push_back(sample.pid);
    std::sort(pids.begin(), pids.end());
    QCOMPARE(pids, (std::vector<int>{101, 102, 103}));
    // Parents come before their children.
    const auto at = [&tree](int pid) {
        return std::find_if(tree.begin(), tree.end(),
                            [pid](const ProcSample &s) { return s.pid == pid; }) -
               tree.begin();
    };
    QVERIFY(at(101) < at(103));
    QCOMPARE(scanner.uptimeSeconds(), std::optional<double>(3600.5));
    QCOMPARE(scanner.systemOomKills(), std::optional<std::uint64_t>(3));
    QVERIFY(!scanner.countFds(101));
    QVERIFY(!scanner.read(999));
    QCOMPARE(scanner.readAll({101, 999, 104, 102}).size(), std::size_t(2));
}

QTEST_GUILESS_MAIN(TestServerObserveUnits)
#include "tst_server_observe_units.moc"
