#pragma once

#include "server/core/http.h"

#include <string>
#include <string_view>

namespace sbx {

// Bodies below this many bytes go as they are: the header would cost more than it saves.
constexpr std::size_t kCompressMinBytes = 1024;

enum class ContentCoding { Identity, Gzip, Deflate };

// What the request's Accept-Encoding allows, gzip preferred (RFC 9110 12.5.3: q=0 refuses a
// coding; "*" stands for any coding not named).
ContentCoding acceptedCoding(const HttpRequest &request);
// Compresses a buffered JSON or text response in place for the coding the request accepts
// (Content-Encoding and Vary set); leaves alone a small body, another type, a body already
// encoded, a partial answer (206, Content-Range) and HEAD. True when it compressed.
bool compressResponse(const HttpRequest &request, HttpResponse &response);
// zlib: gzip framing (RFC 1952) or zlib framing ("deflate" in HTTP, RFC 1950). Empty on failure.
std::string compressBytes(std::string_view input, ContentCoding coding);
// The content type is one worth compressing (JSON, text, JavaScript, XML).
bool compressibleType(std::string_view type);

// One body compressed a piece at a time, each piece flushed (Z_SYNC_FLUSH) so that the client
// can decode what it got while the rest is still being made; the last piece ends the stream.
class StreamCompressor final {
public:
    // level 1: a streamed body is large and made while it is sent; speed matters most.
    explicit StreamCompressor(ContentCoding coding, int level = 1);
    ~StreamCompressor();
    StreamCompressor(const StreamCompressor &) = delete;
    StreamCompressor &operator=(const StreamCompressor &) = delete;
    // The compressed bytes of input; with last, the stream's end too. False when zlib failed.
    bool push(std::string_view input, bool last, std::string &out);

private:
    struct State;
    State *m_state;
};

} // namespace sbx
