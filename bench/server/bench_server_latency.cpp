// bench-server-latency: GET /v1/sandbox against GET /llms.txt (the static baseline) on a
// sandbox-server it starts itself on a free loopback port. Prints latency percentiles over one
// keep-alive connection and requests per second over several, then wrk's figures on the same
// URLs when wrk is installed (the peer client).
//
//   bench-server-latency [--server PATH] [--requests N] [--seconds S] [--connections C]

// Asio 1.74 uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Settings {
    std::string server = SBX_SERVER_BINARY;
    int requests = 5000;
    double seconds = 3.0;
    int connections = 4;
};

// The server under test, on a free port in a throw-away workspace.
class ServerProcess final {
public:
    explicit ServerProcess(const std::string &binary) {
        char pattern[] = "/tmp/bench-server-XXXXXX";
        if (!mkdtemp(pattern))
            throw std::runtime_error("mkdtemp failed");
        m_workspace = pattern;
        int out[2];
        if (pipe(out) != 0)
            throw std::runtime_error("pipe failed");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
        posix_spawn_file_actions_addclose(&actions, out[0]);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
        std::vector<std::string> args = {binary, "--host",      "127.0.0.1", "--port",
                                         "0",    "--workspace", m_workspace};
        std::vector<char *> argv;
        for (std::string &arg : args)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        const int rc = posix_spawn(&m_pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        close(out[1]);
        if (rc != 0)
            throw std::runtime_error("cannot start " + binary + ": " + std::strerror(rc));
        std::string line;
        char c;
        while (read(out[0], &c, 1) == 1 && c != '\n')
            line.push_back(c);
        close(out[0]);
        const std::string prefix = "sandbox-server listening on http://";
        if (line.rfind(prefix, 0) != 0)
            throw std::runtime_error("unexpected first line from the server: " + line);
        const std::string hostPort = line.substr(prefix.size());
        m_host = hostPort.substr(0, hostPort.rfind(':'));
        m_port = static_cast<unsigned short>(std::stoi(hostPort.substr(hostPort.rfind(':') + 1)));
    }
    ~ServerProcess() {
        kill(m_pid, SIGTERM);
        int status = 0;
        waitpid(m_pid, &status, 0);
        std::error_code ec;
        std::filesystem::remove_all(m_workspace, ec);
    }
    ServerProcess(const ServerProcess &) = delete;
    ServerProcess &operator=(const ServerProcess &) = delete;

    const std::string &host() const { return m_host; }
    unsigned short port() const { return m_port; }

private:
    pid_t m_pid = -1;
    std::string m_workspace;
    std::string m_host;
    unsigned short m_port = 0;
};

// One keep-alive connection doing blocking GETs.
class Client final {
public:
    Client(const std::string &host, unsigned short port)
        : m_stream(m_io) {
        m_stream.connect(tcp::endpoint(asio::ip::make_address(host), port));
        m_stream.socket().set_option(tcp::no_delay(true));
        m_host = host + ":" + std::to_string(port);
    }

