// The kernel hub's thread and its state machine. Over 600 lines: the sockets, sessions, timers
// and deaths are one thread's state and read best beside each other.
#include "server/jupyter/kernelhub.h"

#include "server/core/activityevents.h"
#include "server/core/log.h"
#include "server/jupyter/executionrecord.h"
#include "server/jupyter/kernelprocess.h"
#include "server/jupyter/kernelwire.h"

#include <zmq.hpp>
#include <zmq_addon.hpp>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <deque>
#include <map>
#include <mutex>
#include <pthread.h>
#include <set>
#include <sys/eventfd.h>
#include <thread>
#include <unistd.h>

namespace sbx {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// A kernel that answered kernel_info before its IOPub showed a message is asked again after
// this: IOPub is a subscription, and a fresh subscriber misses the first messages.
constexpr milliseconds kInfoRetry{100};
// After an interrupt the next execution waits this long at most for the interrupted one's
// reply, so that the SIGINT cannot land in it.
constexpr milliseconds kInterruptHold{2000};
// An execute_reply whose IOPub idle never comes (a lost message) ends the execution anyway.
constexpr milliseconds kIdleGrace{5000};
// A kernel asked to shut down is killed after this.
constexpr milliseconds kShutdownGrace{2000};
// Kernels without a pidfd (Linux before 5.3) are checked this often.
constexpr milliseconds kReapPoll{100};
// Messages read from one socket per wake-up, so that a chatty kernel cannot starve the others.
constexpr int kReadsPerWake = 64;

std::string lastLines(const std::string &text) {
    return text.empty() ? std::string() : "; its last output:\n" + text;
}

std::string secondsText(milliseconds value) {
    const auto count = value.count();
    return count % 1000 == 0 ? std::to_string(count / 1000) + " s" : std::to_string(count) + " ms";
}

// A Python string literal: JSON's escapes are Python's too.
std::string pythonString(const std::string &text) {
    return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

json executeContent(std::string code, bool silent) {
    // stop_on_error false: executions go one at a time anyway, and ipykernel would otherwise
    // abort whatever arrives just after an interrupted one.
    return {{"code", std::move(code)},  {"silent", silent},
            {"store_history", !silent}, {"user_expressions", json::object()},
            {"allow_stdin", false},     {"stop_on_error", false}};
}

struct Kernel {
    Kernel(zmq::context_t &context, std::unique_ptr<KernelProcess> kernelProcess)
        : process(std::move(kernelProcess))
        , wire(process->key())
        , shell(context, zmq::socket_type::dealer)
        , iopub(context, zmq::socket_type::sub)
        , control(context, zmq::socket_type::dealer) {
        for (zmq::socket_t *socket : {&shell, &iopub, &control})
            socket->set(zmq::sockopt::linger, 0);
        // Never drop an IOPub message: a lost idle status would hold an execution.
        iopub.set(zmq::sockopt::rcvhwm, 0);
        iopub.set(zmq::sockopt::subscribe, "");
        shell.connect(process->endpoint(KernelChannel::Shell));
        iopub.connect(process->endpoint(KernelChannel::IoPub));
        control.connect(process->endpoint(KernelChannel::Control));
    }

    // The new message's msg_id; empty when it could not be sent.
    std::string send(zmq::socket_t &socket, std::string type, json content) {
        const KernelMessage message = wire.request(std::move(type), std::move(content));
        const std::vector<std::string> frames = wire.encode(message);
        std::vector<zmq::const_buffer> parts;
        for (const std::string &frame : frames)
            parts.emplace_back(frame.data(), frame.size());
        try {
            if (zmq::send_multipart(socket, parts, zmq::send_flags::dontwait))
                return message.id();
        } catch (const zmq::error_t &e) {
            log::warning(std::string("jupyter: cannot send to a kernel: ") + e.what());
        }
        return {};
    }

    // Declared first, destroyed last: the sockets close before the kernel's folder goes.
    std::unique_ptr<KernelProcess> process;
    KernelWire wire;
    zmq::socket_t shell;
    zmq::socket_t iopub;
    zmq::socket_t control;
    bool ready = false;
    std::set<std::string> infoIds;
    bool infoReplied = false;
    Clock::time_point startDeadline;
    std::optional<Clock::time_point> retryInfoAt;
    // For a kernel shutting down.
    Clock::time_point killAt;
};

struct Execution {
    Execution(JupyterExecuteCall executeCall, std::function<void(JupyterExecuteResult)> callback,
              std::size_t maxBytes)
        : call(std::move(executeCall))
        , done(std::move(callback))
        , record(maxBytes) {}

    JupyterExecuteCall call;
    std::function<void(JupyterExecuteResult)> done;
    ExecutionRecord record;
    bool created = false;
    bool restarted = false;
    std::string restartReason;
    std::string msgId;
    bool replied = false;
    std::string replyStatus;
    std::optional<int> replyCount;
    Clock::time_point deadline;
    std::optional<Clock::time_point> idleGraceEnd;
};

struct Session {
    std::string id;
    KernelSpec spec;
    // Where a kernel starts; kernelCwd is where the running one is now.
    std::string cwd;
    std::string kernelCwd;
    std::unique_ptr<Kernel> kernel;
    std::chrono::system_clock::time_point createdAt;
    std::chrono::system_clock::time_point lastUsed;
    Clock::time_point lastUsedSteady;
    std::deque<std::unique_ptr<Execution>> queue;
    std::unique_ptr<Execution> running;
    std::vector<std::function<void(JupyterSessionResult)>> createWaiters;
    bool everReady = false;
    // Why the last kernel died; the session is dead while kernel is null.
    std::string died;
    int executions = 0;
    std::string interruptedId;
    Clock::time_point interruptHoldEnd;

    void touch() {
        lastUsed = std::chrono::system_clock::now();
        lastUsedSteady = Clock::now();
    }
    bool idle() const { return !running && queue.empty() && createWaiters.empty(); }
};

JupyterExecuteResult resultOf(const Session &session, Execution &execution, std::string status) {
    JupyterExecuteResult result;
    result.sessionId = session.id;
    result.kernelName = session.spec.name;
    result.msgId = execution.msgId;
    result.status = std::move(status);
    result.executionCount =
        execution.replyCount ? execution.replyCount : execution.record.executionCount();
    result.outputs = execution.record.takeOutputs();
    result.kernelRestarted = execution.restarted;
    result.sessionCreated = execution.created;
    return result;
}

} // namespace

struct KernelHub::Impl {
    Impl(KernelHubConfig hubConfig, Post poster, ActivityEvents *activity)
        : config(std::move(hubConfig))
        , post(std::move(poster))
        , events(activity)
        , wakeFd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
        if (wakeFd < 0)
            throw std::runtime_error("jupyter: cannot create an eventfd");
        thread = std::thread([this] { run(); });
    }
    ~Impl() { ::close(wakeFd); }

