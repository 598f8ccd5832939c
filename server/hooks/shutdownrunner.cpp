#include "server/hooks/shutdownrunner.h"

#include "server/core/log.h"
#include "server/core/process.h"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>

namespace sbx {

namespace {

using Clock = std::chrono::steady_clock;

// The end of a hook's output, bounded: a chatty hook must not fill the server's memory.
class OutputTail final {
public:
    explicit OutputTail(std::size_t limit)
        : m_limit(limit) {}

    void add(std::string_view line) {
        m_lines.emplace_back(line);
        m_bytes += line.size() + 1;
        while (m_bytes > m_limit && !m_lines.empty()) {
            m_bytes -= m_lines.front().size() + 1;
            m_dropped += m_lines.front().size() + 1;
            m_lines.pop_front();
        }
    }
    const std::deque<std::string> &lines() const { return m_lines; }
    std::size_t dropped() const { return m_dropped; }

private:
    const std::size_t m_limit;
    std::deque<std::string> m_lines;
    std::size_t m_bytes = 0;
    std::size_t m_dropped = 0;
};

struct HookRun {
    ProcessResult result;
    long long milliseconds = 0;
};

std::string seconds(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return std::string(text) + "s";
}

std::string outcome(const ShutdownHook &hook, const ProcessResult &result) {
    if (!result.started)
        return "could not start: " + result.error;
    if (result.timedOut)
        return "killed after timeout " + seconds(hook.timeout);
    if (result.exitCode)
        return "exit code " + std::to_string(*result.exitCode);
    return "killed by signal " + std::to_string(result.signal);
}

// Keeps the block of one hook together when hooks of a lane finish at the same moment.
std::mutex g_logMutex;

void logRun(const ShutdownHook &hook, const HookRun &run, const OutputTail &output) {
    const ProcessResult &result = run.result;
    const std::string summary = "shutdown hook " + hook.name + " (priority " +
                                std::to_string(hook.priority) + "): " + outcome(hook, result) +
                                ", " + std::to_string(run.milliseconds) + " ms";
    const std::string prefix = "[hook " + hook.name + "] ";
    std::lock_guard lock(g_logMutex);
    if (result.started && result.exitCode == 0)
        log::info(summary);
    else
        log::error(summary);
    if (output.dropped() > 0)
        log::info(prefix + "(" + std::to_string(output.dropped()) +
                  " earlier bytes of output not kept)");
    for (const std::string &line : output.lines())
        log::info(prefix + line);
}

HookRun runOne(const ShutdownHook &hook, const ShutdownRunOptions &options) {
    ProcessSpec spec;
    spec.argv = {"/bin/sh", "-c", hook.command};
    spec.workingDirectory = options.workspace;
    spec.extraEnvironment = {"SANDBOX_HOOK_NAME=" + hook.name, "SANDBOX_HOOK_EVENT=" + hook.event};
    spec.timeout = std::max(std::chrono::milliseconds(1),
                            std::chrono::milliseconds(static_cast<long long>(hook.timeout * 1000)));
    spec.timeoutGrace = options.killGrace;
    OutputTail output(options.outputLimit);
    const auto started = Clock::now();
    HookRun run;
    run.result = runProcess(spec, [&output](std::string_view line) { output.add(line); });
    run.milliseconds =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    logRun(hook, run, output);
    return run;
}

} // namespace

void runShutdownHooks(std::vector<ShutdownHook> hooks, const ShutdownRunOptions &options) {
    if (hooks.empty())
        return;
    std::stable_sort(hooks.begin(), hooks.end(), [](const ShutdownHook &a, const ShutdownHook &b) {
        return a.priority < b.priority;
    });
    const auto started = Clock::now();
    std::size_t lanes = 0;
    std::size_t failed = 0;
    std::size_t timedOut = 0;
    std::mutex countMutex;
    auto work = [&options, &countMutex, &failed, &timedOut](const ShutdownHook &hook) {
        try {
            const HookRun run = runOne(hook, options);
            std::lock_guard lock(countMutex);
            failed += run.result.exitCode == 0 ? 0 : 1;
            timedOut += run.result.timedOut ? 1 : 0;
        } catch (const std::exception &e) {
            log::error("shutdown hook " + hook.name + " could not run: " + e.what());
            std::lock_guard lock(countMutex);
            ++failed;
        }
    };
    // Each lane is a run of equal priorities.
    for (auto first = hooks.begin(); first != hooks.end();) {
        auto last = first;
        std::string names;
        while (last != hooks.end() && last->priority == first->priority) {
            names += (names.empty() ? "" : ", ") + last->name;
            ++last;
        }
        ++lanes;
        log::info("shutdown hooks: priority " + std::to_string(first->priority) + ": " + names);
        std::vector<std::thread> threads;
        for (auto it = first; it != last; ++it) {
            // Without a thread to spare the hook still runs, only not in parallel.
            try {
                threads.emplace_back(work, std::cref(*it));
            } catch (const std::system_error &) {
                work(*it);
            }
        }
        for (std::thread &thread : threads)
            thread.join();
        first = last;
    }
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
    log::info("shutdown hooks: " + std::to_string(hooks.size()) + " run in " +
              std::to_string(lanes) + " lanes, " + std::to_string(failed) + " failed (" +
              std::to_string(timedOut) + " timed out), " + std::to_string(ms) + " ms");
}

} // namespace sbx
