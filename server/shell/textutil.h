#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// UTF-8 helpers for what the shell group sends as JSON text.
namespace sbx {

// The length of text without an incomplete UTF-8 character at its end (invalid bytes count as
// complete: the JSON encoder replaces them).
std::size_t completeUtf8Prefix(std::string_view text);
// At most maxBytes bytes of text, cut at a character boundary.
std::string truncateUtf8(std::string_view text, std::size_t maxBytes);
// Text of more than maxChars characters keeps its last maxChars, after a note saying how many
// went (the end of a command's output is where errors are).
std::string truncateChars(std::string text, std::size_t maxChars);

} // namespace sbx
