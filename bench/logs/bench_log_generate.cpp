// The input of the log-engine benchmark: deterministic (fixed-seed) realistic log lines.
// bench-log-generate FILE [LINES] writes LINES (default 10 000 000, ~1 GB) lines and prints
// `lines= bytes= marker_lines= long_lines= crlf_lines= seconds=` so figures can be checked.
// bench-log-generate --append FILE|- [LINES] appends LINES (default 1 000 000) lines as fast as
// it can, one write() per ~64 KiB so a follower sees the file grow, and prints lines/s.
// bench-log-generate --version prints the format version run.sh keeps in its stamp.
//
// The marker `needle-7f3a` (and anything `needle-[0-9a-f]{4}\b` matches) occurs only in the last
// 0.1% of the lines (at least the last line), never earlier: a search for it must read the whole
// file. Every byte is printable ASCII, ESC, CR or LF, so grep never calls the file binary.
#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

// Bump when the bytes written for the same LINES change: run.sh regenerates on a new version.
constexpr int kFormatVersion = 1;
constexpr std::uint64_t kSeed = 0x5eed'1095'0000'0001ULL;
constexpr std::uint64_t kAppendSeed = 0x5eed'1095'0000'0002ULL;
constexpr std::size_t kFlushBytes = 1 << 20;
constexpr std::size_t kAppendFlushBytes = 64 * 1024;
constexpr std::string_view kMarker = "needle-7f3a";
// 2026-12-01T00:00:00Z in milliseconds since the epoch.
constexpr std::int64_t kStartMs = 1796083200000LL;

// splitmix64: fast, and the same sequence on every platform (std::mt19937's distributions are
// not specified bit for bit).
class Rng final {
public:
    explicit Rng(std::uint64_t seed)
        : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
    }

private:
    std::uint64_t m_state;
};

template <std::size_t N> std::string_view pick(Rng &rng, const std::array<std::string_view, N> &a) {
    return a[rng.below(N)];
}

// None of these contains "needle": the marker must stay unique to the last lines.
constexpr std::array<std::string_view, 10> kServices = {
    "api",      "auth",    "billing", "scheduler", "gateway",
    "worker-3", "db-pool", "cache",   "mailer",    "ingest"};
constexpr std::array<std::string_view, 8> kPaths = {
    "/api/v1/users",    "/api/v1/orders", "/api/v2/search",   "/healthz",
    "/api/v1/invoices", "/static/app.js", "/api/v1/sessions", "/metrics"};
constexpr std::array<std::string_view, 5> kMethods = {"GET", "GET", "POST", "PUT", "DELETE"};
constexpr std::array<std::string_view, 8> kHosts = {"db-primary.internal",
                                                    "db-replica-2.internal",
                                                    "redis-0.cache",
                                                    "payments.example.net",
                                                    "s3.eu-west-1.amazonaws.com",
                                                    "auth.internal",
                                                    "search-7.internal",
                                                    "smtp.example.org"};
constexpr std::array<std::string_view, 8> kStates = {"idle",   "connecting", "ready",   "draining",
                                                     "closed", "backoff",    "syncing", "degraded"};
constexpr std::array<std::string_view, 8> kTables = {
    "orders", "customers", "invoices", "events", "sessions", "payments", "audit_log", "line_items"};

enum class Level { Debug, Info, Warn, Error };

class Writer final {
public:
    Writer(int fd, std::size_t flushBytes)
        : m_fd(fd)
        , m_flushBytes(flushBytes) {
        m_buf.reserve(flushBytes + 64 * 1024);
    }
    void put(std::string_view s) { m_buf.append(s); }
    void put(char c) { m_buf.push_back(c); }
    void num(std::uint64_t v) {
        char tmp[24];
        auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
        m_buf.append(tmp, r.ptr);
    }
    // v zero-padded to width digits.
    void pad(std::uint64_t v, int width) {
        char tmp[24];
        for (int i = width - 1; i >= 0; --i) {
            tmp[i] = static_cast<char>('0' + v % 10);
            v /= 10;
        }
        m_buf.append(tmp, static_cast<std::size_t>(width));
    }
    void hex(std::uint64_t v, int digits) {
        static constexpr char kHex[] = "0123456789abcdef";
        for (int i = digits - 1; i >= 0; --i)
            m_buf.push_back(kHex[(v >> (4 * i)) & 0xf]);
    }
    void endLine(bool crlf) {
        if (crlf)
            m_buf.push_back('\r');
        m_buf.push_back('\n');
        m_bytes += m_buf.size() - m_lineStart;
        if (m_buf.size() >= m_flushBytes)
            flush();
        m_lineStart = m_buf.size();
    }
    std::size_t lineLength() const { return m_buf.size() - m_lineStart; }
    void flush() {
        const char *p = m_buf.data();
        std::size_t left = m_buf.size();
        while (left > 0) {
            ssize_t n = ::write(m_fd, p, left);
            if (n < 0) {
                std::perror("bench-log-generate: write");
                std::exit(1);
            }
            p += n;
            left -= static_cast<std::size_t>(n);
        }
        m_buf.clear();
        m_lineStart = 0;
    }
    std::uint64_t bytes() const { return m_bytes; }

private:
    int m_fd;
    std::size_t m_flushBytes;
    std::string m_buf;
    std::size_t m_lineStart = 0;
    std::uint64_t m_bytes = 0;
};

// Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
void civil(std::int64_t days, int &y, int &m, int &d) {
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const auto doe = static_cast<unsigned>(days - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y = static_cast<int>(yoe + static_cast<std::int64_t>(era) * 400 + (m <= 2));
}

class Generator final {
public:
    Generator(Writer &w, std::uint64_t seed, std::int64_t startMs)
        : m_w(w)
        , m_rng(seed) {
        m_ms = startMs;
        for (char &c : m_payload) {
            static constexpr char kB64[] =
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            c = kB64[m_rng.below(64)];
        }
    }

    // One line; marker puts kMarker in its message, longBytes > 0 makes it a long JSON line.
    void line(bool marker, std::size_t longBytes) {
        m_ms += m_rng.below(20);
        const Level level = pickLevel();
        const bool crlf = m_rng.below(100) < 2;
        if (longBytes > 0) {
            longLine(level, longBytes);
        } else {
            const std::uint32_t style = m_rng.below(100);
            if (style < 5)
                ansiLine(level, marker);
            else if (style < 40)
                pythonLine(level, marker);
            else if (style < 63)
                logfmtLine(level, marker);
            else if (style < 85)
                jsonLine(level, marker);
            else
                syslogLine(level, marker);
        }
        if (crlf)
            ++m_crlfLines;
        m_w.endLine(crlf);
    }
    std::uint64_t crlfLines() const { return m_crlfLines; }

private:
    Level pickLevel() {
        const std::uint32_t r = m_rng.below(1000);
        if (r < 800)
            return Level::Info;
        if (r < 920)
            return Level::Debug;
        if (r < 985)
            return Level::Warn;
        return Level::Error;
    }
    static std::string_view upper(Level l) {
        constexpr std::array<std::string_view, 4> k = {"DEBUG", "INFO", "WARN", "ERROR"};
        return k[static_cast<int>(l)];
    }
    static std::string_view lower(Level l) {
        constexpr std::array<std::string_view, 4> k = {"debug", "info", "warn", "error"};
        return k[static_cast<int>(l)];
    }

    // 2026-12-01<sep>15:52:14<frac>.123 where frac is "," or "."; micro adds three digits.
    void timestamp(char sep, char frac, bool micro) {
        const std::int64_t secs = m_ms / 1000;
        const std::int64_t days = secs / 86400;
        if (days != m_day) {
            m_day = days;
            int y = 0, mo = 0, d = 0;
            civil(days, y, mo, d);
            const auto digits = [this](int at, int v, int width) {
                for (int i = width - 1; i >= 0; --i, v /= 10)
                    m_date[at + i] = static_cast<char>('0' + v % 10);
            };
            digits(0, y, 4);
            m_date[4] = '-';
            digits(5, mo, 2);
            m_date[7] = '-';
            digits(8, d, 2);
        }
        m_w.put(std::string_view(m_date, 10));
        m_w.put(sep);
        const std::int64_t sod = secs % 86400;
        m_w.pad(static_cast<std::uint64_t>(sod / 3600), 2);
        m_w.put(':');
        m_w.pad(static_cast<std::uint64_t>(sod / 60 % 60), 2);
        m_w.put(':');
        m_w.pad(static_cast<std::uint64_t>(sod % 60), 2);
        m_w.put(frac);
        m_w.pad(static_cast<std::uint64_t>(m_ms % 1000), 3);
        if (micro)
            m_w.pad(m_rng.below(1000), 3);
    }

    // A message of about 30-60 bytes; never contains a double quote or a backslash, so it can
    // be put between quotes in logfmt and JSON as it is.
    void message(Level level, bool marker) {
        Writer &w = m_w;
        switch (level == Level::Error ? 4 + m_rng.below(2)
                                      : m_rng.below(level == Level::Warn ? 6 : 4)) {
        case 0:
            w.put(pick(m_rng, kMethods));
            w.put(' ');
            w.put(pick(m_rng, kPaths));
            w.put('/');
            w.num(m_rng.below(900000) + 1000);
            w.put(" 200 ");
            w.num(m_rng.below(400) + 1);
            w.put("ms bytes=");
            w.num(m_rng.below(60000) + 120);
            break;
        case 1:
            w.put("job ");
            w.hex(m_rng.next(), 16);
            w.put(" finished in ");
            w.num(m_rng.below(5000));
            w.put(" ms retries=");
            w.num(m_rng.below(3));
            break;
        case 2:
            w.put("cache miss key=user:");
            w.num(m_rng.below(1000000));
            w.put(":profile ttl=");
            w.num(m_rng.below(3600));
            w.put('s');
            break;
        case 3:
            w.put("pool ");
            w.put(pick(m_rng, kServices));
            w.put(' ');
            w.put(pick(m_rng, kStates));
            w.put(" -> ");
            w.put(pick(m_rng, kStates));
            w.put(" user=");
            w.num(m_rng.below(1000000));
            break;
        case 4:
            w.put("slow query took ");
            w.num(m_rng.below(9000) + 1000);
            w.put(" ms: SELECT * FROM ");
            w.put(pick(m_rng, kTables));
            w.put(" WHERE id = ");
            w.num(m_rng.below(1000000));
            break;
        default:
            w.put("retrying request to ");
            w.put(pick(m_rng, kHosts));
            w.put(" after ");
            w.num(m_rng.below(2000));
            w.put(" ms: connection reset");
            break;
        }
        if (marker) {
            w.put(" marker ");
            w.put(kMarker);
            w.put(" seen");
        }
    }

    // 2026-12-01 15:52:14,123 - svc - INFO - message (Python's logging default).
    void pythonLine(Level level, bool marker) {
        timestamp(' ', ',', false);
        m_w.put(" - ");
        m_w.put(pick(m_rng, kServices));
        m_w.put(" - ");
        m_w.put(upper(level));
        m_w.put(" - ");
        message(level, marker);
    }
    // ts=2026-12-01T15:52:14.123Z level=warn msg="..." (logfmt, as Go's slog/logrus write it).
    void logfmtLine(Level level, bool marker) {
        m_w.put("ts=");
        timestamp('T', '.', false);
        m_w.put("Z level=");
        m_w.put(lower(level));
        m_w.put(" svc=");
        m_w.put(pick(m_rng, kServices));
        m_w.put(" msg=\"");
        message(level, marker);
        m_w.put("\" req=");
        m_w.hex(m_rng.next(), 8);
    }
    void jsonLine(Level level, bool marker) {
        m_w.put("{\"ts\":\"");
        timestamp('T', '.', false);
        m_w.put("Z\",\"level\":\"");
        m_w.put(lower(level));
        m_w.put("\",\"svc\":\"");
        m_w.put(pick(m_rng, kServices));
        m_w.put("\",\"msg\":\"");
        message(level, marker);
        m_w.put("\",\"pid\":");
        m_w.num(m_rng.below(30000) + 100);
        m_w.put('}');
    }
    // RFC 3339 with microseconds and an offset, then host and program as syslog writes them.
    void syslogLine(Level level, bool marker) {
        timestamp('T', '.', true);
        m_w.put("+00:00 node-");
        m_w.num(m_rng.below(8));
        m_w.put(' ');
        m_w.put(pick(m_rng, kServices));
        m_w.put('[');
        m_w.num(m_rng.below(30000) + 100);
        m_w.put("]: ");
        m_w.put(upper(level));
        m_w.put(' ');
        message(level, marker);
    }
    // What a program writing to a terminal leaves in a log: the level in SGR colour.
    void ansiLine(Level level, bool marker) {
        constexpr std::array<std::string_view, 4> kColour = {"\x1b[36m", "\x1b[32m", "\x1b[33m",
                                                             "\x1b[1;31m"};
        timestamp(' ', '.', false);
        m_w.put(' ');
        m_w.put(kColour[static_cast<int>(level)]);
        m_w.put(upper(level));
        m_w.put("\x1b[0m \x1b[2m[");
        m_w.put(pick(m_rng, kServices));
        m_w.put("]\x1b[0m ");
        message(level, marker);
    }
    // A JSON line carrying a base64 payload, like a logged request body: longBytes in all.
    void longLine(Level level, std::size_t longBytes) {
        m_w.put("{\"ts\":\"");
        timestamp('T', '.', false);
        m_w.put("Z\",\"level\":\"");
        m_w.put(lower(level));
        m_w.put("\",\"msg\":\"request body\",\"body\":\"");
        while (m_w.lineLength() + 2 < longBytes) {
            const std::size_t off = m_rng.below(m_payload.size() / 2);
            const std::size_t n = std::min(m_payload.size() / 2, longBytes - 2 - m_w.lineLength());
            m_w.put(std::string_view(m_payload.data() + off, n));
        }
        m_w.put("\"}");
    }

    Writer &m_w;
    Rng m_rng;
    std::int64_t m_ms = 0;
    std::int64_t m_day = -1;
    char m_date[16] = {};
    std::array<char, 64 * 1024> m_payload{};
    std::uint64_t m_crlfLines = 0;
};

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

bool parseCount(const char *s, std::uint64_t &out) {
    const char *end = s + std::strlen(s);
    auto r = std::from_chars(s, end, out);
    return r.ec == std::errc() && r.ptr == end && out > 0;
}

int usage() {
    std::fprintf(stderr, "usage: bench-log-generate FILE [LINES]\n"
                         "       bench-log-generate --append FILE|- [LINES]\n"
                         "       bench-log-generate --version\n");
    return 2;
}

int generate(const char *path, std::uint64_t lines) {
    const int fd = ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::perror(path);
        return 1;
    }
    const auto t0 = std::chrono::steady_clock::now();
    Writer w(fd, kFlushBytes);
    Generator g(w, kSeed, kStartMs);
    Rng layout(kSeed ^ 0xabcdefULL);
    // Five very long lines (1-4 MB) spread through the file; none in a small file, where they
    // would be most of it.
    std::vector<std::pair<std::uint64_t, std::size_t>> longLines;
    if (lines >= 100000) {
        for (std::uint64_t k = 1; k <= 5; ++k)
            longLines.emplace_back(lines * k / 6, (1u << 20) + layout.below(3u << 20));
    }
    const std::uint64_t zone = std::max<std::uint64_t>(1, lines / 1000);
    std::uint64_t markers = 0;
    std::size_t nextLong = 0;
    for (std::uint64_t i = 0; i < lines; ++i) {
        std::size_t longBytes = 0;
        if (nextLong < longLines.size() && longLines[nextLong].first == i)
            longBytes = longLines[nextLong++].second;
        const bool marker = i == lines - 1 || (i >= lines - zone && layout.below(10) == 0);
        if (marker)
            ++markers;
        g.line(marker && longBytes == 0, longBytes);
    }
    w.flush();
    if (::close(fd) != 0) {
        std::perror(path);
        return 1;
    }
    std::printf("lines=%llu bytes=%llu marker_lines=%llu long_lines=%zu crlf_lines=%llu "
                "seconds=%.2f\n",
                static_cast<unsigned long long>(lines), static_cast<unsigned long long>(w.bytes()),
                static_cast<unsigned long long>(markers), longLines.size(),
                static_cast<unsigned long long>(g.crlfLines()), secondsSince(t0));
    return 0;
}

