// Fuzzes the terminal WebSocket's frame handling (server/shell/terminalframes.cpp, called by
// terminalsocket.cpp for every text frame): any text in, a typed command or an error out, and
// every frame the server sends back must be JSON of the documented shape.
//
// Input: the frame's text.
#include "server/shell/terminalframes.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

void check(bool condition) {
    if (!condition)
        __builtin_trap();
}

// What the client reads back: a JSON object with a string "type".
nlohmann::json reply(const std::string &text) {
    const nlohmann::json frame = nlohmann::json::parse(text, nullptr, false);
    check(frame.is_object() && frame.contains("type") && frame["type"].is_string());
    return frame;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const sbx::TerminalCommand command = sbx::parseTerminalFrame(text);
    using Kind = sbx::TerminalCommand::Kind;
    switch (command.kind) {
    case Kind::Invalid: {
        check(!command.text.empty());
        const nlohmann::json error = reply(sbx::typedFrame("error", command.text));
        check(error["type"] == "error" && error["data"].is_string());
        // The error never quotes more than a bounded part of the frame back.
        check(command.text.size() <= 512);
        break;
    }
    case Kind::Input:
        check(command.text.size() <= size);
        break;
    case Kind::Resize:
        check(command.cols >= 1 && command.cols <= 10000);
        check(command.rows >= 1 && command.rows <= 10000);
        break;
    case Kind::Ping: {
        check(command.timestamp.is_null() || command.timestamp.is_number() ||
              (command.timestamp.is_string() && command.timestamp.get<std::string>().size() <= 64));
        const nlohmann::json pong = reply(sbx::pongFrame(command));
        check(pong["type"] == "pong" && pong.size() == 2);
        break;
    }
    case Kind::Pong:
        break;
    }
    // Output frames carry PTY bytes, valid UTF-8 or not.
    (void)reply(sbx::typedFrame("output", std::string(text)));
    return 0;
}
