// One file over the usual size: the line parser is a template shared by the two sinks (styled
// cells for display, bytes for search), and splitting it would put its internals in a header.
#include "models/logs/logtext.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <vector>

namespace sbx {

bool LogStyle::isPlain() const {
    return *this == LogStyle{};
}

namespace {

constexpr char32_t kReplacement = 0xfffd;
constexpr unsigned char kEsc = 0x1b;
// The parser hands text to its sink in pieces of at most this many bytes, so a cut decode
// stops reading a huge line within one piece of the cut.
constexpr qsizetype kRunChunk = 4096;
// Parameters past this many in one CSI are ignored; the sequence is still removed whole.
constexpr int kMaxParams = 32;
// Larger parameter values are clamped: no overflow, and no SGR meaning changes above it.
constexpr int kMaxParamValue = 65535;

struct Utf8Char {
    int length = 1; // bytes taken: the whole character, or the maximal invalid subpart
    char32_t cp = kReplacement;
    bool valid = false;
};

// Strict UTF-8 (no overlongs, surrogates or values past U+10FFFF). An invalid sequence takes
// its maximal subpart, the bytes a valid sequence could have started with, as Unicode
// recommends. Qt 6.4's QString::fromUtf8 gives one U+FFFD per byte of a truncated sequence
// instead (E2 82 is two there, one here); for every valid character the two agree.
Utf8Char decodeUtf8(const unsigned char *p, qsizetype avail) {
    const unsigned char lead = p[0];
    int need = 0;
    unsigned char lo = 0x80;
    unsigned char hi = 0xbf;
    char32_t cp = 0;
    if (lead >= 0xc2 && lead <= 0xdf) {
        need = 1;
        cp = lead & 0x1f;
    } else if (lead >= 0xe0 && lead <= 0xef) {
        need = 2;
        cp = lead & 0x0f;
        if (lead == 0xe0)
            lo = 0xa0; // overlong below
        else if (lead == 0xed)
            hi = 0x9f; // surrogates above
    } else if (lead >= 0xf0 && lead <= 0xf4) {
        need = 3;
        cp = lead & 0x07;
        if (lead == 0xf0)
            lo = 0x90;
        else if (lead == 0xf4)
            hi = 0x8f;
    } else {
        return {};
    }
    int i = 1;
    for (; i <= need; ++i) {
        if (i >= avail)
            return {i, kReplacement, false};
        const unsigned char c = p[i];
        if (c < lo || c > hi)
            return {i, kReplacement, false};
        lo = 0x80;
        hi = 0xbf;
        cp = (cp << 6) | (c & 0x3f);
    }
    return {i, cp, true};
}

bool isC1(char32_t cp) {
    return cp >= 0x80 && cp <= 0x9f;
}

// Bytes that survive unchanged: printable ASCII and TAB.
bool isCleanAscii(unsigned char c) {
    return (c >= 0x20 && c < 0x7f) || c == '\t';
}

// Eight bytes all printable ASCII (0x20..0x7e): none below 0x20, none with the high bit, no DEL.
bool allPrintable(uint64_t w) {
    constexpr uint64_t kOnes = 0x0101010101010101ull;
    constexpr uint64_t kHigh = 0x8080808080808080ull;
    const uint64_t below = (w - kOnes * 0x20) & ~w & kHigh;
    const uint64_t del = w ^ (kOnes * 0x7f);
    const uint64_t isDel = (del - kOnes) & ~del & kHigh;
    return ((w & kHigh) | below | isDel) == 0;
}

// End of the run from `from` that every reader passes through unchanged: printable ASCII,
// TAB, and valid UTF-8 outside C1. Stops at `limit` (a character may end a little past it).
qsizetype cleanRunEnd(const unsigned char *data, qsizetype size, qsizetype from, qsizetype limit) {
    qsizetype i = from;
    while (i < limit) {
        if (i + 8 <= limit) {
            uint64_t w;
            std::memcpy(&w, data + i, sizeof w);
            if (allPrintable(w)) {
                i += 8;
                continue;
            }
        }
        const unsigned char c = data[i];
        if (c < 0x80) {
            if (!isCleanAscii(c))
                return i;
            ++i;
            continue;
        }
        const Utf8Char u = decodeUtf8(data + i, size - i);
        if (!u.valid || isC1(u.cp))
            return i;
        i += u.length;
    }
    return i;
}

// No initialisers: zeroing the whole array for every ESC was a fifth of plainLogBytes' time;
// only the first `count` entries are ever read.
struct CsiParam {
    int value;
    bool sub; // came after ':', a sub-parameter of the one before
};

struct Csi {
    std::array<CsiParam, kMaxParams> params;
    int count = 0;
    unsigned char finalByte = 0;
    bool privateMarker = false;
    bool intermediate = false;

