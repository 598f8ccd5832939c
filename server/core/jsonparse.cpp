#include "server/core/jsonparse.h"

#include <vector>

namespace sbx {

namespace {

using nlohmann::json;

// Builds the document as nlohmann's own DOM parser does, but refuses past the limits, so
// that neither a deep text nor a wide one costs more than the limits allow.
class BoundedBuilder final {
public:
    BoundedBuilder(json &root, const JsonLimits &limits, JsonParse &result)
        : m_root(root)
        , m_limits(limits)
        , m_result(result) {}

    bool null() { return put(nullptr); }
    bool boolean(bool value) { return put(value); }
    bool number_integer(json::number_integer_t value) { return put(value); }
    bool number_unsigned(json::number_unsigned_t value) { return put(value); }
    bool number_float(json::number_float_t value, const std::string &) { return put(value); }
    bool string(json::string_t &value) { return put(std::move(value)); }
    bool binary(json::binary_t &value) { return put(json::binary(std::move(value))); }
    bool start_object(std::size_t) { return open(json::object()); }
    bool start_array(std::size_t) { return open(json::array()); }
    bool key(json::string_t &name) {
        m_slot = &(*m_stack.back())[name];
        return true;
    }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool parse_error(std::size_t byte, const std::string &, const nlohmann::detail::exception &e) {
        // nlohmann's message ends with the bytes it read last: keep only its kind.
        const bool overflow = e.id == 406;
        return fail(overflow ? "a number is too large" : "invalid JSON", byte);
    }

    std::size_t position = 0;

private:
    json *place(json value) {
        if (++m_values > m_limits.maxValues) {
            fail("more than " + std::to_string(m_limits.maxValues) + " values", 0);
            return nullptr;
        }
        if (m_stack.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        json &top = *m_stack.back();
        if (top.is_array())
            return &top.emplace_back(std::move(value));
        *m_slot = std::move(value);
        return m_slot;
    }
    bool put(json value) { return place(std::move(value)) != nullptr; }
    bool open(json container) {
        if (m_stack.size() >= m_limits.maxDepth)
            return fail("nested deeper than " + std::to_string(m_limits.maxDepth) + " levels", 0);
        json *made = place(std::move(container));
        if (!made)
            return false;
        m_stack.push_back(made);
        return true;
    }
    bool close() {
        m_stack.pop_back();
        return true;
    }
    bool fail(std::string why, std::size_t byte) {
        if (m_result.error.empty()) {
            m_result.error = std::move(why);
            m_result.byte = byte;
        }
        return false;
    }

    json &m_root;
    const JsonLimits &m_limits;
    JsonParse &m_result;
    std::vector<json *> m_stack;
    json *m_slot = nullptr;
    std::size_t m_values = 0;
};

} // namespace

JsonParse parseJson(std::string_view text, const JsonLimits &limits) {
    JsonParse result;
    BoundedBuilder builder(result.value, limits, result);
    bool parsed = false;
    try {
        parsed = json::sax_parse(text, &builder, json::input_format_t::json, true);
    } catch (const std::exception &) {
        // sax_parse itself does not throw for a handler that returns false; belt and braces.
        parsed = false;
    }
    if (!parsed) {
        if (result.error.empty())
            result.error = "invalid JSON";
        result.value = nullptr;
    }
    return result;
}

} // namespace sbx