    // Any thread.
    void enqueue(std::function<void()> command) {
        {
            std::lock_guard lock(mutex);
            if (stopRequested)
                return;
            commands.push_back(std::move(command));
        }
        wake();
    }
    void wake() {
        const std::uint64_t one = 1;
        [[maybe_unused]] const auto written = ::write(wakeFd, &one, sizeof one);
    }
    void requestStop() {
        {
            std::lock_guard lock(mutex);
            stopRequested = true;
        }
        wake();
        if (thread.joinable())
            thread.join();
    }

    // Hands a completion to the caller's executor, once.
    template <typename Done, typename Result> void answer(Done &done, Result result) {
        if (!done)
            return;
        post([callback = std::move(done), result = std::move(result)]() mutable {
            callback(std::move(result));
        });
        done = nullptr;
    }

    void run();
    void runCommands();
    void pollOnce();
    void drain(zmq::socket_t &socket, const std::string &sessionId, const Kernel *kernel,
               bool shell);
    void runTimers();
    Clock::time_point nextDeadline() const;
    const KernelCatalog &catalog();

    void execute(JupyterExecuteCall call, std::function<void(JupyterExecuteResult)> done);
    void create(std::string id, std::string kernelName, std::string cwd,
                std::function<void(JupyterSessionResult)> done);
    Session *addSession(const std::string &id, const KernelSpec &spec, const std::string &cwd,
                        int &status, std::string &error);
    std::string unknownKernel(const std::string &name);
    std::vector<JupyterSessionRow> rows() const;
    bool remove(const std::string &id, const std::string &why);
    void startKernel(Session &session);
    void markReady(Session &session);
    void pump(Session &session);
    void onShell(Session &session, const KernelMessage &message);
    void onIoPub(Session &session, const KernelMessage &message);
    void finish(Session &session);
    void timeOut(Session &session);
    void interruptKernel(Session &session);
    void kernelDied(Session &session, std::string cause = {});
    void failWaiting(Session &session, int status, const std::string &message);
    void retire(std::unique_ptr<Kernel> kernel);