    int value(int i) const { return i < count ? params[i].value : 0; }
};

enum class Erase { ToEnd, ToStart, Line };

// A colour from `38;5;n` / `38;2;r;g;b` arguments (index of `5` or `2` at `at`), or nothing.
bool colourFrom(const Csi &csi, int at, int count, uint32_t &out) {
    if (count >= 2 && csi.params[at].value == 5) {
        const int n = csi.params[at + 1].value;
        if (n > 255)
            return false;
        out = TerminalColor::indexed(uint8_t(n));
        return true;
    }
    if (csi.params[at].value == 2 && count >= 4) {
        // Colon form 38:2:<colour space>:r:g:b has one argument more than 38;2;r;g;b.
        const int first = count >= 5 ? at + 2 : at + 1;
        const int r = csi.params[first].value;
        const int g = csi.params[first + 1].value;
        const int b = csi.params[first + 2].value;
        if (r > 255 || g > 255 || b > 255)
            return false;
        out = TerminalColor::rgb(uint8_t(r), uint8_t(g), uint8_t(b));
        return true;
    }
    return false;
}

struct SgrFlag {
    int on;
    int off;
    bool LogStyle::*member;
};
constexpr SgrFlag kSgrFlags[] = {{1, 22, &LogStyle::bold},    {2, 22, &LogStyle::dim},
                                 {3, 23, &LogStyle::italic},  {4, 24, &LogStyle::underline},
                                 {7, 27, &LogStyle::inverse}, {9, 29, &LogStyle::strike}};

void applySimpleSgr(LogStyle &s, int v) {
    if (v == 0) {
        s = LogStyle{};
    } else if (v >= 30 && v <= 37) {
        s.fg = TerminalColor::indexed(uint8_t(v - 30));
    } else if (v >= 90 && v <= 97) {
        s.fg = TerminalColor::indexed(uint8_t(v - 90 + 8));
    } else if (v >= 40 && v <= 47) {
        s.bg = TerminalColor::indexed(uint8_t(v - 40));
    } else if (v >= 100 && v <= 107) {
        s.bg = TerminalColor::indexed(uint8_t(v - 100 + 8));
    } else if (v == 39) {
        s.fg = TerminalColor::kDefault;
    } else if (v == 49) {
        s.bg = TerminalColor::kDefault;
    } else {
        for (const SgrFlag &flag : kSgrFlags) {
            if (v == flag.on)
                s.*flag.member = true;
            else if (v == flag.off)
                s.*flag.member = false; // 22 clears both bold and dim
        }
        // Anything else (blink, conceal, fonts, overline...) has no look here.
    }
}

void applySgr(LogStyle &s, const Csi &csi) {
    int k = 0;
    while (k < csi.count) {
        const int v = csi.params[k].value;
        int subs = 0;
        while (k + 1 + subs < csi.count && csi.params[k + 1 + subs].sub)
            ++subs;
        const bool colour = v == 38 || v == 48 || v == 58;
        if (subs > 0) { // colon form: everything the parameter needs is in its sub-parameters
            uint32_t c;
            if (colour && colourFrom(csi, k + 1, subs, c)) {
                if (v == 38)
                    s.fg = c;
                else if (v == 48)
                    s.bg = c;
            } else if (v == 4) {
                s.underline = csi.params[k + 1].value != 0; // 4:0 off, 4:1..4:5 styles
            } else if (!colour) {
                applySimpleSgr(s, v);
            }
            k += 1 + subs;
        } else if (colour) { // 38;5;n or 38;2;r;g;b take the parameters after them
            const int rest = csi.count - k - 1;
            const int sel = csi.value(k + 1);
            const int want = sel == 5 ? 2 : sel == 2 ? 4 : 1;
            uint32_t c;
            if (rest >= want && (sel == 5 || sel == 2) &&
                colourFrom(csi, k + 1, sel == 5 ? 2 : 4, c)) {
                if (v == 38)
                    s.fg = c;
                else if (v == 48)
                    s.bg = c;
            }
            k += 1 + std::min(want, rest);
        } else {
            applySimpleSgr(s, v);
            ++k;
        }
    }
}

// Reads the CSI whose parameters start at `i`; returns where ground text resumes. A byte that
// cannot be in a CSI (a control, DEL, a high byte) ends it unfinished: the sequence so far is
// removed and that byte is read again as text, so a broken sequence never hides what follows.
qsizetype parseCsi(const unsigned char *data, qsizetype size, qsizetype i, Csi &csi,
                   bool &complete) {
    csi.count = 0;
    csi.privateMarker = csi.intermediate = false;
    complete = false;
    int cur = 0;
    bool sub = false;
    auto push = [&] {
        if (csi.count < kMaxParams)
            csi.params[csi.count++] = {cur, sub};
    };
    for (; i < size; ++i) {
        const unsigned char c = data[i];
        if (c >= '0' && c <= '9') {
            cur = std::min(cur * 10 + (c - '0'), kMaxParamValue);
        } else if (c == ';' || c == ':') {
            push();
            cur = 0;
            sub = c == ':';
        } else if (c >= 0x3c && c <= 0x3f) {
            csi.privateMarker = true;
        } else if (c >= 0x20 && c <= 0x2f) {
            csi.intermediate = true;
        } else if (c >= 0x40 && c <= 0x7e) {
            push();
            csi.finalByte = c;
            complete = true;
            return i + 1;
        } else {
            return i;
        }
    }
    return size; // truncated at the line end: removed
}

// Reads an OSC/DCS/SOS/PM/APC string starting at `i`. It ends at BEL, ESC \ or an ESC that
// starts another sequence; returns the index after it, or -1 when the line ends first (then
// only the ESC is dropped: an unended string would otherwise hide the rest of the line).
qsizetype parseString(const unsigned char *data, qsizetype size, qsizetype i) {
    for (; i < size; ++i) {
        if (data[i] == 0x07)
            return i + 1;
        if (data[i] == kEsc)
            return i + 1 < size && data[i + 1] == '\\' ? i + 2 : i;
    }
    return -1;
}

// Drives a sink through one raw line from `from`. The sink takes runs of clean bytes
// (text(p, n)), single code points (put), carriage return, backspace, erases and SGR; its
// stopped() ends the parse.
template <typename Sink>
void parseLine(const unsigned char *data, qsizetype size, qsizetype from, Sink &sink) {
    qsizetype i = from;
    Csi csi;
    while (i < size) {
        const qsizetype end = cleanRunEnd(data, size, i, std::min(size, i + kRunChunk));
        if (end > i) {
            sink.text(data + i, end - i);
            i = end;
            if (sink.stopped())
                return;
            continue;
        }
        const unsigned char c = data[i];
        if (c == kEsc) {
            if (i + 1 >= size)
                return; // a bare ESC at the end
            const unsigned char next = data[i + 1];
            if (next == '[') {
                bool complete;
                i = parseCsi(data, size, i + 2, csi, complete);
                if (!complete || csi.privateMarker || csi.intermediate)
                    continue;
                if (csi.finalByte == 'm') {
                    sink.sgr(csi);
                } else if (csi.finalByte == 'K') {
                    const int mode = csi.value(0);
                    if (mode <= 2)
                        sink.erase(mode == 0   ? Erase::ToEnd
                                   : mode == 1 ? Erase::ToStart
                                               : Erase::Line);
                }
            } else if (next == ']' || next == 'P' || next == 'X' || next == '^' || next == '_') {
                const qsizetype after = parseString(data, size, i + 2);
                i = after < 0 ? i + 1 : after;
            } else if (next >= 0x20 && next <= 0x2f) { // intermediates, then a final byte
                qsizetype j = i + 1;
                while (j < size && data[j] >= 0x20 && data[j] <= 0x2f)
                    ++j;
                i = j < size && data[j] >= 0x30 && data[j] <= 0x7e ? j + 1 : j;
            } else if (next >= 0x30 && next <= 0x7e) {
                i += 2;
            } else {
                ++i; // ESC before a control or a high byte: only the ESC goes
            }
        } else if (c == '\r') {
            sink.carriageReturn();
            ++i;
        } else if (c == 0x08) {
            sink.backspace();
            ++i;
        } else if (c < 0x80) {
            ++i; // other C0 controls and DEL
        } else {
            const Utf8Char u = decodeUtf8(data + i, size - i);
            i += u.length;
            if (!u.valid) {
                sink.put(kReplacement);
                if (sink.stopped())
                    return;
            } // a valid character here is a C1 control: dropped
        }
    }
}

int encodeUtf8(char32_t cp, char *buf) {
    if (cp < 0x80) {
        buf[0] = char(cp);
        return 1;
    }
    if (cp < 0x800) {
        buf[0] = char(0xc0 | (cp >> 6));
        buf[1] = char(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        buf[0] = char(0xe0 | (cp >> 12));
        buf[1] = char(0x80 | ((cp >> 6) & 0x3f));
        buf[2] = char(0x80 | (cp & 0x3f));
        return 3;
    }
    buf[0] = char(0xf0 | (cp >> 18));
    buf[1] = char(0x80 | ((cp >> 12) & 0x3f));
    buf[2] = char(0x80 | ((cp >> 6) & 0x3f));
    buf[3] = char(0x80 | (cp & 0x3f));
    return 4;
}

// Output bytes written through a pointer: QByteArray::append's checks were an eighth of the
// time of a line with escapes.
class ByteWriter {
public:
    explicit ByteWriter(qsizetype capacity)
        : m_buf(std::max<qsizetype>(capacity, 16), Qt::Uninitialized) {}

    void append(const char *p, qsizetype n) {
        reserve(n);
        std::memcpy(m_buf.data() + m_len, p, size_t(n));
        m_len += n;
    }
    void appendUtf8(char32_t cp) {
        reserve(4);
        m_len += encodeUtf8(cp, m_buf.data() + m_len);
    }
    const char *data() const { return m_buf.constData(); }
    qsizetype size() const { return m_len; }
    QByteArray take() {
        m_buf.truncate(m_len);
        return std::move(m_buf);
    }

private:
    void reserve(qsizetype n) {
        if (m_len + n > m_buf.size())
            m_buf.resize(std::max(m_buf.size() * 2, m_len + n));
    }

    QByteArray m_buf;
    qsizetype m_len = 0;
};

// Calls f(cp) for each character of a clean run (valid UTF-8, as cleanRunEnd found it).
template <typename F> void forEachChar(const unsigned char *p, qsizetype n, F f) {
    qsizetype i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            if (!f(char32_t(p[i])))
                return;
            ++i;
        } else {
            const Utf8Char u = decodeUtf8(p + i, n - i);
            if (!f(u.cp))
                return;
            i += u.length;
        }
    }
}

// Line contents as cells of one code point and a style, so CR and BS can overwrite.
class DecodeSink {
public:
    explicit DecodeSink(qsizetype maxChars)
        : m_max(std::max<qsizetype>(maxChars, 0)) {
        m_styles.push_back(LogStyle{});
    }

