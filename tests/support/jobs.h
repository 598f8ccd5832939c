#pragma once

#include "client/api/apijob.h"
#include "client/api/sandboxjobs.h"
#include "client/api/shelljobs.h"
#include "client/sandboxclient.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QStringList>

#include <cstddef>
#include <memory>
#include <type_traits>

namespace sbxtest {

// Starts job and waits (bounded) until it has ended; its Status, a Timeout one when it did
// not end. When out is given, the value of the job's succeeded signal is stored there.
template <typename Job, typename Result = std::nullptr_t>
sbx::Status runJob(Job *job, Result *out = nullptr, int timeoutMs = 30000) {
    auto status = std::make_shared<sbx::Status>();
    if constexpr (!std::is_same_v<Result, std::nullptr_t>)
        QObject::connect(job, &Job::succeeded, job, [out](const auto &r) { *out = r; });
    QObject::connect(job, &sbx::ApiJob::failed, job,
                     [status](const sbx::Status &s) { *status = s; });
    QSignalSpy done(job, &sbx::ApiJob::finished);
    job->start();
    if (!done.wait(timeoutMs))
        return sbx::Status::error(sbx::Status::Kind::Timeout, QStringLiteral("job did not finish"));
    QCoreApplication::processEvents(); // succeeded / failed arrive right after finished
    return *status;
}

// Reads the sandbox's context, as the console does on connect, so the client knows the
// sandbox's extensions.
inline bool learnExtensions(sbx::SandboxClient *client) {
    return runJob(new sbx::GetContextJob(client)).ok();
}

// The ids of the sandbox's shell sessions; empty when the list failed.
inline QStringList shellSessionIds(sbx::SandboxClient *client) {
    QList<sbx::ShellSessionInfo> sessions;
    runJob(new sbx::ListShellSessionsJob(client), &sessions);
    QStringList ids;
    for (const sbx::ShellSessionInfo &s : sessions)
        ids << s.id;
    return ids;
}

} // namespace sbxtest
