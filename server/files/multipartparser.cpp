#include "server/files/multipartparser.h"

#include "server/core/http.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

namespace sbx {

namespace {

// A part's headers with the blank line after them.
constexpr std::size_t kHeaderLimit = 16 * 1024;
// Room for transport padding after a delimiter (RFC 2046 5.1.1), with its CRLF.
constexpr std::size_t kPaddingLimit = 256;
// Bytes taken into m_pending at a time outside a part's data.
constexpr std::size_t kWindow = 4 * 1024;

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

struct Parameter {
    std::string name; // lower-cased
    std::string value;
    bool quoted = false;
    // A quoted-string without its closing quote.
    bool unterminated = false;
};

// Parameters of a header value: `type; a=b; c="quoted \" value"` (RFC 2045 5.1: a value is a
// token or a quoted-string, whose backslash escapes the next character).
std::vector<Parameter> parameters(std::string_view value, std::string &type) {
    std::vector<Parameter> out;
    std::size_t i = value.find(';');
    type = std::string(trim(value.substr(0, i)));
    while (i != std::string_view::npos && i < value.size()) {
        ++i;
        const std::size_t eq = value.find('=', i);
        if (eq == std::string_view::npos)
            break;
        Parameter parameter;
        parameter.name = std::string(trim(value.substr(i, eq - i)));
        std::transform(parameter.name.begin(), parameter.name.end(), parameter.name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        std::size_t j = eq + 1;
        while (j < value.size() && (value[j] == ' ' || value[j] == '\t'))
            ++j;
        if (j < value.size() && value[j] == '"') {
            parameter.quoted = true;
            ++j;
            while (j < value.size() && value[j] != '"') {
                if (value[j] == '\\' && j + 1 < value.size())
                    ++j;
                parameter.value.push_back(value[j++]);
            }
            parameter.unterminated = j >= value.size();
            i = value.find(';', j);
        } else {
            i = value.find(';', j);
            parameter.value =
                std::string(trim(value.substr(j, i == std::string_view::npos ? i : i - j)));
        }
        out.push_back(std::move(parameter));
    }
    return out;
}

// RFC 2046 5.1.1: 1 to 70 of DIGIT ALPHA ' ( ) + _ , - . / : = ? and space, not ending in space.
bool isBoundary(std::string_view boundary) {
    if (boundary.empty() || boundary.size() > 70 || boundary.back() == ' ')
        return false;
    return std::all_of(boundary.begin(), boundary.end(), [](unsigned char c) {
        return std::isalnum(c) || std::string_view("'()+_,-./:=? ").find(static_cast<char>(c)) !=
                                      std::string_view::npos;
    });
}

} // namespace

MultipartParser::MultipartParser(std::string boundary)
    : m_delimiter("\r\n--" + boundary)
    // The first delimiter may open the body without a CRLF before it.
    , m_pending("\r\n") {}

std::optional<std::string> MultipartParser::boundaryFromContentType(std::string_view contentType) {
    std::string type;
    const auto params = parameters(contentType, type);
    if (!iequals(type, "multipart/form-data"))
        return std::nullopt;
    for (const Parameter &p : params) {
        if (p.name != "boundary")
            continue;
        // Quoted or not: Qt, curl and browsers send boundaries holding '/', a tspecial that only
        // a quoted-string may carry, so a bare one is taken as long as every character is a
        // boundary character.
        if (p.unterminated || !isBoundary(p.value) ||
            (!p.quoted && p.value.find(' ') != std::string::npos))
            return std::nullopt;
        return p.value;
    }
    return std::nullopt;
}

bool MultipartParser::feed(std::string_view data, MultipartSink &sink) {
    while (!data.empty() && m_state != State::Failed && m_state != State::Done) {
        if (m_state == State::Body) {
            body(data, sink);
            continue;
        }
        // The states around a part's data read m_pending, a window at a time: the part's data
        // that follows its headers in the same piece is not copied there.
        const std::size_t take = std::min(data.size(), kWindow);
        m_pending.append(data.substr(0, take));
        data.remove_prefix(take);
        while (step(sink)) {
        }
        if (m_state != State::Body || m_pending.empty())
            continue;
        // What is left of m_pending is the part's first data. The headers ended in this window
        // (else the last feed would have found their end), so those bytes are the window's last
        // ones: read them again from data itself.
        if (m_pending.size() <= take) {
            data = std::string_view(data.data() - m_pending.size(), data.size() + m_pending.size());
            m_pending.clear();
        } else {
            std::string first = std::move(m_pending);
            m_pending.clear();
            std::string_view view(first);
            body(view, sink);
            if (!view.empty()) // a delimiter in them: the states take it from there
                m_pending.assign(view);
        }
    }
    return m_state != State::Failed;
}

void MultipartParser::body(std::string_view &data, MultipartSink &sink) {
    const std::size_t length = m_delimiter.size();
    if (!m_held.empty()) {
        // A delimiter beginning in the held bytes ends within the next length - 1 bytes.
        const std::size_t held = m_held.size();
        const std::size_t more = std::min(data.size(), length - 1);
        m_held.append(data.substr(0, more));
        const std::size_t at = m_held.find(m_delimiter);
        if (at != std::string::npos) { // it begins in the held bytes: more cannot hold one whole
            if (at > 0)
                sink.partData(std::string_view(m_held).substr(0, at));
            sink.partEnd();
            data.remove_prefix(at + length - held);
            m_held.clear();
            m_state = State::AfterDelimiter;
            return;
        }
        if (more < length - 1) {
            // Too few bytes to decide: they join the held ones.
            const std::size_t from = heldBackFrom(m_held);
            if (from > 0)
                sink.partData(std::string_view(m_held).substr(0, from));
            m_held.erase(0, from);
            data = {};
            return;
        }
        sink.partData(std::string_view(m_held).substr(0, held));
        m_held.clear();
    }
    const void *hit = memmem(data.data(), data.size(), m_delimiter.data(), length);
    if (hit) {
        const auto at = static_cast<std::size_t>(static_cast<const char *>(hit) - data.data());
        if (at > 0)
            sink.partData(data.substr(0, at));
        sink.partEnd();
        data.remove_prefix(at + length);
        m_state = State::AfterDelimiter;
        return;
    }
    const std::size_t from = heldBackFrom(data);
    if (from > 0)
        sink.partData(data.substr(0, from));
    m_held.assign(data.substr(from));
    data = {};
}

std::size_t MultipartParser::heldBackFrom(std::string_view data) const {
    const std::size_t length = m_delimiter.size();
    std::size_t from = data.size() > length - 1 ? data.size() - (length - 1) : 0;
    // Only a CR that starts a prefix of the delimiter: random bytes rarely hold one.
    while (from < data.size()) {
        const void *cr = std::memchr(data.data() + from, '\r', data.size() - from);
        if (!cr)
            break;
        from = static_cast<std::size_t>(static_cast<const char *>(cr) - data.data());
        if (m_delimiter.compare(0, data.size() - from, data.data() + from, data.size() - from) == 0)
            return from;
        ++from;
    }
    return data.size();
}

bool MultipartParser::finish() {
    if (m_state == State::Failed)
        return false;
    if (m_state != State::Done)
        return fail("the multipart body ended before its closing boundary");
    return true;
}

// One transition; false when it needs more bytes or the parse is over.
bool MultipartParser::step(MultipartSink &sink) {
    switch (m_state) {
    case State::Preamble: {
        const std::size_t at = m_pending.find(m_delimiter);
        if (at == std::string::npos) {
            if (m_pending.size() >= m_delimiter.size())
                m_pending.erase(0, m_pending.size() - m_delimiter.size() + 1);
            return false;
        }
        m_pending.erase(0, at + m_delimiter.size());
        m_state = State::AfterDelimiter;
        return true;
    }
    case State::AfterDelimiter: {
        if (m_pending.size() < 2)
            return false;
        if (m_pending.compare(0, 2, "--") == 0) {
            m_pending.clear();
            m_state = State::Done;
            return false;
        }
        // The limits hold wherever a piece ends: a line end found past one fails, as it does
        // when the same bytes come one at a time.
        const std::size_t eol = m_pending.find("\r\n");
        if (eol == std::string::npos || eol + 2 > kPaddingLimit) {
            if (eol != std::string::npos || m_pending.size() >= kPaddingLimit)
                return fail("no line end after a boundary");
            return false;
        }
        if (!trim(std::string_view(m_pending).substr(0, eol)).empty())
            return fail("unexpected bytes after a boundary");
        m_pending.erase(0, eol + 2);
        m_state = State::Headers;
        return true;
    }
    case State::Headers: {
        std::size_t end = 0;
        std::size_t skip = 0;
        if (m_pending.compare(0, 2, "\r\n") == 0) {
            skip = 2; // a part without headers
        } else {
            end = m_pending.find("\r\n\r\n");
            if (end == std::string::npos || end + 4 > kHeaderLimit) {
                if (end != std::string::npos || m_pending.size() >= kHeaderLimit)
                    return fail("part headers larger than 16 KiB");
                return false;
            }
            skip = end + 4;
        }
        MultipartPart part;
        if (!parseHeaders(std::string_view(m_pending).substr(0, end), part))
            return false;
        m_pending.erase(0, skip);
        m_state = State::Body;
        sink.partBegin(part);
        return true;
    }
    case State::Body: // feed() passes the part's data on itself
    case State::Done:
    case State::Failed:
        return false;
    }
    return false;
}

bool MultipartParser::parseHeaders(std::string_view block, MultipartPart &part) {
    bool disposition = false;
    while (!block.empty()) {
        const std::size_t eol = block.find("\r\n");
        const std::string_view line = block.substr(0, eol);
        block = eol == std::string_view::npos ? std::string_view() : block.substr(eol + 2);
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || colon == 0)
            return fail("malformed part header line");
        const std::string_view name = trim(line.substr(0, colon));
        const std::string_view value = trim(line.substr(colon + 1));
        if (iequals(name, "Content-Disposition")) {
            std::string type;
            const auto params = parameters(value, type);
            if (!iequals(type, "form-data"))
                return fail("a part's Content-Disposition is not form-data");
            disposition = true;
            std::optional<std::string> extended;
            for (const Parameter &p : params) {
                const std::string &key = p.name;
                const std::string &text = p.value;
                if (key == "name") {
                    part.name = text;
                } else if (key == "filename") {
                    part.filename = text;
                } else if (key == "filename*") {
                    // RFC 5987: charset'language'percent-encoded
                    const std::size_t quote = text.find('\'', text.find('\'') + 1);
                    if (quote != std::string::npos)
                        extended = percentDecode(std::string_view(text).substr(quote + 1), false);
                }
            }
            if (extended)
                part.filename = extended;
        } else if (iequals(name, "Content-Type")) {
            part.contentType = std::string(value);
        }
    }
    if (!disposition)
        return fail("a part has no Content-Disposition");
    return true;
}

bool MultipartParser::fail(std::string why) {
    m_state = State::Failed;
    m_error = std::move(why);
    m_pending.clear();
    m_pending.shrink_to_fit();
    m_held.clear();
    return false;
}

} // namespace sbx