    void text(const unsigned char *p, qsizetype n) {
        forEachChar(p, n, [this](char32_t cp) { return put(cp); });
    }
    bool put(char32_t cp) {
        const qsizetype w = cp > 0xffff ? 2 : 1;
        const qsizetype size = qsizetype(m_cells.size());
        if (m_col < size) {
            const qsizetype grown = m_utf16 - width(m_cells[m_col].cp) + w;
            if (grown > m_max)
                return stop();
            m_utf16 = grown;
            m_cells[m_col] = {cp, penIndex()};
        } else {
            const qsizetype pad = m_col - size;
            if (m_utf16 + pad + w > m_max)
                return stop();
            m_cells.resize(m_col, Cell{U' ', 0});
            m_cells.push_back({cp, penIndex()});
            m_utf16 += pad + w;
        }
        ++m_col;
        return true;
    }
    void carriageReturn() { m_col = 0; }
    void backspace() {
        if (m_col > 0)
            --m_col;
    }
    void erase(Erase how) {
        const qsizetype size = qsizetype(m_cells.size());
        if (how == Erase::Line || (how == Erase::ToStart && m_col + 1 >= size)) {
            truncate(0);
        } else if (how == Erase::ToEnd) {
            truncate(std::min(m_col, size));
        } else {
            for (qsizetype i = 0; i <= m_col; ++i) {
                m_utf16 -= width(m_cells[i].cp) - 1;
                m_cells[i] = {U' ', 0};
            }
        }
    }
    void sgr(const Csi &csi) {
        applySgr(m_pen, csi);
        m_penDirty = true;
    }
    bool stopped() const { return m_cut; }