// Lines without the marker, so appending to a copy of the benchmark file keeps its search
// counts; timestamps go on from two days after the file's start.
int append(const char *path, std::uint64_t lines) {
    const bool toStdout = std::strcmp(path, "-") == 0;
    const int fd = toStdout ? 1 : ::open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::perror(path);
        return 1;
    }
    const auto t0 = std::chrono::steady_clock::now();
    Writer w(fd, kAppendFlushBytes);
    Generator g(w, kAppendSeed, kStartMs + 2 * 86400 * 1000LL);
    for (std::uint64_t i = 0; i < lines; ++i)
        g.line(false, 0);
    w.flush();
    if (!toStdout && ::close(fd) != 0) {
        std::perror(path);
        return 1;
    }
    const double s = secondsSince(t0);
    std::fprintf(toStdout ? stderr : stdout,
                 "appended_lines=%llu bytes=%llu seconds=%.3f lines_per_s=%.0f MBps=%.1f\n",
                 static_cast<unsigned long long>(lines), static_cast<unsigned long long>(w.bytes()),
                 s, static_cast<double>(lines) / s, static_cast<double>(w.bytes()) / 1e6 / s);
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
        std::printf("%d\n", kFormatVersion);
        return 0;
    }
    const bool appendMode = argc >= 2 && std::strcmp(argv[1], "--append") == 0;
    const int first = appendMode ? 2 : 1;
    if (argc < first + 1 || argc > first + 2)
        return usage();
    std::uint64_t lines = appendMode ? 1000000 : 10000000;
    if (argc == first + 2 && !parseCount(argv[first + 1], lines))
        return usage();
    return appendMode ? append(argv[first], lines) : generate(argv[first], lines);
}
