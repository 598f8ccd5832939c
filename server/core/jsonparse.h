#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace sbx {

// Bounds on JSON read from outside (request bodies, WebSocket frames, environment values,
// state files): nesting and value count cap the work and memory one text can cost.
struct JsonLimits {
    std::size_t maxDepth = 64;
    // Values of every kind (containers, keys excluded); a few fields need far fewer.
    std::size_t maxValues = 100000;
};

struct JsonParse {
    nlohmann::json value;
    // Empty when the text parsed. Never quotes the text: it may hold a secret.
    std::string error;
    // Where the parser stopped, for messages about texts that must not be echoed.
    std::size_t byte = 0;
    bool ok() const { return error.empty(); }
};

// Parses without exceptions, without recursion, and within the limits.
JsonParse parseJson(std::string_view text, const JsonLimits &limits = {});

} // namespace sbx