    LogText result(qsizetype fullBytes) const {
        LogText out;
        out.cut = m_cut;
        out.fullBytes = fullBytes;
        out.text.reserve(m_utf16);
        for (const Cell &cell : m_cells) {
            const qsizetype start = out.text.size();
            if (cell.cp > 0xffff) {
                out.text.append(QChar(QChar::highSurrogate(cell.cp)));
                out.text.append(QChar(QChar::lowSurrogate(cell.cp)));
            } else {
                out.text.append(QChar(char16_t(cell.cp)));
            }
            const LogStyle &style = m_styles[cell.style];
            if (style.isPlain())
                continue;
            const int length = int(out.text.size() - start);
            if (!out.spans.isEmpty() && out.spans.last().style == style &&
                out.spans.last().start + out.spans.last().length == start) {
                out.spans.last().length += length;
            } else {
                out.spans.append({int(start), length, style});
            }
        }
        return out;
    }

private:
    struct Cell {
        char32_t cp;
        uint32_t style; // index into m_styles
    };
    static qsizetype width(char32_t cp) { return cp > 0xffff ? 2 : 1; }
    bool stop() {
        m_cut = true;
        return false;
    }
    void truncate(qsizetype to) {
        for (qsizetype i = to; i < qsizetype(m_cells.size()); ++i)
            m_utf16 -= width(m_cells[i].cp);
        m_cells.resize(to);
    }
    uint32_t penIndex() {
        if (m_penDirty) {
            // Styles are added only when text is written with them, and looking back one
            // entry catches repeated SGRs, so the table stays small.
            if (m_pen.isPlain()) {
                m_penIndex = 0;
            } else {
                if (!(m_pen == m_styles.back()))
                    m_styles.push_back(m_pen);
                m_penIndex = uint32_t(m_styles.size() - 1);
            }
            m_penDirty = false;
        }
        return m_penIndex;
    }

