#include "server/core/bodyfields.h"

#include "server/core/router.h"

#include <cmath>

namespace sbx {

using nlohmann::json;

BodyFields::BodyFields(HttpRequest &request) {
    if (!request.jsonParsed) {
        if (request.body.empty()) {
            fail({"body"}, "missing", "Field required");
            return;
        }
        takeJsonBody(request);
    }
    if (request.jsonError) {
        json error = json::object();
        error["type"] = "json_invalid";
        error["loc"] = json::array({"body", 0});
        error["msg"] = "JSON decode error";
        error["ctx"] = {{"error", *request.jsonError}};
        m_errors.push_back(std::move(error));
        return;
    }
    m_body = std::move(request.json);
    request.json = nullptr;
    if (!m_body.is_object()) {
        fail({"body"}, "model_attributes_type",
             "Input should be a valid dictionary or object to extract fields from");
    }
}

BodyFields::BodyFields(json value)
    : m_body(std::move(value)) {
    if (!m_body.is_object())
        fail({"body"}, "model_attributes_type",
             "Input should be a valid dictionary or object to extract fields from");
}

std::optional<std::string> BodyFields::string(const char *name, bool required) {
    const json *value = field(name, required);
    if (!value)
        return std::nullopt;
    if (!value->is_string()) {
        fail({"body", name}, "string_type", "Input should be a valid string");
        return std::nullopt;
    }
    return value->get<std::string>();
}

std::optional<std::string> BodyFields::takeString(const char *name, bool required) {
    json *value = field(name, required);
    if (!value)
        return std::nullopt;
    if (!value->is_string()) {
        fail({"body", name}, "string_type", "Input should be a valid string");
        return std::nullopt;
    }
    return std::move(value->get_ref<std::string &>());
}

std::optional<bool> BodyFields::boolean(const char *name, bool required) {
    const json *value = field(name, required);
    if (!value)
        return std::nullopt;
    if (value->is_boolean())
        return value->get<bool>();
    if (value->is_number_integer() && (*value == 0 || *value == 1))
        return *value == 1;
    fail({"body", name}, "bool_type", "Input should be a valid boolean");
    return std::nullopt;
}

std::optional<double> BodyFields::number(const char *name, bool integer) {
    const json *value = field(name, false);
    if (!value)
        return std::nullopt;
    if (value->is_number() && !value->is_boolean()) {
        const double n = value->get<double>();
        // The range check comes first: casting a double beyond long long is undefined.
        const bool whole =
            std::abs(n) < 9.2e18 && n == static_cast<double>(static_cast<long long>(n));
        if (!integer || whole)
            return n;
    }
    if (integer)
        fail({"body", name}, "int_type", "Input should be a valid integer");
    else
        fail({"body", name}, "float_type", "Input should be a valid number");
    return std::nullopt;
}

void BodyFields::fail(json loc, const char *type, std::string message) {
    json error = json::object();
    error["type"] = type;
    error["loc"] = std::move(loc);
    error["msg"] = std::move(message);
    m_errors.push_back(std::move(error));
}

HttpResponse BodyFields::refusal() const {
    json body = json::object();
    body["detail"] = m_errors;
    return jsonResponse(422, body);
}

json *BodyFields::field(const char *name, bool required) {
    if (!m_body.is_object())
        return nullptr;
    const auto it = m_body.find(name);
    if (it == m_body.end() || (it->is_null() && !required)) {
        if (required)
            fail({"body", name}, "missing", "Field required");
        return nullptr;
    }
    return &*it;
}

HttpResponse validationRefusal(json loc, const char *type, std::string message) {
    json error = json::object();
    error["type"] = type;
    error["loc"] = std::move(loc);
    error["msg"] = std::move(message);
    json body = json::object();
    body["detail"] = json::array({error});
    return jsonResponse(422, body);
}

} // namespace sbx
