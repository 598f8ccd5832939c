#pragma once

#include "client/transport/status.h"

#include <QObject>

namespace sbx {

// The one contract of asynchronous work in client/: start() once, then finished(), then exactly
// one of the subclass's succeeded(...) or failed(Status). abort() ends it with finished() only.
// A job deletes itself afterwards unless its owner keeps it (setDeleteWhenDone(false)).
class Job : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void start() = 0;
    void abort();

    bool isRunning() const { return m_started && !m_done; }
    bool isDone() const { return m_done; }
    // How it ended: Ok, the error, or Cancelled after abort().
    const Status &status() const { return m_status; }
    void setDeleteWhenDone(bool on) { m_deleteWhenDone = on; }

Q_SIGNALS:
    void finished();
    void failed(const Status &status);

protected:
    // Marks the job started; false when it already was (start() returns then).
    bool beginStart();
    // Ends the job: finished(), then emitSucceeded() or failed(status); no-op once done.
    void complete(const Status &status);
    virtual void emitSucceeded() = 0;
    // Stops what is in flight; abort() calls it once, before finished().
    virtual void cancelWork() {}
    // A job that runs again (a hook trial run) starts a new round.
    void reset();

private:
    void end();

    Status m_status;
    bool m_started = false;
    bool m_done = false;
    bool m_deleteWhenDone = true;
};

} // namespace sbx