    qsizetype m_max;
    std::vector<Cell> m_cells;
    std::vector<LogStyle> m_styles;
    LogStyle m_pen;
    uint32_t m_penIndex = 0;
    bool m_penDirty = false;
    qsizetype m_col = 0;
    qsizetype m_utf16 = 0;
    bool m_cut = false;
};

// Appends UTF-8 straight to the output while the write position is at the end (the common
// case: escapes but no CR or BS that takes effect); the first overwrite switches to cells of
// code points, encoded once at the end.
class PlainSink {
public:
    // Output is at most the input unless invalid bytes become U+FFFD (three bytes each).
    PlainSink(const unsigned char *prefix, qsizetype prefixSize, qsizetype capacity)
        : m_bytes(capacity) {
        m_bytes.append(reinterpret_cast<const char *>(prefix), prefixSize);
    }

    void text(const unsigned char *p, qsizetype n) {
        if (m_atEnd && !m_cellMode) {
            m_bytes.append(reinterpret_cast<const char *>(p), n);
            return;
        }
        forEachChar(p, n, [this](char32_t cp) { return put(cp); });
    }
    bool put(char32_t cp) {
        if (!m_cellMode) {
            if (m_atEnd) {
                m_bytes.appendUtf8(cp);
                return true;
            }
            toCells();
        }
        const qsizetype size = qsizetype(m_cells.size());
        if (m_col < size) {
            m_cells[m_col] = cp;
        } else {
            m_cells.resize(m_col, U' ');
            m_cells.push_back(cp);
        }
        ++m_col;
        return true;
    }
    void carriageReturn() { moveTo(0); }
    void backspace() {
        if (!m_cellMode)
            toCells();
        if (m_col > 0)
            --m_col;
    }
    void erase(Erase how) {
        if (!m_cellMode && m_atEnd && how == Erase::ToEnd)
            return;
        if (!m_cellMode)
            toCells();
        const qsizetype size = qsizetype(m_cells.size());
        if (how == Erase::Line || (how == Erase::ToStart && m_col + 1 >= size))
            m_cells.clear();
        else if (how == Erase::ToEnd)
            m_cells.resize(std::min(m_col, size));
        else
            std::fill(m_cells.begin(), m_cells.begin() + m_col + 1, U' ');
    }
    void sgr(const Csi &) {}
    bool stopped() const { return false; }

