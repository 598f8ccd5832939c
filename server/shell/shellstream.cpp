#include "server/shell/shellstream.h"

#include "server/core/bodyfields.h"
#include "server/core/ssewriter.h"
#include "server/core/streamroute.h"
#include "server/shell/execengine.h"
#include "server/shell/sessionregistry.h"
#include "server/shell/sessionwatch.h"
#include "server/shell/textutil.h"

#include <csignal>
#include <nlohmann/json.hpp>

namespace sbx {

namespace {

namespace asio = boost::asio;
using nlohmann::json;

// Under a flood of output, frames go out at most this often, each carrying what came
// meanwhile: a reader gets few large frames rather than one per PTY read.
constexpr auto kFrameInterval = std::chrono::milliseconds(50);
// A plain answer written by a stream handler (a refusal) gets this long to go out.
constexpr auto kPlainWriteTimeout = std::chrono::seconds(60);

std::string frame(const char *key, json value) {
    json object = json::object();
    object[key] = std::move(value);
    // Output is plain text, but its head may have been trimmed mid-character.
    return object.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string endFrame() {
    json object = json::object();
    object["end"] = true;
    object["message"] = "No more output";
    return object.dump();
}

asio::awaitable<StreamOutcome> answerPlain(EventStreamExchange &exchange, HttpResponse response) {
    exchange.stream.expires_after(kPlainWriteTimeout);
    const bool keepAlive =
        co_await writeHttpResponse(exchange.stream, exchange.request, std::move(response));
    co_return keepAlive ? StreamOutcome::KeepAlive : StreamOutcome::Close;
}

// Where a stream is in one command's output (CommandRecord::output from its start marker on;
// the echoed line before it is not output). The record keeps a bounded tail: a reader that
// fell more than that behind skips what was trimmed.
class OutputFollower final {
public:
    explicit OutputFollower(std::uint64_t seq)
        : m_seq(seq) {}

    // Bytes ready to send: whole UTF-8 characters unless the command is over.
    std::size_t ready(const CommandRecord &record, bool over) const {
        const std::string_view fresh = unsent(record);
        return over ? fresh.size() : completeUtf8Prefix(fresh);
    }
    std::string take(const CommandRecord &record, bool over) {
        const std::string_view fresh = unsent(record).substr(0, ready(record, over));
        m_sent = std::max(m_sent, record.outputDropped) + fresh.size();
        return std::string(fresh);
    }

private:
    std::string_view unsent(const CommandRecord &record) const {
        if (record.seq != m_seq || !(record.started || record.finished))
            return {};
        const std::uint64_t from = std::max(m_sent, record.outputDropped) - record.outputDropped;
        const std::string_view output(record.output);
        return from >= output.size() ? std::string_view() : output.substr(from);
    }

    std::uint64_t m_seq;
    std::uint64_t m_sent = 0;
};

struct FollowOptions {
    std::uint64_t seq = 0;
    // exec's hard_timeout: ^C, then SIGKILL kKillGrace later, as the plain exec does.
    TimePoint hardAt = TimePoint::max();
    // 0: no keepalive frames.
    std::chrono::milliseconds keepalive{0};
};

// Streams command seq's output until the command is over, then the end frame. False when the
// stream was cut first (reader gone, server stopping).
asio::awaitable<bool> follow(SseWriter &writer, ShellSession &session, FollowOptions options) {
    Watch watch(session);
    writer.wakeOnClose(&watch.timer());
    asio::steady_timer pace(session.io());
    OutputFollower follower(options.seq);
    TimePoint lastFrame{};
    const auto nextKeepaliveFrom = [&](TimePoint now) {
        return options.keepalive.count() > 0 ? now + options.keepalive : TimePoint::max();
    };
    TimePoint nextKeepalive = nextKeepaliveFrom(SteadyClock::now());
    TimePoint killAt = TimePoint::max();
    bool interrupted = false;
    bool ended = false;
    while (writer.open() && !writer.stopping()) {
        CommandRecord &record = session.command();
        const bool mine = record.seq == options.seq;
        const bool over = !mine || record.finished || session.ended() != SessionEnd::None;
        TimePoint now = SteadyClock::now();
        const std::size_t ready = follower.ready(record, over);
        if (ready > 0 && (over || now >= lastFrame + kFrameInterval)) {
            if (!co_await writer.writeEvent(frame("output", follower.take(record, over))))
                break;
            lastFrame = SteadyClock::now();
            nextKeepalive = nextKeepaliveFrom(lastFrame);
            // The session may have moved on while the frame went out.
            continue;
        }
        if (over) {
            if (session.ended() != SessionEnd::None && !(mine && record.finished)) {
                if (!co_await writer.writeEvent(
                        frame("error", "Session " + session.id() + " ended")))
                    break;
            }
            ended = co_await writer.writeEvent(endFrame());
            break;
        }
        if (!interrupted && now >= options.hardAt) {
            // What a user would press first; SIGKILL follows if it is ignored.
            interrupted = true;
            record.status = "hard_timeout";
            session.write("\x03");
            killAt = now + kKillGrace;
            continue;
        }
        if (now >= killAt) {
            session.signalForeground(SIGKILL);
            killAt = TimePoint::max();
            continue;
        }
        if (now >= nextKeepalive) {
            if (!co_await writer.writeEvent(frame("keepalive", true)))
                break;
            nextKeepalive = nextKeepaliveFrom(SteadyClock::now());
            continue;
        }
        if (ready > 0) {
            // Output waits for the frame interval: a plain timer, so that every PTY read of a
            // flood does not wake the stream.
            pace.expires_at(lastFrame + kFrameInterval);
            boost::system::error_code ec;
            co_await pace.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        // Computed apart from the co_await: GCC 12 cannot keep an initializer_list in one.
        const TimePoint wakeAt =
            std::min({nextKeepalive, killAt, interrupted ? TimePoint::max() : options.hardAt});
        co_await watch.until(wakeAt);
    }
    writer.wakeOnClose(nullptr);
    co_return ended;
}

// Opens the stream, follows the command, and ends the response; a stop says why it ended.
asio::awaitable<StreamOutcome> streamCommand(EventStreamExchange &exchange, ShellSession &session,
                                             FollowOptions options) {
    SseWriter writer(exchange);
    if (co_await writer.start() && co_await writer.writeComment("connected")) {
        const bool ended = co_await follow(writer, session, options);
        if (!ended && writer.stopping() && writer.open()) {
            co_await writer.writeEvent(frame("error", "Server stopping"));
        }
    }
    co_return co_await writer.finish();
}

class ExecEventStream final : public EventStreamHandler {
public:
    explicit ExecEventStream(std::shared_ptr<SessionRegistry> sessions)
        : m_sessions(std::move(sessions)) {}

    asio::awaitable<StreamOutcome> handle(HttpRequest &request,
                                          EventStreamExchange &exchange) override {
        ExecTarget target = resolveExec(request, *m_sessions);
        if (target.refusal)
            co_return co_await answerPlain(exchange, std::move(*target.refusal));
        const TimePoint begin = SteadyClock::now();
        const std::shared_ptr<ShellSession> session = target.session;
        const ExecRequest &exec = target.request;
        const ExecStart start = co_await beginExec(session, exec);
        if (start.refusal)
            co_return co_await answerPlain(exchange, *start.refusal);
        if (start.busy) {
            // AIO answers a busy session in plain JSON, as a failure (section 14.1).
            co_return co_await answerPlain(
                exchange, envelopeResponse(
                              200, false, *start.busy,
                              execResult(*session, exec.command, "running", false, exec.truncate)));
        }
        // async_mode changes nothing: the stream runs until the command ends either way.
        // timeout and no_change_timeout only time a plain answer, so a stream ignores them.
        co_return co_await streamCommand(
            exchange, *session, {.seq = start.seq, .hardAt = after(begin, exec.hardTimeout)});
    }

private:
    std::shared_ptr<SessionRegistry> m_sessions;
};

class ViewEventStream final : public EventStreamHandler {
public:
    ViewEventStream(std::shared_ptr<SessionRegistry> sessions, std::chrono::milliseconds keepalive)
        : m_sessions(std::move(sessions))
        , m_keepalive(keepalive) {}

    asio::awaitable<StreamOutcome> handle(HttpRequest &request,
                                          EventStreamExchange &exchange) override {
        BodyFields body(request);
        const auto id = body.string("id", true);
        if (!body.ok())
            co_return co_await answerPlain(exchange, body.refusal());
        const std::shared_ptr<ShellSession> session = m_sessions->find(*id);
        if (!session)
            co_return co_await answerPlain(exchange,
                                           errorResponse(404, "Session " + *id + " not found"));
        co_return co_await streamCommand(exchange, *session,
                                         {.seq = session->command().seq, .keepalive = m_keepalive});
    }

private:
    std::shared_ptr<SessionRegistry> m_sessions;
    const std::chrono::milliseconds m_keepalive;
};

} // namespace

std::shared_ptr<EventStreamHandler> makeExecEventStream(std::shared_ptr<SessionRegistry> sessions) {
    return std::make_shared<ExecEventStream>(std::move(sessions));
}

std::shared_ptr<EventStreamHandler> makeViewEventStream(std::shared_ptr<SessionRegistry> sessions,
                                                        std::chrono::milliseconds keepalive) {
    return std::make_shared<ViewEventStream>(std::move(sessions), keepalive);
}

} // namespace sbx