    KernelHubConfig config;
    Post post;
    ActivityEvents *events;
    int wakeFd;
    std::mutex mutex;
    std::deque<std::function<void()>> commands;
    bool stopRequested = false;
    std::thread thread;

    // The hub thread's own.
    bool stopping = false;
    zmq::context_t context{1};
    std::optional<KernelCatalog> kernels;
    std::map<std::string, std::unique_ptr<Session>> sessions;
    // Kernels shutting down, polled until they have exited.
    std::vector<std::unique_ptr<Kernel>> dying;
};

const KernelCatalog &KernelHub::Impl::catalog() {
    if (!kernels) {
        kernels = detectKernels(config.search);
        if (kernels->kernels.empty()) {
            log::warning("jupyter: " + kernels->problem);
        } else {
            std::string list;
            for (const std::string &name : kernels->names())
                list += (list.empty() ? "" : ", ") + name;
            log::info("jupyter: kernels " + list + " (" + kernels->detection + ")");
        }
    }
    return *kernels;
}

void KernelHub::Impl::run() {
    // Signals are the I/O thread's (asio's signal_set); here they would only cut polls short.
    // Children get an empty mask of their own (initChildAttributes).
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    KernelProcess::removeStaleFolders();
    while (true) {
        runCommands();
        if (stopping && dying.empty())
            break;
        try {
            pollOnce();
            runTimers();
        } catch (const zmq::error_t &e) {
            if (e.num() != EINTR)
                log::error(std::string("jupyter: kernel hub: ") + e.what());
        } catch (const std::exception &e) {
            // An error (a kernel's odd message) must not end the thread every session needs.
            log::error(std::string("jupyter: kernel hub: ") + e.what());
        }
    }
    sessions.clear();
    dying.clear();
    context.close();
}

void KernelHub::Impl::runCommands() {
    std::deque<std::function<void()>> batch;
    bool stop = false;
    {
        std::lock_guard lock(mutex);
        batch.swap(commands);
        stop = stopRequested;
    }
    for (auto &command : batch) {
        try {
            command();
        } catch (const std::exception &e) {
            // Its caller gets a 500 (its responder is dropped); the hub goes on.
            log::error(std::string("jupyter: a request failed: ") + e.what());
        }
    }
    if (stop && !stopping) {
        stopping = true;
        std::vector<std::string> ids;
        for (const auto &entry : sessions)
            ids.push_back(entry.first);
        for (const std::string &id : ids)
            remove(id, "the server is stopping");
    }
}

Clock::time_point KernelHub::Impl::nextDeadline() const {
    auto next = Clock::time_point::max();
    const auto consider = [&next](Clock::time_point when) {
        next = std::min(next, when);
    };
    for (const auto &[id, session] : sessions) {
        if (const Kernel *kernel = session->kernel.get()) {
            if (!kernel->ready)
                consider(kernel->startDeadline);
            if (kernel->retryInfoAt)
                consider(*kernel->retryInfoAt);
            if (kernel->process->pidfd() < 0)
                consider(Clock::now() + kReapPoll);
        }
        if (const Execution *running = session->running.get()) {
            consider(running->deadline);
            if (running->idleGraceEnd)
                consider(*running->idleGraceEnd);
        }
        if (!session->interruptedId.empty())
            consider(session->interruptHoldEnd);
        if (session->idle())
            consider(session->lastUsedSteady + config.idleTimeout);
    }
    for (const auto &kernel : dying) {
        consider(kernel->killAt);
        if (kernel->process->pidfd() < 0)
            consider(Clock::now() + kReapPoll);
    }
    return next;
}

