// Fuzzes the engine log frame decoder (client/providers/engine/enginelogs.cpp): the Docker
// multiplexed stream of 8-byte headers [stream, 0, 0, 0, big-endian size] and payloads.
//
// Input: byte 0 seeds the chunk sizes; the rest is the stream, fed in chunks. What comes out
// must equal a plain decoding of the whole stream at once: the same bytes in the same order,
// each under its frame's stream, with adjacent pieces of one chunk never of the same stream.
#include "client/providers/engine/enginelogs.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

using namespace sbx;

namespace {

// The reference: whole frames read one after the other, the last one maybe cut short.
std::vector<std::pair<int, std::string>> reference(const QByteArray &stream, bool *midFrame) {
    std::vector<std::pair<int, std::string>> out;
    qsizetype at = 0;
    *midFrame = false;
    while (at < stream.size()) {
        if (stream.size() - at < 8) {
            *midFrame = true;
            break;
        }
        const auto *h = reinterpret_cast<const unsigned char *>(stream.constData() + at);
        const int kind = h[0];
        const std::uint64_t length = (std::uint64_t(h[4]) << 24) | (std::uint64_t(h[5]) << 16) |
                                     (std::uint64_t(h[6]) << 8) | std::uint64_t(h[7]);
        at += 8;
        const qsizetype take = qsizetype(std::min<std::uint64_t>(length, stream.size() - at));
        if (take > 0)
            out.emplace_back(kind, std::string(stream.constData() + at, std::size_t(take)));
        *midFrame = std::uint64_t(take) < length;
        at += take;
    }
    return out;
}

void append(std::vector<std::pair<int, std::string>> &out, int kind, const QByteArray &bytes) {
    if (!out.empty() && out.back().first == kind)
        out.back().second.append(bytes.constData(), std::size_t(bytes.size()));
    else
        out.emplace_back(kind, bytes.toStdString());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size < 1)
        return 0;
    const unsigned seed = data[0];
    const QByteArray stream(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));

    LogFrameDecoder decoder;
    std::vector<std::pair<int, std::string>> decoded;
    qsizetype at = 0;
    unsigned step = 0;
    while (at < stream.size()) {
        ++step;
        const qsizetype n = std::min<qsizetype>(stream.size() - at, 1 + (seed * step * 7) % 23);
        const QList<LogPiece> pieces = decoder.feed(QByteArrayView(stream).sliced(at, n));
        qsizetype bytes = 0;
        for (qsizetype i = 0; i < pieces.size(); ++i) {
            check(!pieces[i].bytes.isEmpty());
            check(pieces[i].stream >= 0 && pieces[i].stream <= 255);
            if (i > 0)
                check(pieces[i].stream != pieces[i - 1].stream);
            bytes += pieces[i].bytes.size();
            append(decoded, pieces[i].stream, pieces[i].bytes);
        }
        check(bytes <= n);
        at += n;
    }

    bool midFrame = false;
    std::vector<std::pair<int, std::string>> expected = reference(stream, &midFrame);
    // Adjacent frames of one stream merge in the decoder's output as in its pieces.
    std::vector<std::pair<int, std::string>> merged;
    for (auto &[kind, bytes] : expected)
        append(merged, kind, QByteArray::fromStdString(bytes));
    check(decoded == merged);
    check(decoder.midFrame() == midFrame);
    return 0;
}
