#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace sbx {

struct MultipartPart {
    std::string name;
    // Absent for plain fields; present (maybe empty) for file parts.
    std::optional<std::string> filename;
    std::string contentType;
};

// Receives a multipart body as events; a part's data arrives in pieces as the bytes do.
class MultipartSink {
public:
    virtual ~MultipartSink() = default;
    virtual void partBegin(const MultipartPart &part) = 0;
    virtual void partData(std::string_view data) = 0;
    virtual void partEnd() = 0;
};

// Streaming RFC 7578 multipart/form-data parser: takes the body in pieces split anywhere and
// holds back no more than a delimiter's length of a part, so memory stays flat. A part's data is
// scanned in place (glibc's memmem, a Horspool-style shift over the whole piece) and handed on
// as views into the caller's piece: no byte of it is copied or looked at one at a time.
class MultipartParser final {
public:
    explicit MultipartParser(std::string boundary);

    // The boundary parameter of a multipart/form-data Content-Type; nullopt for anything else.
    static std::optional<std::string> boundaryFromContentType(std::string_view contentType);

    // False once the body is malformed (error() says how); later calls do nothing. partData's
    // views point into data, or for the few bytes held back from the piece before into the
    // parser itself: either stays valid until the next feed().
    bool feed(std::string_view data, MultipartSink &sink);
    // Call when the body has ended: false unless the closing delimiter was seen.
    bool finish();
    bool done() const { return m_state == State::Done; }
    const std::string &error() const { return m_error; }

private:
    enum class State { Preamble, AfterDelimiter, Headers, Body, Done, Failed };

    bool step(MultipartSink &sink);
    // Passes on the part's data up to the next delimiter; leaves data after it (or empty).
    void body(std::string_view &data, MultipartSink &sink);
    // Where a delimiter could begin in the last bytes of data, or data.size() if nowhere.
    std::size_t heldBackFrom(std::string_view data) const;
    bool parseHeaders(std::string_view block, MultipartPart &part);
    bool fail(std::string why);

    std::string m_delimiter;
    // Bytes of the states around a part's data (preamble, delimiter line, headers): small.
    std::string m_pending;
    // The end of the last piece that may begin a delimiter: shorter than the delimiter.
    std::string m_held;
    State m_state = State::Preamble;
    std::string m_error;
};

} // namespace sbx
