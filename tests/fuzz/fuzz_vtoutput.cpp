// Fuzzes a session's output path (server/shell/vttracker.cpp, outputring.cpp) the way
// ShellSession drives it: PTY bytes through the VtTracker, into the OutputRing with the safe
// points it found, read back from random offsets.
//
// Input: byte 0 picks the ring's capacity, byte 1 the read offsets; the rest is PTY output, fed
// in pieces whose sizes come from the bytes themselves. A second tracker is fed everything at
// once: both must find the same text, markers and safe points. The ring is checked against a
// plain copy of the stream.
#include "server/shell/outputring.h"
#include "server/shell/vttracker.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

void check(bool condition) {
    if (!condition)
        __builtin_trap();
}

// Markers and safe points with offsets made absolute in the stream.
struct Found {
    std::string text;
    std::vector<std::uint64_t> markers; // byte end, then text end, kind and exit code
    std::vector<std::uint64_t> safePoints;
    bool altScreen = false;

    bool operator==(const Found &) const = default;
};

void collect(const sbx::VtEvents &events, std::uint64_t base, std::size_t fed, std::size_t textBase,
             Found &found) {
    std::size_t lastByte = 0;
    for (const sbx::ShellMarker &m : events.markers) {
        check(m.byteEnd >= 1 && m.byteEnd <= fed && m.byteEnd >= lastByte);
        check(m.textEnd <= events.text.size());
        lastByte = m.byteEnd;
        found.markers.insert(found.markers.end(),
                             {base + m.byteEnd, textBase + m.textEnd,
                              static_cast<std::uint64_t>(m.kind),
                              static_cast<std::uint64_t>(static_cast<std::uint32_t>(m.exitCode))});
    }
    std::size_t lastPoint = 0;
    for (const sbx::SafePoint &p : events.safePoints) {
        check(p.byteEnd >= 1 && p.byteEnd <= fed && p.byteEnd > lastPoint);
        lastPoint = p.byteEnd;
        found.safePoints.push_back(base + p.byteEnd);
        found.safePoints.push_back(p.altScreen);
    }
    found.text += events.text;
}

void checkRing(const sbx::OutputRing &ring, const std::string &stream, std::uint64_t from,
               std::size_t max) {
    check(ring.end() == stream.size());
    check(ring.end() - ring.begin() <= ring.capacity());
    check(ring.end() - ring.begin() == std::min<std::uint64_t>(stream.size(), ring.capacity()));
    std::string out = "x";
    const std::size_t n = ring.copy(from, max, out);
    const std::uint64_t start = std::max(from, ring.begin());
    const std::uint64_t expected =
        start >= ring.end() ? 0 : std::min<std::uint64_t>(max, ring.end() - start);
    check(n == expected && out.size() == 1 + n);
    if (n > 0)
        check(std::string_view(out).substr(1) == std::string_view(stream).substr(start, n));
    const auto oldest = ring.oldestSafePoint();
    const auto newest = ring.newestSafePoint();
    check(oldest.has_value() == newest.has_value());
    if (oldest) {
        check(oldest->offset >= ring.begin() && newest->offset <= ring.end());
        check(oldest->offset <= newest->offset);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size < 2)
        return 0;
    const std::size_t capacity = 1 + data[0] % 64 * 8;
    const unsigned readSeed = data[1];
    const std::string_view bytes(reinterpret_cast<const char *>(data) + 2, size - 2);

    sbx::VtTracker tracker;
    sbx::OutputRing ring(capacity);
    sbx::VtEvents events;
    Found pieces;
    std::string stream;
    std::size_t at = 0;
    unsigned step = 0;
    while (at < bytes.size()) {
        const std::size_t n = std::min<std::size_t>(bytes.size() - at,
                                                    1 + static_cast<unsigned char>(bytes[at]) % 97);
        const std::string_view chunk = bytes.substr(at, n);
        events.clear();
        tracker.feed(chunk, events);
        const std::uint64_t base = ring.end();
        collect(events, base, n, pieces.text.size(), pieces);
        ring.append(chunk);
        stream.append(chunk);
        for (const sbx::SafePoint &p : events.safePoints)
            ring.addSafePoint(base + p.byteEnd, p.altScreen);
        ++step;
        const std::uint64_t from = (readSeed * step * 131u) % (stream.size() + 8);
        checkRing(ring, stream, from, (readSeed + step) % 300);
        at += n;
    }
    pieces.altScreen = tracker.altScreen();

    sbx::VtTracker once;
    sbx::VtEvents all;
    once.feed(bytes, all);
    Found whole;
    collect(all, 0, bytes.size(), 0, whole);
    whole.altScreen = once.altScreen();
    check(whole == pieces);
    check(once.atSafePoint() == tracker.atSafePoint());

    // A reset tracker starts over in the ground state.
    tracker.resetTo(true);
    check(tracker.atSafePoint() && tracker.altScreen());
    return 0;
}