    QByteArray result() {
        if (!m_cellMode)
            return m_bytes.take();
        ByteWriter out(qsizetype(m_cells.size()));
        for (char32_t cp : m_cells)
            out.appendUtf8(cp);
        return out.take();
    }

private:
    void moveTo(qsizetype col) {
        if (!m_cellMode) {
            // The position is kept lazily: a trailing CR (a CRLF line end) never leaves byte mode.
            m_atEnd = false;
            m_pendingCol = col;
            return;
        }
        m_col = col;
    }
    void toCells() {
        m_cells.reserve(size_t(m_bytes.size()));
        forEachChar(reinterpret_cast<const unsigned char *>(m_bytes.data()), m_bytes.size(),
                    [this](char32_t cp) {
                        m_cells.push_back(cp);
                        return true;
                    });
        m_col = m_atEnd ? qsizetype(m_cells.size()) : m_pendingCol;
        m_cellMode = true;
    }

    ByteWriter m_bytes;
    std::u32string m_cells;
    bool m_cellMode = false;
    bool m_atEnd = true;
    qsizetype m_pendingCol = 0;
    qsizetype m_col = 0;
};

const unsigned char *bytesOf(QByteArrayView raw) {
    return reinterpret_cast<const unsigned char *>(raw.data());
}

} // namespace

LogText decodeLogLine(QByteArrayView raw, qsizetype maxChars) {
    DecodeSink sink(maxChars);
    parseLine(bytesOf(raw), raw.size(), 0, sink);
    return sink.result(raw.size());
}

bool needsPlainRewrite(QByteArrayView raw) {
    return cleanRunEnd(bytesOf(raw), raw.size(), 0, raw.size()) < raw.size();
}

QByteArray plainLogBytes(QByteArrayView raw) {
    const unsigned char *data = bytesOf(raw);
    const qsizetype clean = cleanRunEnd(data, raw.size(), 0, raw.size());
    if (clean == raw.size())
        return raw.toByteArray();
    PlainSink sink(data, clean, raw.size());
    parseLine(data, raw.size(), clean, sink);
    return sink.result();
}

} // namespace sbx
