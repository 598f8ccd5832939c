#pragma once

#include <boost/asio/io_context.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sbx {

struct CodeRunSpec {
    // The runtime reading its program from stdin: {"python3", "-"}, {"node", "-"}.
    std::vector<std::string> argv;
    // Written to stdin, which is closed after it: the program text, of any size.
    std::string input;
    std::string workingDirectory;
    std::chrono::milliseconds timeout{30'000};
    // Bytes kept per stream; the rest is counted and dropped.
    std::size_t maxOutput = 4 * 1024 * 1024;
};

struct CodeRunResult {
    bool started = false;
    std::string error;
    std::string out;
    std::string err;
    std::size_t droppedOut = 0;
    std::size_t droppedErr = 0;
    // The exit code, or 128 + N for a process ended by signal N (as a shell reports it).
    std::optional<int> exitCode;
    bool timedOut = false;
};

// One stateless /v1/code/execute: a fresh process in a group of its own, its stdout and stderr
// captured apart in memory (bounded), the whole group killed at the timeout. Runs on the I/O
// thread without blocking it (pipes and a pidfd on the io_context); `done` is called there
// once, when the process has ended.
void runCode(boost::asio::io_context &io, CodeRunSpec spec,
             std::function<void(CodeRunResult)> done);

} // namespace sbx
