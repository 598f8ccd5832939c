#pragma once

#include "server/jupyter/kernelwire.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace sbx {

// One execute_request's IOPub traffic gathered into AIO's JupyterOutput objects (nbformat's
// output shapes with every field present, null where it does not apply): consecutive stream
// text of one name is merged, clear_output and update_display_data are applied, and past
// maxBytes further output is dropped and counted instead of held.
class ExecutionRecord final {
public:
    explicit ExecutionRecord(std::size_t maxBytes);

    // A message whose parent is this execution.
    void add(const KernelMessage &message);
    // The kernel went idle after this execution: every output has arrived.
    bool idle() const { return m_idle; }
    std::optional<int> executionCount() const { return m_executionCount; }
    // The outputs, with a closing stderr note when some were dropped; the record is spent.
    nlohmann::json takeOutputs();
    // Appends an error output of our own (the kernel died, the session was deleted).
    void addError(const std::string &ename, const std::string &evalue);

private:
    void push(nlohmann::json output, std::size_t size);
    void clearIfPending();

    std::size_t m_maxBytes;
    std::size_t m_bytes = 0;
    std::size_t m_dropped = 0;
    nlohmann::json m_outputs = nlohmann::json::array();
    // display_id -> index in m_outputs, for update_display_data.
    std::map<std::string, std::size_t> m_displays;
    std::optional<int> m_executionCount;
    bool m_clearPending = false;
    bool m_idle = false;
};

// Text of the stream outputs of this name in a list of outputs, joined.
std::string streamText(const nlohmann::json &outputs, const std::string &name);
// The traceback of the first error output, null when there is none.
nlohmann::json firstTraceback(const nlohmann::json &outputs);

} // namespace sbx
