#include "server/jupyter/kernelwire.h"

#include "server/core/activityevents.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace sbx {

using nlohmann::json;

namespace {

constexpr std::string_view kDelimiter = "<IDS|MSG>";

std::string hex(const unsigned char *bytes, std::size_t size) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

template <std::size_t N> std::array<unsigned char, N> randomBytes() {
    std::array<unsigned char, N> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1)
        throw std::runtime_error("the random number generator failed");
    return bytes;
}

std::string dumped(const json &value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string stringField(const json &object, const char *name) {
    if (!object.is_object())
        return {};
    const auto it = object.find(name);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

std::string KernelMessage::type() const {
    return stringField(header, "msg_type");
}

std::string KernelMessage::id() const {
    return stringField(header, "msg_id");
}

std::string KernelMessage::parentId() const {
    return stringField(parent, "msg_id");
}

KernelWire::KernelWire(std::string key)
    : m_key(std::move(key))
    , m_session(randomUuid()) {}

KernelMessage KernelWire::request(std::string msgType, json content) const {
    KernelMessage message;
    message.header = {
        {"msg_id", randomUuid()},         {"session", m_session},
        {"username", "sandbox-server"},   {"date", isoTime(std::chrono::system_clock::now())},
        {"msg_type", std::move(msgType)}, {"version", "5.3"}};
    message.content = std::move(content);
    return message;
}

std::string KernelWire::signature(std::string_view header, std::string_view parent,
                                  std::string_view metadata, std::string_view content) const {
    if (m_key.empty())
        return {};
    // EVP_MAC: OpenSSL 3 deprecates the HMAC_CTX functions.
    // Fetched once: a fetch looks the algorithm up under a lock.
    static EVP_MAC *const mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    EVP_MAC_CTX *context = mac ? EVP_MAC_CTX_new(mac) : nullptr;
    char digestName[] = "SHA256";
    const OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digestName, 0),
        OSSL_PARAM_construct_end()};
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    std::size_t size = 0;
    bool ok =
        context && EVP_MAC_init(context, reinterpret_cast<const unsigned char *>(m_key.data()),
                                m_key.size(), params) == 1;
    for (const std::string_view part : {header, parent, metadata, content}) {
        ok = ok && EVP_MAC_update(context, reinterpret_cast<const unsigned char *>(part.data()),
                                  part.size()) == 1;
    }
    ok = ok && EVP_MAC_final(context, digest.data(), &size, digest.size()) == 1;
    EVP_MAC_CTX_free(context);
    return ok ? hex(digest.data(), size) : std::string();
}

std::vector<std::string> KernelWire::encode(const KernelMessage &message) const {
    std::vector<std::string> frames;
    frames.reserve(6 + message.buffers.size());
    frames.emplace_back(kDelimiter);
    frames.emplace_back(); // the signature, once the parts are written
    frames.push_back(dumped(message.header));
    frames.push_back(dumped(message.parent));
    frames.push_back(dumped(message.metadata));
    frames.push_back(dumped(message.content));
    frames[1] = signature(frames[2], frames[3], frames[4], frames[5]);
    frames.insert(frames.end(), message.buffers.begin(), message.buffers.end());
    return frames;
}

std::optional<KernelMessage> KernelWire::decode(const std::vector<std::string> &frames,
                                                std::string &error) const {
    std::size_t at = 0;
    while (at < frames.size() && frames[at] != kDelimiter)
        ++at;
    if (at == frames.size() || frames.size() - at < 6) {
        error = "a message without the <IDS|MSG> delimiter or its five parts";
        return std::nullopt;
    }
    const std::string &presented = frames[at + 1];
    const std::string expected =
        signature(frames[at + 2], frames[at + 3], frames[at + 4], frames[at + 5]);
    if (presented.size() != expected.size() ||
        CRYPTO_memcmp(presented.data(), expected.data(), expected.size()) != 0) {
        error = "a message with a bad signature";
        return std::nullopt;
    }
    KernelMessage message;
    json *parts[] = {&message.header, &message.parent, &message.metadata, &message.content};
    for (std::size_t i = 0; i < 4; ++i) {
        *parts[i] = json::parse(frames[at + 2 + i], nullptr, false);
        if (parts[i]->is_discarded() || !parts[i]->is_object()) {
            error = "a message part that is not a JSON object";
            return std::nullopt;
        }
    }
    message.buffers.assign(frames.begin() + static_cast<std::ptrdiff_t>(at + 6), frames.end());
    return message;
}

std::string randomUuid() {
    auto bytes = randomBytes<16>();
    bytes[6] = static_cast<unsigned char>((bytes[6] & 0x0F) | 0x40);
    bytes[8] = static_cast<unsigned char>((bytes[8] & 0x3F) | 0x80);
    const std::string digits = hex(bytes.data(), bytes.size());
    return digits.substr(0, 8) + "-" + digits.substr(8, 4) + "-" + digits.substr(12, 4) + "-" +
           digits.substr(16, 4) + "-" + digits.substr(20);
}

std::string randomHexKey() {
    const auto bytes = randomBytes<32>();
    return hex(bytes.data(), bytes.size());
}

} // namespace sbx