void KernelHub::Impl::pollOnce() {
    enum class What { Shell, IoPub, Control, Exit, Output };
    struct Target {
        std::string session; // empty for a dying kernel
        Kernel *kernel;
        What what;
    };
    std::vector<zmq::pollitem_t> items;
    std::vector<Target> targets;
    items.push_back({nullptr, wakeFd, ZMQ_POLLIN, 0});
    const auto watch = [&](const std::string &id, Kernel &kernel, bool sockets) {
        if (sockets) {
            for (auto [socket, what] :
                 {std::pair{&kernel.shell, What::Shell}, std::pair{&kernel.iopub, What::IoPub},
                  std::pair{&kernel.control, What::Control}}) {
                items.push_back({socket->handle(), 0, ZMQ_POLLIN, 0});
                targets.push_back({id, &kernel, what});
            }
        }
        if (kernel.process->pidfd() >= 0) {
            items.push_back({nullptr, kernel.process->pidfd(), ZMQ_POLLIN, 0});
            targets.push_back({id, &kernel, What::Exit});
        }
        if (kernel.process->outputFd() >= 0) {
            items.push_back({nullptr, kernel.process->outputFd(), ZMQ_POLLIN, 0});
            targets.push_back({id, &kernel, What::Output});
        }
    };
    for (auto &[id, session] : sessions) {
        if (session->kernel)
            watch(id, *session->kernel, true);
    }
    for (auto &kernel : dying)
        watch({}, *kernel, false);

    milliseconds timeout{-1};
    if (const auto next = nextDeadline(); next != Clock::time_point::max())
        timeout = std::max(std::chrono::ceil<milliseconds>(next - Clock::now()), milliseconds(0));
    zmq::poll(items, timeout);

    if (items[0].revents & ZMQ_POLLIN) {
        std::uint64_t count = 0;
        [[maybe_unused]] const auto got = ::read(wakeFd, &count, sizeof count);
    }
    for (std::size_t i = 1; i < items.size(); ++i) {
        if (!(items[i].revents & (ZMQ_POLLIN | ZMQ_POLLERR)))
            continue;
        const Target &target = targets[i - 1];
        // Skip a kernel that an earlier event of this round ended or replaced.
        if (!target.session.empty()) {
            const auto it = sessions.find(target.session);
            if (it == sessions.end() || it->second->kernel.get() != target.kernel)
                continue;
        } else if (std::none_of(dying.begin(), dying.end(),
                                [&](const auto &k) { return k.get() == target.kernel; })) {
            continue;
        }
        Kernel &kernel = *target.kernel;
        switch (target.what) {
        case What::Shell:
            drain(kernel.shell, target.session, &kernel, true);
            break;
        case What::IoPub:
            drain(kernel.iopub, target.session, &kernel, false);
            break;
        case What::Control:
            drain(kernel.control, {}, nullptr, false);
            break;
        case What::Output:
            kernel.process->readOutput();
            break;
        case What::Exit:
            if (kernel.process->reap() && !target.session.empty())
                kernelDied(*sessions.at(target.session));
            break;
        }
    }
    std::erase_if(dying, [](const auto &kernel) {
        if (kernel->process->pidfd() < 0)
            kernel->process->reap();
        return kernel->process->exited();
    });
}

void KernelHub::Impl::drain(zmq::socket_t &socket, const std::string &sessionId,
                            const Kernel *kernel, bool shell) {
    for (int i = 0; i < kReadsPerWake; ++i) {
        std::vector<zmq::message_t> parts;
        if (!zmq::recv_multipart(socket, std::back_inserter(parts), zmq::recv_flags::dontwait))
            return;
        const auto it = sessions.find(sessionId);
        // Control replies, or a kernel that went away while its messages were read.
        if (!kernel || it == sessions.end() || it->second->kernel.get() != kernel)
            continue;
        Session &session = *it->second;
        std::vector<std::string> frames;
        frames.reserve(parts.size());
        for (const zmq::message_t &part : parts)
            frames.push_back(part.to_string());
        std::string error;
        const auto message = session.kernel->wire.decode(frames, error);
        if (!message) {
            log::warning("jupyter: session " + session.id + ": dropped " + error);
            continue;
        }
        if (shell)
            onShell(session, *message);
        else
            onIoPub(session, *message);
    }
}

void KernelHub::Impl::runTimers() {
    const auto now = Clock::now();
    std::vector<std::string> ids;
    for (const auto &entry : sessions)
        ids.push_back(entry.first);
    for (const std::string &id : ids) {
        const auto it = sessions.find(id);
        if (it == sessions.end())
            continue;
        Session &session = *it->second;
        if (Kernel *kernel = session.kernel.get()) {
            if (kernel->process->pidfd() < 0 && kernel->process->reap()) {
                kernelDied(session);
                continue;
            }
            if (!kernel->ready && now >= kernel->startDeadline) {
                kernel->process->kill();
                kernelDied(session, "it did not answer within " +
                                        std::to_string(config.startTimeout.count()) +
                                        " s and was killed");
                continue;
            }
            if (kernel->retryInfoAt && now >= *kernel->retryInfoAt) {
                kernel->retryInfoAt.reset();
                kernel->infoIds.insert(
                    kernel->send(kernel->shell, "kernel_info_request", json::object()));
            }
        }
        if (Execution *running = session.running.get()) {
            // An execution that has its reply is over: the interrupt would land elsewhere.
            if (running->replied &&
                (now >= running->deadline || now >= running->idleGraceEnd.value_or(now)))
                finish(session);
            else if (now >= running->deadline)
                timeOut(session);
        }
        if (!session.interruptedId.empty() && now >= session.interruptHoldEnd) {
            session.interruptedId.clear();
            pump(session);
        }
        if (session.idle() && now >= session.lastUsedSteady + config.idleTimeout) {
            log::info("jupyter: session " + id + " expired after " +
                      std::to_string(config.idleTimeout.count()) + " s unused");
            remove(id, "it expired");
        }
    }
    for (auto &kernel : dying) {
        if (now >= kernel->killAt) {
            kernel->process->kill();
            kernel->killAt = Clock::time_point::max(); // its pidfd says when it is gone
        }
    }
}

