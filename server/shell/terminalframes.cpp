#include "server/shell/terminalframes.h"

#include "server/core/jsonparse.h"
#include "server/shell/textutil.h"

#include <cstdint>

namespace sbx {

namespace {

using nlohmann::json;

// A frame is an object of a few fields: anything deeper is not a terminal client.
constexpr JsonLimits kFrameLimits{.maxDepth = 8, .maxValues = 1024};
constexpr std::size_t kMaxEchoedTimestamp = 64;

// A ping's timestamp comes back in the pong only when it is a number or a short string: the
// server never serialises a client's structure back to it.
json echoedTimestamp(const json &frame) {
    const auto it = frame.find("timestamp");
    if (it == frame.end())
        return nullptr;
    if (it->is_number())
        return *it;
    if (it->is_string() && it->get_ref<const std::string &>().size() <= kMaxEchoedTimestamp)
        return *it;
    return nullptr;
}

TerminalCommand invalid(std::string message) {
    TerminalCommand command;
    command.text = std::move(message);
    return command;
}

} // namespace

TerminalCommand parseTerminalFrame(std::string_view text) {
    JsonParse parsed = parseJson(text, kFrameLimits);
    json &frame = parsed.value;
    if (!parsed.ok() || !frame.is_object()) {
        return invalid(
            std::string(R"(Frames must be JSON objects such as {"type":"input","data":"ls\n"})") +
            (parsed.ok() ? "" : ": this one is " + parsed.error));
    }
    const auto type = frame.find("type");
    if (type == frame.end() || !type->is_string())
        return invalid(R"(The frame has no string "type")");
    const std::string &kind = type->get_ref<const std::string &>();
    const auto data = frame.find("data");
    TerminalCommand command;
    if (kind == "input") {
        if (data == frame.end() || !data->is_string())
            return invalid(R"(An input frame needs "data": a string)");
        command.kind = TerminalCommand::Kind::Input;
        command.text = std::move(data->get_ref<std::string &>());
    } else if (kind == "resize") {
        auto dimension = [&](const char *name) -> int {
            if (data == frame.end() || !data->is_object())
                return 0;
            const auto value = data->find(name);
            if (value == data->end() || !value->is_number_integer())
                return 0;
            const auto n = value->get<std::int64_t>();
            return n >= 1 && n <= 10000 ? static_cast<int>(n) : 0;
        };
        const int cols = dimension("cols");
        const int rows = dimension("rows");
        if (cols == 0 || rows == 0)
            return invalid(R"(A resize frame needs "data": {"cols": 1..10000, "rows": 1..10000})");
        command.kind = TerminalCommand::Kind::Resize;
        command.cols = static_cast<unsigned short>(cols);
        command.rows = static_cast<unsigned short>(rows);
    } else if (kind == "pong") {
        // Either shape ({"timestamp": T} or {"data": {"timestamp": T}}) only proves liveness.
        command.kind = TerminalCommand::Kind::Pong;
    } else if (kind == "ping") {
        command.kind = TerminalCommand::Kind::Ping;
        command.timestamp = echoedTimestamp(frame);
    } else {
        return invalid("Unknown frame type '" + truncateUtf8(kind, 64) +
                       "': expected input, resize or pong");
    }
    return command;
}

std::string frameText(const json &frame) {
    return frame.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string typedFrame(std::string_view type, json data) {
    json frame = json::object();
    frame["type"] = type;
    frame["data"] = std::move(data);
    return frameText(frame);
}

std::string pongFrame(const TerminalCommand &ping) {
    json pong = json::object();
    pong["type"] = "pong";
    pong["timestamp"] = ping.timestamp;
    return frameText(pong);
}

} // namespace sbx
