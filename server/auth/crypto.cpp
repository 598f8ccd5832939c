#include "server/auth/crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <stdexcept>
#include <vector>

namespace sbx::crypto {

Digest sha256(std::string_view data) {
    Digest digest{};
    SHA256(reinterpret_cast<const unsigned char *>(data.data()), data.size(), digest.data());
    return digest;
}

bool constantTimeEquals(std::string_view presented, const Digest &expected) {
    const Digest actual = sha256(presented);
    return CRYPTO_memcmp(actual.data(), expected.data(), actual.size()) == 0;
}

std::string base64UrlEncode(std::string_view data) {
    static constexpr char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    std::string out;
    out.reserve((data.size() + 2) / 3 * 4);
    std::size_t i = 0;
    const auto byte = [&](std::size_t k) {
        return static_cast<unsigned char>(data[k]);
    };
    for (; i + 3 <= data.size(); i += 3) {
        const unsigned v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
        out += alphabet[v & 63];
    }
    if (data.size() - i == 1) {
        const unsigned v = byte(i) << 16;
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
    } else if (data.size() - i == 2) {
        const unsigned v = (byte(i) << 16) | (byte(i + 1) << 8);
        out += alphabet[(v >> 18) & 63];
        out += alphabet[(v >> 12) & 63];
        out += alphabet[(v >> 6) & 63];
    }
    return out;
}

std::string randomToken(std::size_t bytes) {
    std::vector<unsigned char> buffer(bytes);
    if (RAND_bytes(buffer.data(), static_cast<int>(buffer.size())) != 1)
        throw std::runtime_error("the random number generator failed");
    return base64UrlEncode(
        std::string_view(reinterpret_cast<const char *>(buffer.data()), buffer.size()));
}

std::optional<std::string> base64Decode(std::string_view text) {
    EVP_ENCODE_CTX *context = EVP_ENCODE_CTX_new();
    if (!context)
        return std::nullopt;
    EVP_DecodeInit(context);
    std::string out(text.size() / 4 * 3 + 64, '\0');
    int written = 0;
    int total = 0;
    bool ok = EVP_DecodeUpdate(context, reinterpret_cast<unsigned char *>(out.data()), &written,
                               reinterpret_cast<const unsigned char *>(text.data()),
                               static_cast<int>(text.size())) >= 0;
    total += written;
    if (ok) {
        ok = EVP_DecodeFinal(context, reinterpret_cast<unsigned char *>(out.data()) + total,
                             &written) == 1;
        total += written;
    }
    EVP_ENCODE_CTX_free(context);
    if (!ok)
        return std::nullopt;
    out.resize(static_cast<std::size_t>(total));
    return out;
}

} // namespace sbx::crypto