std::string KernelHub::Impl::unknownKernel(const std::string &name) {
    std::string message = "Unknown kernel_name " + name + "; available here:";
    for (const std::string &known : catalog().names())
        message += " " + known;
    return message;
}

void KernelHub::Impl::execute(JupyterExecuteCall call,
                              std::function<void(JupyterExecuteResult)> done) {
    const KernelCatalog &known = catalog();
    JupyterExecuteResult refusal;
    if (known.kernels.empty()) {
        refusal.refusal = 503;
        refusal.message = "No Jupyter kernel is available: " + known.problem;
        return answer(done, std::move(refusal));
    }
    const KernelSpec *wanted = call.kernelName.empty() ? nullptr : known.find(call.kernelName);
    if (!call.kernelName.empty() && !wanted) {
        refusal.refusal = 400;
        refusal.message = unknownKernel(call.kernelName);
        return answer(done, std::move(refusal));
    }
    auto execution =
        std::make_unique<Execution>(std::move(call), std::move(done), config.maxOutputBytes);
    JupyterExecuteCall &request = execution->call;
    if (request.sessionId.empty())
        request.sessionId = randomUuid();
    Session *session = nullptr;
    if (const auto it = sessions.find(request.sessionId); it != sessions.end()) {
        session = it->second.get();
        if (wanted && wanted->argv != session->spec.argv) {
            refusal.refusal = 409;
            refusal.message = "Session " + session->id + " runs kernel " + session->spec.name +
                              ", not " + wanted->name;
            return answer(execution->done, std::move(refusal));
        }
    } else {
        session = addSession(request.sessionId, wanted ? *wanted : *known.find(known.defaultKernel),
                             request.cwd, refusal.refusal, refusal.message);
        if (!session)
            return answer(execution->done, std::move(refusal));
        execution->created = true;
    }
    session->touch();
    const bool start = !session->kernel;
    if (start && !execution->created) {
        // Dead: a fresh kernel, where the request says or where the last one started.
        execution->restarted = true;
        execution->restartReason = session->died;
        if (!request.cwd.empty())
            session->cwd = request.cwd;
    }
    session->queue.push_back(std::move(execution));
    if (start)
        startKernel(*session); // may end the session, answering what waits in it
    else
        pump(*session);
}

void KernelHub::Impl::create(std::string id, std::string kernelName, std::string cwd,
                             std::function<void(JupyterSessionResult)> done) {
    const KernelCatalog &known = catalog();
    JupyterSessionResult result;
    if (known.kernels.empty()) {
        result.refusal = 503;
        result.message = "No Jupyter kernel is available: " + known.problem;
        return answer(done, std::move(result));
    }
    const KernelSpec *spec = known.find(kernelName.empty() ? known.defaultKernel : kernelName);
    if (!spec) {
        result.refusal = 400;
        result.message = unknownKernel(kernelName);
        return answer(done, std::move(result));
    }
    if (id.empty())
        id = randomUuid();
    if (const auto it = sessions.find(id); it != sessions.end()) {
        result.sessionId = id;
        result.kernelName = it->second->spec.name;
        result.message = "Session " + id + " already exists";
        return answer(done, std::move(result));
    }
    Session *session = addSession(id, *spec, cwd, result.refusal, result.message);
    if (!session)
        return answer(done, std::move(result));
    session->createWaiters.push_back(std::move(done));
    startKernel(*session);
}