    // The body size, so the caller can check that something real came back.
    std::size_t get(const std::string &target) {
        http::request<http::empty_body> request{http::verb::get, target, 11};
        request.set(http::field::host, m_host);
        http::write(m_stream, request);
        http::response<http::string_body> response;
        http::read(m_stream, m_buffer, response);
        if (response.result() != http::status::ok)
            throw std::runtime_error("GET " + target + " answered " +
                                     std::to_string(response.result_int()));
        return response.body().size();
    }

private:
    asio::io_context m_io;
    beast::tcp_stream m_stream;
    beast::flat_buffer m_buffer;
    std::string m_host;
};

double percentile(std::vector<double> sorted, double p) {
    const std::size_t index =
        std::min(sorted.size() - 1, static_cast<std::size_t>(p / 100.0 * sorted.size()));
    return sorted[index];
}

void measureLatency(const ServerProcess &server, const std::string &target, int requests) {
    Client client(server.host(), server.port());
    std::size_t bytes = 0;
    for (int i = 0; i < 200; ++i) // warm-up
        bytes = client.get(target);
    std::vector<double> samples;
    samples.reserve(static_cast<std::size_t>(requests));
    for (int i = 0; i < requests; ++i) {
        const auto start = Clock::now();
        client.get(target);
        samples.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    std::printf("  %-12s latency, 1 connection, %d requests, %zu-byte body: p50 %.3f ms, "
                "p90 %.3f ms, p99 %.3f ms\n",
                target.c_str(), requests, bytes, percentile(samples, 50), percentile(samples, 90),
                percentile(samples, 99));
}

double measureThroughput(const ServerProcess &server, const std::string &target, int connections,
                         double seconds) {
    std::atomic<long> total{0};
    std::atomic<bool> failed{false};
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                             std::chrono::duration<double>(seconds));
    const auto start = Clock::now();
    std::vector<std::thread> threads;
    for (int i = 0; i < connections; ++i) {
        threads.emplace_back([&] {
            try {
                Client client(server.host(), server.port());
                long done = 0;
                while (Clock::now() < deadline) {
                    client.get(target);
                    ++done;
                }
                total += done;
            } catch (const std::exception &e) {
                std::fprintf(stderr, "client failed: %s\n", e.what());
                failed = true;
            }
        });
    }
    for (std::thread &thread : threads)
        thread.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("  %-12s throughput, %d keep-alive connections, %.1f s: %.0f requests/s%s\n",
                target.c_str(), connections, elapsed, static_cast<double>(total) / elapsed,
                failed ? " (a client failed)" : "");
    return static_cast<double>(total) / elapsed;
}

bool haveWrk() {
    return std::system("command -v wrk >/dev/null 2>&1") == 0;
}

// Prints wrk's figures and returns its requests/s (0 when it did not run).
double runWrk(const ServerProcess &server, const std::string &target) {
    const std::string url =
        "http://" + server.host() + ":" + std::to_string(server.port()) + target;
    const std::string command = "wrk -c4 -t2 -d3s --latency " + url + " 2>&1";
    FILE *pipe = popen(command.c_str(), "r");
    if (!pipe)
        return 0;
    double rate = 0;
    char line[512];
    std::printf("  wrk -c4 -t2 -d3s %s\n", target.c_str());
    while (std::fgets(line, sizeof line, pipe)) {
        const std::string text(line);
        // The lines that carry the figures: latency summary, percentiles, rate, errors.
        if (text.find("Latency") != std::string::npos ||
            text.find("Req/Sec") != std::string::npos ||
            text.find("Requests/sec") != std::string::npos ||
            text.find("50%") != std::string::npos || text.find("90%") != std::string::npos ||
            text.find("99%") != std::string::npos || text.find("Non-2xx") != std::string::npos ||
            text.find("errors") != std::string::npos)
            std::printf("    %s", line);
        if (text.rfind("Requests/sec:", 0) == 0)
            rate = std::atof(text.c_str() + 13);
    }
    pclose(pipe);
    return rate;
}

Settings parseArgs(int argc, char **argv) {
    Settings settings;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                throw std::runtime_error(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--server")
            settings.server = next();
        else if (arg == "--requests")
            settings.requests = std::max(1, std::stoi(next()));
        else if (arg == "--seconds")
            settings.seconds = std::max(0.1, std::stod(next()));
        else if (arg == "--connections")
            settings.connections = std::max(1, std::stoi(next()));
        else
            throw std::runtime_error("unknown argument " + arg);
    }
    return settings;
}

} // namespace

int main(int argc, char **argv) {
    try {
        const Settings settings = parseArgs(argc, argv);
        // Measure the open server: credentials in our environment would only get 401s.
        unsetenv("SANDBOX_API_KEY");
        unsetenv("JWT_PUBLIC_KEY");
        ServerProcess server(settings.server);
        std::printf("sandbox-server at http://%s:%u (loopback, keep-alive)\n",
                    server.host().c_str(), server.port());
        for (const std::string target : {"/v1/sandbox", "/llms.txt"})
            measureLatency(server, target, settings.requests);
        std::vector<std::pair<std::string, double>> rates;
        for (const std::string target : {"/v1/sandbox", "/llms.txt"})
            rates.emplace_back(
                target, measureThroughput(server, target, settings.connections, settings.seconds));
        if (haveWrk()) {
            std::printf("peer client: wrk\n");
            for (const auto &[target, rate] : rates) {
                const double wrk = runWrk(server, target);
                // A row of make bench's table (bench/lib/summary.sh): the same server, two clients.
                std::printf(
                    "@summary\tserver GET %s, requests/s\t%.0f\t%.0f (wrk -c4)\t%.2fx\t-\t-\n",
                    target.c_str(), rate, wrk, wrk > 0 ? rate / wrk : 0.0);
            }
        } else {
            std::printf("peer client: wrk not installed (apt-get install wrk), no peer figure\n");
        }
        std::fflush(stdout);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "bench-server-latency: %s\n", e.what());
        return 1;
    }
    return 0;
}
