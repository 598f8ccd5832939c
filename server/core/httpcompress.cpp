#include "server/core/httpcompress.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>

namespace sbx {

namespace {

// Past this size speed matters more than the last tenth of the ratio: the answer is built on
// the connection's thread, and a JSON listing compresses well at any level.
constexpr std::size_t kFastLevelBytes = 256 * 1024;

std::string_view trim(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// The q value of one Accept-Encoding element ("gzip;q=0.5"); 1 when none is given.
double qualityOf(std::string_view parameters) {
    const auto at = parameters.find("q=");
    if (at == std::string_view::npos)
        return 1.0;
    try {
        return std::stod(std::string(parameters.substr(at + 2)));
    } catch (...) {
        return 0.0;
    }
}

} // namespace

bool compressibleType(std::string_view type) {
    return type.starts_with("application/json") || type.starts_with("text/") ||
           type.find("+json") != std::string_view::npos ||
           type.starts_with("application/javascript") || type.starts_with("application/xml");
}

ContentCoding acceptedCoding(const HttpRequest &request) {
    const auto header = request.header("Accept-Encoding");
    if (!header)
        return ContentCoding::Identity;
    double gzip = -1, deflate = -1, any = -1;
    std::string_view rest = *header;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view element = trim(rest.substr(0, comma));
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const auto semicolon = element.find(';');
        const std::string_view name = trim(element.substr(0, semicolon));
        const double q =
            semicolon == std::string_view::npos ? 1.0 : qualityOf(element.substr(semicolon + 1));
        if (iequals(name, "gzip") || iequals(name, "x-gzip"))
            gzip = q;
        else if (iequals(name, "deflate"))
            deflate = q;
        else if (name == "*")
            any = q;
    }
    if (gzip < 0)
        gzip = any;
    if (deflate < 0)
        deflate = any;
    if (gzip > 0 && gzip >= deflate)
        return ContentCoding::Gzip;
    if (deflate > 0)
        return ContentCoding::Deflate;
    return ContentCoding::Identity;
}

struct StreamCompressor::State {
    z_stream zs{};
    bool ok = false;
};

StreamCompressor::StreamCompressor(ContentCoding coding, int level)
    : m_state(new State) {
    const int windowBits = coding == ContentCoding::Gzip ? 15 + 16 : 15;
    m_state->ok =
        coding != ContentCoding::Identity &&
        deflateInit2(&m_state->zs, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) == Z_OK;
}

StreamCompressor::~StreamCompressor() {
    if (m_state->ok)
        deflateEnd(&m_state->zs);
    delete m_state;
}

bool StreamCompressor::push(std::string_view input, bool last, std::string &out) {
    if (!m_state->ok)
        return false;
    z_stream &zs = m_state->zs;
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(input.data()));
    zs.avail_in = uInt(input.size());
    const int flush = last ? Z_FINISH : Z_SYNC_FLUSH;
    const std::size_t start = out.size();
    std::size_t room = deflateBound(&zs, uLong(input.size())) + 64;
    for (;;) {
        const std::size_t at = out.size();
        out.resize(at + room);
        zs.next_out = reinterpret_cast<Bytef *>(out.data() + at);
        zs.avail_out = uInt(room);
        const int result = deflate(&zs, flush);
        const std::size_t produced = room - std::min<std::size_t>(zs.avail_out, room);
        out.resize(at + produced);
        // Z_BUF_ERROR with room left: nothing more to flush.
        if (result == Z_STREAM_END ||
            (!last && zs.avail_out > 0 && (result == Z_OK || result == Z_BUF_ERROR)))
            return true;
        if (result != Z_OK && result != Z_BUF_ERROR) {
            out.resize(start);
            m_state->ok = false;
            return false;
        }
        room = 64 * 1024; // the output did not fit: more room, the same flush
    }
}

std::string compressBytes(std::string_view input, ContentCoding coding) {
    StreamCompressor compressor(coding, input.size() > kFastLevelBytes ? 1 : 6);
    std::string out;
    if (!compressor.push(input, true, out))
        return {};
    return out;
}

bool compressResponse(const HttpRequest &request, HttpResponse &response) {
    if (request.method == "HEAD" || response.status == 206 ||
        response.body.size() < kCompressMinBytes || !compressibleType(response.contentType))
        return false;
    const bool encoded =
        std::any_of(response.headers.cbegin(), response.headers.cend(), [](const auto &header) {
            return iequals(header.first, "Content-Encoding") ||
                   iequals(header.first, "Content-Range");
        });
    if (encoded)
        return false;
    // Whatever the coding, a cache must tell the answers apart.
    response.headers.emplace_back("Vary", "Accept-Encoding");
    const ContentCoding coding = acceptedCoding(request);
    if (coding == ContentCoding::Identity)
        return false;
    std::string compressed = compressBytes(response.body, coding);
    if (compressed.empty() || compressed.size() >= response.body.size())
        return false;
    response.body = std::move(compressed);
    response.headers.emplace_back("Content-Encoding",
                                  coding == ContentCoding::Gzip ? "gzip" : "deflate");
    return true;
}

} // namespace sbx