Session *KernelHub::Impl::addSession(const std::string &id, const KernelSpec &spec,
                                     const std::string &cwd, int &status, std::string &error) {
    if (sessions.size() >= config.maxSessions) {
        status = 429;
        error = "Too many Jupyter sessions (at most " + std::to_string(config.maxSessions) +
                "): delete one (DELETE /v1/jupyter/sessions/{session_id}) or reuse one through "
                "session_id";
        return nullptr;
    }
    auto session = std::make_unique<Session>();
    session->id = id;
    session->spec = spec;
    session->cwd = cwd.empty() ? config.workspace : cwd;
    session->createdAt = std::chrono::system_clock::now();
    session->touch();
    return sessions.emplace(id, std::move(session)).first->second.get();
}

void KernelHub::Impl::startKernel(Session &session) {
    std::string error;
    auto process = KernelProcess::launch(session.spec, session.cwd, error);
    if (!process) {
        session.died = "The kernel could not start: " + error;
        log::warning("jupyter: session " + session.id + ": " + session.died);
        failWaiting(session, 500, session.died);
        if (!session.everReady)
            sessions.erase(session.id); // it never ran: nothing worth keeping
        return;
    }
    log::debug("jupyter: session " + session.id + ": kernel " + std::to_string(process->pid()) +
               " starting in " + session.cwd);
    session.kernel = std::make_unique<Kernel>(context, std::move(process));
    session.kernelCwd = session.cwd;
    Kernel &kernel = *session.kernel;
    kernel.startDeadline = Clock::now() + config.startTimeout;
    kernel.infoIds.insert(kernel.send(kernel.shell, "kernel_info_request", json::object()));
}

void KernelHub::Impl::markReady(Session &session) {
    Kernel &kernel = *session.kernel;
    kernel.ready = true;
    kernel.retryInfoAt.reset();
    session.everReady = true;
    session.touch(); // idle from now, not from before a slow start
    session.died.clear();
    log::debug("jupyter: session " + session.id + ": kernel " +
               std::to_string(kernel.process->pid()) + " ready");
    for (auto &waiter : session.createWaiters) {
        JupyterSessionResult result;
        result.sessionId = session.id;
        result.kernelName = session.spec.name;
        result.created = true;
        result.message = "Session created";
        answer(waiter, std::move(result));
    }
    session.createWaiters.clear();
    pump(session);
}

void KernelHub::Impl::pump(Session &session) {
    Kernel *kernel = session.kernel.get();
    if (!kernel || !kernel->ready || session.running || session.queue.empty() ||
        !session.interruptedId.empty())
        return;
    std::unique_ptr<Execution> execution = std::move(session.queue.front());
    session.queue.pop_front();
    const std::string &cwd = execution->call.cwd;
    if (!cwd.empty() && cwd != session.kernelCwd) {
        kernel->send(kernel->shell, "execute_request",
                     executeContent("import os as __sbx_os; __sbx_os.chdir(" + pythonString(cwd) +
                                        "); del __sbx_os",
                                    true));
        session.kernelCwd = cwd;
    }
    execution->msgId =
        kernel->send(kernel->shell, "execute_request", executeContent(execution->call.code, false));
    execution->deadline = Clock::now() + execution->call.timeout;
    session.touch();
    session.running = std::move(execution);
    if (session.running->msgId.empty()) {
        session.running->record.addError("SendError", "the code could not be sent to the kernel");
        finish(session);
    }
}

void KernelHub::Impl::onShell(Session &session, const KernelMessage &message) {
    Kernel &kernel = *session.kernel;
    const std::string type = message.type();
    const std::string parent = message.parentId();
    if (type == "kernel_info_reply") {
        // Each reply before IOPub has delivered asks again, until it has.
        if (!kernel.ready && kernel.infoIds.count(parent)) {
            kernel.infoReplied = true;
            if (!kernel.retryInfoAt)
                kernel.retryInfoAt = Clock::now() + kInfoRetry;
        }
        return;
    }
    if (type != "execute_reply")
        return;
    if (!session.interruptedId.empty() && parent == session.interruptedId) {
        session.interruptedId.clear();
        pump(session);
        return;
    }
    Execution *running = session.running.get();
    if (!running || parent != running->msgId)
        return;
    running->replied = true;
    const auto status = message.content.find("status");
    running->replyStatus =
        status != message.content.end() && status->is_string() ? status->get<std::string>() : "";
    if (const auto count = message.content.find("execution_count");
        count != message.content.end() && count->is_number_integer())
        running->replyCount = count->get<int>();
    if (running->record.idle())
        finish(session);
    else
        running->idleGraceEnd = Clock::now() + kIdleGrace;
}

