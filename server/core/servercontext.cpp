#include "server/core/servercontext.h"

#include "server/core/log.h"

#include <exception>

namespace sbx {

void ShutdownSteps::add(std::string name, std::function<void()> step) {
    m_steps.emplace_back(std::move(name), std::move(step));
}

void ShutdownSteps::runAll() {
    for (auto &[name, step] : m_steps) {
        try {
            step();
        } catch (const std::exception &e) {
            log::error("shutdown step " + name + " failed: " + e.what());
        } catch (...) {
            log::error("shutdown step " + name + " failed");
        }
    }
}

} // namespace sbx
