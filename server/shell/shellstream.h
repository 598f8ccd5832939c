#pragma once

#include <chrono>
#include <memory>

// The text/event-stream answers of POST /v1/shell/exec and POST /v1/shell/view (AIO section
// 14.1), registered as RouteOptions::eventStream beside the plain JSON handlers.
namespace sbx {

class EventStreamHandler;
class SessionRegistry;

// How often /v1/shell/view's stream says {"keepalive": true} while nothing else is sent.
inline constexpr std::chrono::milliseconds kDefaultSseKeepalive{15000};

// exec as a stream: `: connected`, {"output": CHUNK} frames of the command's output as it
// arrives, then {"end": true, "message": "No more output"} once the command ended. A refused
// request (bad fields, unknown session, busy session) is answered in plain JSON instead.
std::shared_ptr<EventStreamHandler> makeExecEventStream(std::shared_ptr<SessionRegistry> sessions);
// view as a stream: the current command's output from its start, as it grows, with keepalive
// frames, until the command ends (at once when nothing runs).
std::shared_ptr<EventStreamHandler> makeViewEventStream(std::shared_ptr<SessionRegistry> sessions,
                                                        std::chrono::milliseconds keepalive);

} // namespace sbx