void KernelHub::Impl::onIoPub(Session &session, const KernelMessage &message) {
    Kernel &kernel = *session.kernel;
    const std::string parent = message.parentId();
    if (!kernel.ready) {
        // IOPub delivers now: the kernel is ready once its shell has answered too.
        if (kernel.infoIds.count(parent) && kernel.infoReplied)
            markReady(session);
        return;
    }
    Execution *running = session.running.get();
    if (!running || parent != running->msgId)
        return;
    running->record.add(message);
    if (running->record.idle() && running->replied)
        finish(session);
}

void KernelHub::Impl::finish(Session &session) {
    std::unique_ptr<Execution> execution = std::move(session.running);
    JupyterExecuteResult result =
        resultOf(session, *execution, execution->replyStatus == "ok" ? "ok" : "error");
    result.message = execution->restarted
                         ? "The session's kernel had died (" + execution->restartReason +
                               ") and was restarted: variables and imports from before are "
                               "lost. Code executed"
                         : "Code executed";
    ++session.executions;
    session.touch();
    answer(execution->done, std::move(result));
    pump(session);
}

void KernelHub::Impl::interruptKernel(Session &session) {
    Kernel &kernel = *session.kernel;
    if (session.spec.interruptByMessage)
        kernel.send(kernel.control, "interrupt_request", json::object());
    else
        kernel.process->interrupt();
}

void KernelHub::Impl::timeOut(Session &session) {
    std::unique_ptr<Execution> execution = std::move(session.running);
    interruptKernel(session);
    session.interruptedId = execution->msgId;
    session.interruptHoldEnd = Clock::now() + kInterruptHold;
    JupyterExecuteResult result = resultOf(session, *execution, "timeout");
    result.message = "Execution timed out after " + secondsText(execution->call.timeout) +
                     "; the kernel was interrupted and keeps its state";
    ++session.executions;
    session.touch();
    answer(execution->done, std::move(result));
}

void KernelHub::Impl::kernelDied(Session &session, std::string cause) {
    std::unique_ptr<Kernel> kernel = std::move(session.kernel);
    kernel->process->readOutput();
    const int pid = kernel->process->pid();
    const bool started = kernel->ready;
    if (cause.empty())
        cause = "process " + std::to_string(pid) + " " + kernel->process->exitDescription();
    session.died =
        started ? "kernel " + cause
                : "The kernel could not start: " + cause + lastLines(kernel->process->outputTail());
    log::warning("jupyter: session " + session.id + ": " + session.died);
    if (events && started)
        events->post("kernel_died", "Jupyter session " + session.id + ": " + session.died,
                     {{"session_id", session.id}, {"pid", pid}});
    kernel.reset();
    session.interruptedId.clear();
    if (std::unique_ptr<Execution> execution = std::move(session.running)) {
        const std::string what = "The kernel died while running this code (" + session.died + ")";
        execution->record.addError("KernelDied", what + "; the session's state is lost and the "
                                                        "next request restarts the kernel");
        JupyterExecuteResult result = resultOf(session, *execution, "error");
        result.success = false;
        result.message = what + "; the next request to session " + session.id + " restarts it";
        ++session.executions;
        answer(execution->done, std::move(result));
    }
    if (!started) {
        failWaiting(session, 500, session.died);
        if (!session.everReady)
            sessions.erase(session.id);
        return;
    }
    if (!session.queue.empty()) {
        // Requests already waiting are the next ones: they get a fresh kernel.
        for (auto &waiting : session.queue) {
            waiting->restarted = true;
            waiting->restartReason = session.died;
        }
        startKernel(session);
    }
}

void KernelHub::Impl::failWaiting(Session &session, int status, const std::string &message) {
    for (auto &execution : session.queue) {
        JupyterExecuteResult result;
        result.refusal = status;
        result.message = message;
        answer(execution->done, std::move(result));
    }
    session.queue.clear();
    for (auto &waiter : session.createWaiters) {
        JupyterSessionResult result;
        result.refusal = status;
        result.message = message;
        answer(waiter, std::move(result));
    }
    session.createWaiters.clear();
}

void KernelHub::Impl::retire(std::unique_ptr<Kernel> kernel) {
    if (!kernel)
        return;
    // A kernel that runs asked to stop, so that Python flushes the files it wrote.
    if (kernel->ready && !kernel->process->exited() &&
        !kernel->send(kernel->control, "shutdown_request", {{"restart", false}}).empty()) {
        kernel->killAt = Clock::now() + kShutdownGrace;
    } else {
        kernel->process->kill();
        kernel->killAt = Clock::now();
    }
    dying.push_back(std::move(kernel));
}

