#include "server/shell/textutil.h"

namespace sbx {

namespace {

std::size_t sequenceLength(unsigned char lead) {
    if (lead >= 0xc2 && lead <= 0xdf)
        return 2;
    if (lead >= 0xe0 && lead <= 0xef)
        return 3;
    if (lead >= 0xf0 && lead <= 0xf4)
        return 4;
    return 1;
}

bool isContinuation(unsigned char byte) {
    return (byte & 0xc0) == 0x80;
}

} // namespace

std::size_t completeUtf8Prefix(std::string_view text) {
    const std::size_t size = text.size();
    for (std::size_t back = 1; back <= 4 && back <= size; ++back) {
        const auto byte = static_cast<unsigned char>(text[size - back]);
        if (isContinuation(byte))
            continue;
        return sequenceLength(byte) > back ? size - back : size;
    }
    return size;
}

std::string truncateUtf8(std::string_view text, std::size_t maxBytes) {
    if (text.size() <= maxBytes)
        return std::string(text);
    std::size_t cut = maxBytes;
    while (cut > 0 && isContinuation(static_cast<unsigned char>(text[cut])))
        --cut;
    return std::string(text.substr(0, cut));
}

std::string truncateChars(std::string text, std::size_t maxChars) {
    std::size_t chars = 0;
    for (char c : text)
        chars += isContinuation(static_cast<unsigned char>(c)) ? 0 : 1;
    if (chars <= maxChars)
        return text;
    std::size_t skip = chars - maxChars;
    std::size_t at = 0;
    while (at < text.size() && skip > 0) {
        ++at;
        while (at < text.size() && isContinuation(static_cast<unsigned char>(text[at])))
            ++at;
        --skip;
    }
    return "[... " + std::to_string(chars - maxChars) + " characters truncated ...]\n" +
           text.substr(at);
}

} // namespace sbx
