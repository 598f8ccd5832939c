#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

// Small OpenSSL wrappers shared by the authentication code.
namespace sbx::crypto {

using Digest = std::array<unsigned char, 32>;

Digest sha256(std::string_view data);
// Compares the SHA-256 of both, so neither the time nor the length of the secret leaks.
bool constantTimeEquals(std::string_view presented, const Digest &expected);
// bytes of RAND_bytes as unpadded base64url; throws std::runtime_error if the RNG fails.
std::string randomToken(std::size_t bytes);
std::string base64UrlEncode(std::string_view data);
// Standard base64, line breaks and spaces allowed (as `base64` prints by default).
std::optional<std::string> base64Decode(std::string_view text);

} // namespace sbx::crypto
