#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// The Jupyter messaging protocol's wire format (version 5.3) over ZeroMQ multipart frames:
// [routing ids..., "<IDS|MSG>", HMAC, header, parent_header, metadata, content, buffers...].
// Free of ZeroMQ itself, so it is tested on plain frames.
namespace sbx {

struct KernelMessage {
    nlohmann::json header = nlohmann::json::object();
    nlohmann::json parent = nlohmann::json::object();
    nlohmann::json metadata = nlohmann::json::object();
    nlohmann::json content = nlohmann::json::object();
    std::vector<std::string> buffers;

    std::string type() const;
    std::string id() const;
    // The msg_id of the request this message answers; empty when there is none.
    std::string parentId() const;
};

// Signs and checks messages with the connection file's key (hmac-sha256; an empty key signs
// nothing, as Jupyter allows).
class KernelWire final {
public:
    explicit KernelWire(std::string key);

    // A request from this client: a fresh msg_id, our session id, the time.
    KernelMessage request(std::string msgType, nlohmann::json content) const;
    std::vector<std::string> encode(const KernelMessage &message) const;
    // Nullopt with error set for frames without the delimiter, a bad signature or bad JSON.
    std::optional<KernelMessage> decode(const std::vector<std::string> &frames,
                                        std::string &error) const;

    const std::string &session() const { return m_session; }
    std::string signature(std::string_view header, std::string_view parent,
                          std::string_view metadata, std::string_view content) const;

private:
    std::string m_key;
    std::string m_session;
};

// A random RFC 4122 version 4 UUID, lower-case with dashes.
std::string randomUuid();
// 32 random bytes as 64 hex digits: a connection file's key.
std::string randomHexKey();

} // namespace sbx
