#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace sbx {

// What one text frame from a terminal client (v1/shell/ws) asks for. Beast-free, so that the
// frame handling is tested and fuzzed without a socket (tests/fuzz/fuzz_terminalframe.cpp).
struct TerminalCommand {
    enum class Kind { Input, Resize, Ping, Pong, Invalid };
    Kind kind = Kind::Invalid;
    // Input: the bytes to type. Invalid: the message of the error frame to send back.
    std::string text;
    // Resize: both within 1..10000.
    unsigned short cols = 0;
    unsigned short rows = 0;
    // Ping: what the pong echoes, a number, a short string or null.
    nlohmann::json timestamp;
};

// Reads one frame within small JSON limits; never throws.
TerminalCommand parseTerminalFrame(std::string_view text);

// A frame's text; invalid UTF-8 (from the PTY) becomes U+FFFD instead of an exception.
std::string frameText(const nlohmann::json &frame);
// {"type": type, "data": data} as text.
std::string typedFrame(std::string_view type, nlohmann::json data);
// The answer to a ping.
std::string pongFrame(const TerminalCommand &ping);

} // namespace sbx
