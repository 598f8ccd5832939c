#include "server/jupyter/executionrecord.h"

namespace sbx {

using nlohmann::json;

namespace {

json blankOutput(const char *type) {
    return {{"output_type", type}, {"name", nullptr},     {"text", nullptr},
            {"data", nullptr},     {"metadata", nullptr}, {"execution_count", nullptr},
            {"ename", nullptr},    {"evalue", nullptr},   {"traceback", nullptr}};
}

// What a value costs to hold and send, near enough: its strings and a little per node.
std::size_t weight(const json &value) {
    if (value.is_string())
        return value.get_ref<const std::string &>().size() + 2;
    std::size_t total = 8;
    if (value.is_structured()) {
        for (const auto &item : value.items())
            total += item.key().size() + weight(item.value());
    }
    return total;
}

json objectOr(const json &content, const char *name) {
    const auto it = content.find(name);
    return it != content.end() && it->is_object() ? *it : json::object();
}

std::string stringOr(const json &content, const char *name) {
    const auto it = content.find(name);
    return it != content.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<int> intOr(const json &content, const char *name) {
    const auto it = content.find(name);
    if (it != content.end() && it->is_number_integer())
        return it->get<int>();
    return std::nullopt;
}

std::string displayId(const json &content) {
    return stringOr(objectOr(content, "transient"), "display_id");
}

} // namespace

ExecutionRecord::ExecutionRecord(std::size_t maxBytes)
    : m_maxBytes(maxBytes) {}

void ExecutionRecord::add(const KernelMessage &message) {
    const std::string type = message.type();
    const json &content = message.content;
    if (type == "status") {
        if (stringOr(content, "execution_state") == "idle")
            m_idle = true;
    } else if (type == "execute_input") {
        if (auto count = intOr(content, "execution_count"))
            m_executionCount = count;
    } else if (type == "stream") {
        clearIfPending();
        const std::string name = stringOr(content, "name");
        const std::string text = stringOr(content, "text");
        if (!m_outputs.empty()) {
            json &last = m_outputs.back();
            if (last["output_type"] == "stream" && last["name"] == name &&
                m_bytes + text.size() <= m_maxBytes) {
                last["text"].get_ref<std::string &>() += text;
                m_bytes += text.size();
                return;
            }
        }
        json output = blankOutput("stream");
        output["name"] = name;
        output["text"] = text;
        push(std::move(output), text.size() + 64);
    } else if (type == "execute_result" || type == "display_data") {
        clearIfPending();
        json output = blankOutput(type.c_str());
        output["data"] = objectOr(content, "data");
        output["metadata"] = objectOr(content, "metadata");
        if (type == "execute_result") {
            const auto count = intOr(content, "execution_count");
            output["execution_count"] = count ? json(*count) : json(nullptr);
            if (count)
                m_executionCount = count;
        }
        const std::string id = displayId(content);
        const std::size_t size = weight(output);
        if (!id.empty() && m_bytes + size <= m_maxBytes)
            m_displays[id] = m_outputs.size();
        push(std::move(output), size);
    } else if (type == "update_display_data") {
        const auto it = m_displays.find(displayId(content));
        if (it == m_displays.end() || it->second >= m_outputs.size())
            return; // a display of an earlier execution: not part of this answer
        json &output = m_outputs[it->second];
        output["data"] = objectOr(content, "data");
        output["metadata"] = objectOr(content, "metadata");
    } else if (type == "error") {
        clearIfPending();
        json output = blankOutput("error");
        output["ename"] = stringOr(content, "ename");
        output["evalue"] = stringOr(content, "evalue");
        json traceback = json::array();
        if (const auto it = content.find("traceback"); it != content.end() && it->is_array()) {
            for (const json &line : *it) {
                if (line.is_string())
                    traceback.push_back(line);
            }
        }
        output["traceback"] = std::move(traceback);
        push(std::move(output), 0); // an error always arrives: it says what went wrong
    } else if (type == "clear_output") {
        const auto it = content.find("wait");
        if (it != content.end() && it->is_boolean() && it->get<bool>()) {
            m_clearPending = true;
        } else {
            m_outputs = json::array();
            m_displays.clear();
            m_bytes = 0;
        }
    }
}

void ExecutionRecord::push(json output, std::size_t size) {
    if (size > 0 && m_bytes + size > m_maxBytes) {
        m_dropped += size;
        return;
    }
    m_bytes += size;
    m_outputs.push_back(std::move(output));
}

void ExecutionRecord::clearIfPending() {
    if (!m_clearPending)
        return;
    m_clearPending = false;
    m_outputs = json::array();
    m_displays.clear();
    m_bytes = 0;
}

void ExecutionRecord::addError(const std::string &ename, const std::string &evalue) {
    json output = blankOutput("error");
    output["ename"] = ename;
    output["evalue"] = evalue;
    output["traceback"] = json::array({ename + ": " + evalue});
    m_outputs.push_back(std::move(output));
}

json ExecutionRecord::takeOutputs() {
    if (m_dropped > 0) {
        json note = blankOutput("stream");
        note["name"] = "stderr";
        note["text"] = "[sandbox-server: about " + std::to_string(m_dropped) +
                       " bytes of output were dropped past the limit of " +
                       std::to_string(m_maxBytes) + " bytes per execution]\n";
        m_outputs.push_back(std::move(note));
        m_dropped = 0;
    }
    return std::move(m_outputs);
}

std::string streamText(const json &outputs, const std::string &name) {
    std::string text;
    for (const json &output : outputs) {
        if (output["output_type"] == "stream" && output["name"] == name)
            text += output["text"].get<std::string>();
    }
    return text;
}

json firstTraceback(const json &outputs) {
    for (const json &output : outputs) {
        if (output["output_type"] == "error")
            return output["traceback"];
    }
    return nullptr;
}

} // namespace sbx