bool KernelHub::Impl::remove(const std::string &id, const std::string &why) {
    const auto it = sessions.find(id);
    if (it == sessions.end())
        return false;
    Session &session = *it->second;
    if (std::unique_ptr<Execution> execution = std::move(session.running)) {
        execution->record.addError("SessionDeleted", "the session was shut down because " + why);
        JupyterExecuteResult result = resultOf(session, *execution, "error");
        result.success = false;
        result.message = "The session was shut down while running this code because " + why;
        answer(execution->done, std::move(result));
    }
    failWaiting(session, 409, "Session " + id + " was shut down because " + why);
    retire(std::move(session.kernel));
    sessions.erase(it);
    return true;
}

std::vector<JupyterSessionRow> KernelHub::Impl::rows() const {
    std::vector<JupyterSessionRow> list;
    for (const auto &[id, session] : sessions) {
        JupyterSessionRow row;
        row.id = id;
        row.kernelName = session->spec.name;
        row.createdAt = session->createdAt;
        row.lastUsed = session->lastUsed;
        row.cwd = session->kernel ? session->kernelCwd : session->cwd;
        row.executions = session->executions;
        if (const Kernel *kernel = session->kernel.get()) {
            row.pid = kernel->process->pid();
            row.state = !kernel->ready ? "starting" : session->running ? "busy" : "idle";
        } else {
            row.state = "dead";
            row.died = session->died;
        }
        list.push_back(std::move(row));
    }
    return list;
}

KernelHub::KernelHub(KernelHubConfig config, Post post, ActivityEvents *events)
    : m_impl(std::make_unique<Impl>(std::move(config), std::move(post), events)) {}

KernelHub::~KernelHub() {
    stop();
}

void KernelHub::execute(JupyterExecuteCall call, std::function<void(JupyterExecuteResult)> done) {
    m_impl->enqueue(
        [impl = m_impl.get(), call = std::move(call), done = std::move(done)]() mutable {
            impl->execute(std::move(call), std::move(done));
        });
}

void KernelHub::createSession(std::string id, std::string kernelName, std::string cwd,
                              std::function<void(JupyterSessionResult)> done) {
    m_impl->enqueue([impl = m_impl.get(), id = std::move(id), kernelName = std::move(kernelName),
                     cwd = std::move(cwd), done = std::move(done)]() mutable {
        impl->create(std::move(id), std::move(kernelName), std::move(cwd), std::move(done));
    });
}

void KernelHub::sessions(std::function<void(std::vector<JupyterSessionRow>)> done) {
    m_impl->enqueue([impl = m_impl.get(), done = std::move(done)]() mutable {
        impl->answer(done, impl->rows());
    });
}

void KernelHub::info(std::function<void(JupyterHubInfo)> done) {
    m_impl->enqueue([impl = m_impl.get(), done = std::move(done)]() mutable {
        JupyterHubInfo info;
        info.catalog = impl->catalog();
        info.sessions = impl->sessions.size();
        info.idleTimeout = impl->config.idleTimeout;
        info.maxSessions = impl->config.maxSessions;
        impl->answer(done, std::move(info));
    });
}

void KernelHub::deleteSession(std::string id, std::function<void(bool)> done) {
    m_impl->enqueue([impl = m_impl.get(), id = std::move(id), done = std::move(done)]() mutable {
        impl->answer(done, impl->remove(id, "it was deleted"));
    });
}

void KernelHub::deleteAll(std::function<void(std::size_t)> done) {
    m_impl->enqueue([impl = m_impl.get(), done = std::move(done)]() mutable {
        std::vector<std::string> ids;
        for (const auto &entry : impl->sessions)
            ids.push_back(entry.first);
        for (const std::string &id : ids)
            impl->remove(id, "all sessions were deleted");
        impl->answer(done, ids.size());
    });
}

void KernelHub::interrupt(std::string id, std::function<void(JupyterInterruptResult)> done) {
    m_impl->enqueue([impl = m_impl.get(), id = std::move(id), done = std::move(done)]() mutable {
        JupyterInterruptResult result;
        const auto it = impl->sessions.find(id);
        result.found = it != impl->sessions.end();
        if (result.found) {
            Session &session = *it->second;
            // A kernel still starting runs nothing yet; an execution waiting for its kernel is
            // not running either.
            if (session.kernel && session.kernel->ready && session.running) {
                impl->interruptKernel(session);
                result.interrupted = true;
            }
        }
        impl->answer(done, result);
    });
}

void KernelHub::stop() {
    m_impl->requestStop();
}

} // namespace sbx
