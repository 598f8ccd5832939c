// Fuzzes the streaming multipart/form-data parser (server/files/multipartparser.cpp).
//
// Input: a Content-Type line, '\n', then the body. The body is parsed three times: in one piece,
// in pieces of sizes taken from the input and byte by byte. The parser promises that a split
// anywhere changes nothing, so the runs must agree.
#include "server/files/multipartparser.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

struct Part {
    std::string name;
    bool hasFilename = false;
    std::string filename;
    std::string contentType;
    std::string data;
    bool ended = false;

    bool operator==(const Part &) const = default;
};

// Records the events and traps on an order the parser must never produce.
struct Recorder final : sbx::MultipartSink {
    std::vector<Part> parts;
    bool open = false;

    void partBegin(const sbx::MultipartPart &part) override {
        if (open)
            __builtin_trap();
        open = true;
        parts.push_back({part.name,
                         part.filename.has_value(),
                         part.filename.value_or(""),
                         part.contentType,
                         {},
                         false});
    }
    void partData(std::string_view data) override {
        if (!open)
            __builtin_trap();
        parts.back().data.append(data);
    }
    void partEnd() override {
        if (!open)
            __builtin_trap();
        open = false;
        parts.back().ended = true;
    }
};

struct Outcome {
    std::vector<Part> parts;
    bool fed = false;
    bool finished = false;
};

Outcome parse(const std::string &boundary, std::string_view body, std::string_view splits) {
    sbx::MultipartParser parser(boundary);
    Recorder sink;
    Outcome out;
    out.fed = true;
    std::size_t split = 0;
    while (!body.empty()) {
        std::size_t n = body.size();
        if (!splits.empty())
            n = std::min<std::size_t>(
                n, 1 + static_cast<unsigned char>(splits[split++ % splits.size()]) % 32);
        if (!parser.feed(body.substr(0, n), sink)) {
            out.fed = false;
            if (parser.error().empty())
                __builtin_trap();
            // Once failed, the parser ignores everything.
            if (parser.feed("more", sink))
                __builtin_trap();
            break;
        }
        body.remove_prefix(n);
    }
    out.finished = out.fed && parser.finish();
    if (out.finished && (!parser.done() || sink.open))
        __builtin_trap();
    out.parts = std::move(sink.parts);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char *>(data), size);
    const std::size_t newline = input.find('\n');
    if (newline == std::string_view::npos)
        return 0;
    const std::string_view contentType = input.substr(0, newline);
    const std::string_view body = input.substr(newline + 1);

    std::string boundary = "XyZ";
    if (auto parsed = sbx::MultipartParser::boundaryFromContentType(contentType)) {
        if (parsed->empty())
            return 0;
        boundary = *parsed;
    }

    const Outcome whole = parse(boundary, body, {});
    // The split sizes come from the body itself, so the fuzzer can steer them.
    const Outcome pieces = parse(boundary, body, body);
    const Outcome bytes = parse(boundary, body, std::string_view("\0", 1));
    // Where a malformed body fails and what it emitted before may depend on the split; whether
    // it fails, and everything a complete body yields, must not.
    for (const Outcome *other : {&pieces, &bytes}) {
        if (whole.fed != other->fed || whole.finished != other->finished)
            __builtin_trap();
        if (whole.finished && whole.parts != other->parts)
            __builtin_trap();
    }
    return 0;
}
