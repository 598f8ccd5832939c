// The shell group's Beast-free pieces on their own: the VT tracker (safe points, alternate
// screen, prompt markers, plain text), the output ring and the UTF-8 helpers.
#include "server/shell/outputring.h"
#include "server/shell/textutil.h"
#include "server/shell/vttracker.h"

#include <QTest>

using namespace sbx;

class TestServerShellUnits final : public QObject {
    Q_OBJECT

private slots:
    void markersAndText();
    void markerSplitAcrossFeeds();
    void alternateScreenModes();
    void safePointsNeverInsideSequences();
    void ringKeepsTheNewestBytes();
    void utf8Helpers();
};

void TestServerShellUnits::markersAndText() {
    VtTracker tracker;
    VtEvents events;
    tracker.feed("ls\r\n\x1b[?2004l\r\x1b]6973;start\x07"
                 "a\x1b[1;31mb\x1b[0m\r\n\x1b]0;title\x07\x1b]6973;prompt;7\x1b\\$ ",
                 events);
    QCOMPARE(events.markers.size(), std::size_t(2));
    QVERIFY(events.markers[0].kind == ShellMarker::Kind::Start);
    QVERIFY(events.markers[1].kind == ShellMarker::Kind::Prompt);
    QCOMPARE(events.markers[1].exitCode, 7);
    const std::string text = events.text;
    QCOMPARE(text.substr(0, events.markers[0].textEnd), std::string("ls\n"));
    QCOMPARE(text.substr(events.markers[0].textEnd,
                         events.markers[1].textEnd - events.markers[0].textEnd),
             std::string("ab\n"));
    QCOMPARE(text.substr(events.markers[1].textEnd), std::string("$ "));
}

void TestServerShellUnits::markerSplitAcrossFeeds() {
    VtTracker tracker;
    VtEvents events;
    tracker.feed("x\x1b]69", events);
    QVERIFY(events.markers.empty());
    QVERIFY(!tracker.atSafePoint());
    events.clear();
    tracker.feed("73;prompt;0\x07", events);
    QCOMPARE(events.markers.size(), std::size_t(1));
    QCOMPARE(events.markers[0].byteEnd, std::size_t(12));
    QVERIFY(tracker.atSafePoint());
}

void TestServerShellUnits::alternateScreenModes() {
    VtTracker tracker;
    VtEvents events;
    tracker.feed("\x1b[?1049h", events);
    QVERIFY(tracker.altScreen());
    tracker.feed("\x1b[?1049l", events);
    QVERIFY(!tracker.altScreen());
    tracker.feed("\x1b[?25;47h", events);
    QVERIFY(tracker.altScreen());
    tracker.feed("\x1b[?1047l", events);
    QVERIFY(!tracker.altScreen());
    // Not private, or another mode: no change.
    tracker.feed("\x1b[1049h\x1b[?1048h", events);
    QVERIFY(!tracker.altScreen());
}

void TestServerShellUnits::safePointsNeverInsideSequences() {
    VtTracker tracker;
    VtEvents events;
    std::string stream;
    for (int i = 0; i < 2000; ++i)
        stream += "\x1b[38;5;" + std::to_string(i % 256) + "m\xc3\xa9t\xe2\x82\xac line\r\n";
    tracker.feed(stream, events);
    QVERIFY(events.safePoints.size() > 10);
    for (const SafePoint &point : events.safePoints) {
        // Each point follows a newline: a line start, outside any sequence or character.
        QCOMPARE(stream[point.byteEnd - 1], '\n');
        VtTracker replay;
        VtEvents scratch;
        replay.feed(std::string_view(stream).substr(point.byteEnd, 9), scratch);
        QCOMPARE(scratch.text.size(), std::size_t(0));
    }
}

void TestServerShellUnits::ringKeepsTheNewestBytes() {
    OutputRing ring(16);
    ring.append("0123456789");
    ring.addSafePoint(4, false);
    ring.append("abcdefghij");
    QCOMPARE(ring.end(), std::uint64_t(20));
    QCOMPARE(ring.begin(), std::uint64_t(4));
    std::string out;
    QCOMPARE(ring.copy(0, 100, out), std::size_t(16));
    QCOMPARE(out, std::string("456789abcdefghij"));
    ring.addSafePoint(12, true);
    QCOMPARE(ring.oldestSafePoint()->offset, std::uint64_t(4));
    QCOMPARE(ring.newestSafePoint()->offset, std::uint64_t(12));
    QVERIFY(ring.newestSafePoint()->altScreen);
    ring.append(std::string(40, 'z'));
    QCOMPARE(ring.begin(), std::uint64_t(44));
    QVERIFY(!ring.oldestSafePoint());
    out.clear();
    QCOMPARE(ring.copy(50, 4, out), std::size_t(4));
    QCOMPARE(out, std::string("zzzz"));
}

void TestServerShellUnits::utf8Helpers() {
    const std::string euro = "a\xe2\x82\xac";
    QCOMPARE(completeUtf8Prefix(euro), std::size_t(4));
    QCOMPARE(completeUtf8Prefix(euro.substr(0, 3)), std::size_t(1));
    QCOMPARE(completeUtf8Prefix(euro.substr(0, 2)), std::size_t(1));
    QCOMPARE(completeUtf8Prefix("ab\xff"), std::size_t(3));
    QCOMPARE(truncateUtf8(euro, 3), std::string("a"));
    QCOMPARE(truncateUtf8(euro, 10), euro);
    const std::string longText = std::string(10, 'x') + "\xc3\xa9" + "end";
    const std::string cut = truncateChars(longText, 4);
    QVERIFY(cut.find("10 characters truncated") != std::string::npos);
    QVERIFY(cut.size() >= 5 && cut.substr(cut.size() - 5) == "\xc3\xa9"
                                                             "end");
    QCOMPARE(truncateChars("short", 30000), std::string("short"));
}

QTEST_GUILESS_MAIN(TestServerShellUnits)
#include "tst_server_shell_units.moc"
