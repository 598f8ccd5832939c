#pragma once

#include "server/core/http.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sbx {

// Appends text as a JSON string body (no quotes) to out: runs of plain bytes are copied whole,
// so megabytes of command output escape at memory speed where nlohmann's dump goes a byte at a
// time. Bytes that are not UTF-8 become U+FFFD, as dump's error_handler_t::replace does.
void appendJsonString(std::string &out, std::string_view text);

// AIO's envelope whose data object also carries large text fields (a command's stdout and
// stderr), those written by appendJsonString.
HttpResponse
envelopeWithText(int status, bool success, std::string message, nlohmann::json data,
                 const std::vector<std::pair<std::string_view, std::string_view>> &text);

} // namespace sbx
