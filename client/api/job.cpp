#include "client/api/job.h"

namespace sbx {

using namespace Qt::StringLiterals;

void Job::abort() {
    if (m_done)
        return;
    m_done = true;
    m_status = Status::error(Status::Kind::Cancelled, tr("Cancelled"));
    cancelWork();
    Q_EMIT finished();
    end();
}

bool Job::beginStart() {
    if (m_started || m_done)
        return false;
    m_started = true;
    return true;
}

void Job::complete(const Status &status) {
    if (m_done)
        return;
    m_done = true;
    m_status = status;
    Q_EMIT finished();
    if (status.ok())
        emitSucceeded();
    else
        Q_EMIT failed(status);
    end();
}

void Job::reset() {
    m_started = false;
    m_done = false;
    m_status = {};
}

void Job::end() {
    if (m_deleteWhenDone)
        deleteLater();
}

} // namespace sbx
