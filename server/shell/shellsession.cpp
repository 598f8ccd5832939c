#include "server/shell/shellsession.h"

#include "server/core/log.h"
#include "server/shell/ptyprocess.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <csignal>

namespace sbx {

namespace asio = boost::asio;

namespace {

constexpr std::size_t kInputLimit = 1024 * 1024;
constexpr std::size_t kWriteChunk = 64 * 1024;
constexpr std::size_t kCommandOutputLimit = 1024 * 1024;
constexpr std::size_t kPromptLimit = 8192;
// Long enough for a program to handle the first SIGWINCH before the second one comes.
constexpr auto kNudgeDelay = std::chrono::milliseconds(100);

} // namespace

ShellSession::ShellSession(asio::io_context &io, SessionSpec spec)
    : m_io(io)
    , m_spec(std::move(spec))
    , m_ring(m_spec.ringBytes)
    , m_noChangeTimeout(m_spec.noChangeTimeout) {}

std::shared_ptr<ShellSession> ShellSession::start(asio::io_context &io, SessionSpec spec,
                                                  std::string &error) {
    pty::Spec ptySpec;
    ptySpec.argv = spec.argv;
    ptySpec.environment = spec.environment;
    ptySpec.workingDirectory = spec.workingDirectory;
    std::shared_ptr<ShellSession> session(new ShellSession(io, std::move(spec)));
    ptySpec.cols = session->m_cols;
    ptySpec.rows = session->m_rows;
    const std::optional<pty::Child> child = pty::spawn(ptySpec, error);
    if (!child)
        return nullptr;
    session->m_pid = child->pid;
    session->m_pty = std::make_unique<asio::posix::stream_descriptor>(io, child->master);
    session->m_nudgeTimer = std::make_unique<asio::steady_timer>(io);
    session->m_command.lastOutputAt = SteadyClock::now();
    session->startReading();
    return session;
}

ShellSession::~ShellSession() {
    // Normally ended by terminate() or the shell's exit; this only guards against a leak.
    if (m_pid > 0 && !m_reaped) {
        pty::signalSession(m_pid, SIGKILL);
        tryReap(true);
    }
}

std::string ShellSession::workingDirectory() const {
    // Before its first prompt the shell may not have left the server's directory yet.
    std::string dir =
        m_ready && m_end == SessionEnd::None ? pty::workingDirectory(m_pid) : std::string();
    return dir.empty() ? m_spec.workingDirectory : dir;
}

void ShellSession::startReading() {
    m_pty->async_read_some(
        asio::buffer(m_readBuffer),
        [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
            if (self->m_end != SessionEnd::None)
                return;
            if (ec) {
                self->onPtyClosed();
                return;
            }
            self->consume(std::string_view(self->m_readBuffer.data(), n));
            if (self->m_end == SessionEnd::None && self->m_pty)
                self->startReading();
        });
}

void ShellSession::consume(std::string_view bytes) {
    m_events.clear();
    m_tracker.feed(bytes, m_events);
    const std::uint64_t base = m_ring.end();
    m_ring.append(bytes);
    for (const SafePoint &point : m_events.safePoints)
        m_ring.addSafePoint(base + point.byteEnd, point.altScreen);
    std::size_t textUsed = 0;
    for (const ShellMarker &marker : m_events.markers)
        applyMarker(marker, m_events.text, textUsed);
    appendCommandOutput(std::string_view(m_events.text).substr(textUsed));
    m_command.lastOutputAt = SteadyClock::now();
    notify();
}

void ShellSession::applyMarker(const ShellMarker &marker, std::string_view text,
                               std::size_t &textUsed) {
    appendCommandOutput(text.substr(textUsed, marker.textEnd - textUsed));
    textUsed = marker.textEnd;
    if (marker.kind == ShellMarker::Kind::Start) {
        m_collectingPrompt = false;
        if (!m_command.finished && !m_command.started) {
            // What came before is the echoed command line: not the command's output.
            m_command.started = true;
            m_command.output.clear();
            m_command.outputDropped = 0;
            // The prompt may have been drawn after the line was typed: take it from the text
            // since the last prompt marker, minus the echo.
            std::string_view shown(m_promptText);
            if (!shown.empty() && shown.back() == '\n')
                shown.remove_suffix(1);
            if (shown.size() >= m_typedLine.size() &&
                shown.substr(shown.size() - m_typedLine.size()) == m_typedLine)
                m_command.ps1 = shown.substr(0, shown.size() - m_typedLine.size());
            return;
        }
        if (m_command.finished) {
            // A command typed in a terminal.
            CommandRecord typed;
            typed.seq = m_command.seq + 1;
            typed.status = "running";
            typed.started = true;
            typed.finished = false;
            typed.lastOutputAt = SteadyClock::now();
            m_command = std::move(typed);
        }
        return;
    }
    m_ready = true;
    if (!m_command.finished) {
        m_command.finished = true;
        m_command.exitCode = marker.exitCode;
        if (m_command.status == "running")
            m_command.status = "completed";
        if (!m_command.started) {
            // No PS0 (a syntax error): drop the echoed line.
            const std::size_t newline = m_command.output.find('\n');
            m_command.output.erase(0, newline == std::string::npos ? m_command.output.size()
                                                                   : newline + 1);
        }
    }
    m_collectingPrompt = true;
    m_promptText.clear();
}

void ShellSession::appendCommandOutput(std::string_view text) {
    if (text.empty())
        return;
    if (m_collectingPrompt && m_promptText.size() < kPromptLimit)
        m_promptText.append(text.substr(0, kPromptLimit - m_promptText.size()));
    if (m_command.finished)
        return;
    m_command.output.append(text);
    // Trimmed in steps, not per read: `yes` would otherwise move a megabyte per read.
    if (m_command.output.size() > 2 * kCommandOutputLimit) {
        const std::size_t dropped = m_command.output.size() - kCommandOutputLimit;
        m_command.output.erase(0, dropped);
        m_command.outputDropped += dropped;
    }
}

bool ShellSession::write(std::string_view bytes) {
    if (m_end != SessionEnd::None || m_input.size() + bytes.size() > kInputLimit)
        return false;
    m_input.append(bytes);
    flushInput();
    return true;
}

std::uint64_t ShellSession::typeCommand(const std::string &command, const std::string &line) {
    CommandRecord record;
    record.seq = m_command.seq + 1;
    record.command = command;
    record.status = "running";
    record.finished = false;
    record.ps1 = m_promptText;
    record.lastOutputAt = SteadyClock::now();
    m_command = std::move(record);
    m_typedLine = line;
    touch();
    write(line + "\r");
    return m_command.seq;
}

void ShellSession::flushInput() {
    if (m_writing || m_input.empty() || !m_pty)
        return;
    const std::size_t n = std::min(m_input.size(), kWriteChunk);
    m_inFlight.assign(m_input, 0, n);
    m_input.erase(0, n);
    m_writing = true;
    m_pty->async_write_some(
        asio::buffer(m_inFlight),
        [self = shared_from_this()](boost::system::error_code ec, std::size_t written) {
            self->m_writing = false;
            if (ec)
                return;
            if (written < self->m_inFlight.size())
                self->m_input.insert(0, self->m_inFlight, written);
            self->flushInput();
        });
}

void ShellSession::resize(unsigned short cols, unsigned short rows) {
    m_cols = cols;
    m_rows = rows;
    if (m_pty)
        pty::setSize(m_pty->native_handle(), cols, rows);
}

void ShellSession::nudge() {
    if (!m_pty || !m_nudgeTimer)
        return;
    pty::setSize(m_pty->native_handle(), m_cols,
                 static_cast<unsigned short>(m_rows > 1 ? m_rows - 1 : m_rows + 1));
    m_nudgeTimer->expires_after(kNudgeDelay);
    m_nudgeTimer->async_wait([weak = weak_from_this()](boost::system::error_code ec) {
        auto self = weak.lock();
        if (!ec && self && self->m_pty)
            pty::setSize(self->m_pty->native_handle(), self->m_cols, self->m_rows);
    });
}

bool ShellSession::idle() const {
    if (!m_pty)
        return false;
    return m_command.finished && pty::foregroundGroup(m_pty->native_handle()) == m_pid;
}

std::string ShellSession::foregroundHolder() const {
    if (!m_pty)
        return {};
    const pid_t group = pty::foregroundGroup(m_pty->native_handle());
    if (group <= 0 || group == m_pid)
        return {};
    const std::string name = pty::processName(group);
    return (name.empty() ? std::string("a program") : "`" + name + "`") + " (pid " +
           std::to_string(group) + ")";
}

bool ShellSession::signalForeground(int signal) {
    if (!m_pty)
        return false;
    const pid_t group = pty::foregroundGroup(m_pty->native_handle());
    if (group <= 0 || group == m_pid)
        return false;
    ::kill(-group, signal);
    return true;
}

void ShellSession::terminate(SessionEnd why) {
    if (m_end != SessionEnd::None)
        return;
    pty::signalSession(m_pid, SIGKILL);
    const std::optional<int> code = tryReap(false);
    finish(why, code);
    if (!m_reaped)
        reapInBackground();
}

void ShellSession::checkShellExited() {
    if (m_end != SessionEnd::None)
        return;
    if (const std::optional<int> code = tryReap(false)) {
        // Background jobs of a shell that is gone keep the PTY open; end them with it.
        pty::signalSession(m_pid, SIGHUP);
        finish(SessionEnd::Exited, code);
    }
}

void ShellSession::onPtyClosed() {
    // EIO: every holder of the PTY's other side closed it, so the shell is gone or going.
    if (const std::optional<int> code = tryReap(false)) {
        finish(SessionEnd::Exited, code);
        return;
    }
    asio::co_spawn(
        m_io,
        [self = shared_from_this()]() -> asio::awaitable<void> {
            asio::steady_timer timer(self->m_io);
            for (int attempt = 0; attempt < 100 && self->m_end == SessionEnd::None; ++attempt) {
                if (const std::optional<int> code = self->tryReap(false)) {
                    self->finish(SessionEnd::Exited, code);
                    co_return;
                }
                timer.expires_after(std::chrono::milliseconds(20));
                boost::system::error_code ec;
                co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            }
            self->terminate(SessionEnd::Exited);
        },
        asio::detached);
}

void ShellSession::finish(SessionEnd why, std::optional<int> exitCode) {
    if (m_end != SessionEnd::None)
        return;
    m_end = why;
    m_exitCode = exitCode;
    if (!m_command.finished) {
        m_command.finished = true;
        m_command.status = "terminated";
    }
    boost::system::error_code ec;
    if (m_pty)
        m_pty->close(ec);
    m_pty.reset();
    m_nudgeTimer.reset();
    notify();
    log::debug("shell session " + id() + " ended");
    if (m_onEnded)
        m_onEnded(*this);
}

std::optional<int> ShellSession::tryReap(bool block) {
    if (m_reaped)
        return m_exitCode;
    const std::optional<int> code = pty::reap(m_pid, block);
    if (code) {
        m_reaped = true;
        m_exitCode = code;
    }
    return code;
}

void ShellSession::reapInBackground() {
    asio::co_spawn(
        m_io,
        [self = shared_from_this()]() -> asio::awaitable<void> {
            asio::steady_timer timer(self->m_io);
            while (!self->tryReap(false)) {
                timer.expires_after(std::chrono::milliseconds(20));
                boost::system::error_code ec;
                co_await timer.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            }
        },
        asio::detached);
}

void ShellSession::notify() {
    const std::set<asio::steady_timer *> watchers = m_watchers;
    for (asio::steady_timer *timer : watchers)
        timer->cancel();
}

} // namespace sbx
