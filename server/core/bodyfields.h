#pragma once

#include "server/core/http.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace sbx {

// Reads a request body the way FastAPI does, collecting its 422 errors
// ({"detail": [{"type", "loc", "msg"}]}) instead of failing on the first.
class BodyFields final {
public:
    // Takes the request's parsed document (BodyPolicy::Fields), or parses its body within
    // JsonLimits when the route kept it raw.
    explicit BodyFields(HttpRequest &request);
    // A value parsed elsewhere (an entry of an environment variable's JSON), checked the same way.
    explicit BodyFields(nlohmann::json value);

    std::optional<std::string> string(const char *name, bool required = false);
    // As string(), moving the text out of the document (file contents are large).
    std::optional<std::string> takeString(const char *name, bool required = false);
    std::optional<bool> boolean(const char *name, bool required = false);
    std::optional<double> number(const char *name, bool integer = false);
    // The raw value (any JSON type), null counting as absent.
    const nlohmann::json *value(const char *name) { return field(name, false); }
    void fail(nlohmann::json loc, const char *type, std::string message);

    bool ok() const { return m_errors.empty(); }
    // The ValidationErrors so far, for callers that report them other than as a 422.
    const nlohmann::json &errors() const { return m_errors; }
    HttpResponse refusal() const;

private:
    // Null counts as absent, as for pydantic's `X | None` fields.
    nlohmann::json *field(const char *name, bool required);

    nlohmann::json m_body;
    nlohmann::json m_errors = nlohmann::json::array();
};

// A 422 with one FastAPI ValidationError, for inputs outside a JSON body (query parameters).
HttpResponse validationRefusal(nlohmann::json loc, const char *type, std::string message);

} // namespace sbx
