#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sbx {

// The last bytes of a session's output, addressed by absolute stream offsets, with the safe
// points inside them. Terminal clients read from it at their own pace, so a slow client costs
// a position, not a copy of the output.
class OutputRing final {
public:
    struct Point {
        std::uint64_t offset = 0;
        bool altScreen = false;
    };

    explicit OutputRing(std::size_t capacity);

    void append(std::string_view bytes);
    // Offsets must not decrease; offset 0 is a safe point from the start.
    void addSafePoint(std::uint64_t offset, bool altScreen);

    // The oldest offset still held, and the end of the stream.
    std::uint64_t begin() const { return m_end - m_size; }
    std::uint64_t end() const { return m_end; }
    std::size_t capacity() const { return m_data.size(); }

    // Appends up to max bytes from offset from (clamped to what is held) to out.
    std::size_t copy(std::uint64_t from, std::size_t max, std::string &out) const;
    std::optional<Point> oldestSafePoint() const;
    std::optional<Point> newestSafePoint() const;

private:
    void dropStaleSafePoints();

    std::vector<char> m_data;
    std::size_t m_size = 0;
    std::uint64_t m_end = 0;
    std::deque<Point> m_safePoints;
};

} // namespace sbx
