#include "tests/engine/enginetestkit.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"

#include <QDeadlineTimer>
#include <QSignalSpy>
#include <QTest>

namespace sbxtest {

using namespace sbx;
using namespace Qt::StringLiterals;

std::optional<SandboxEntry> findEntry(const SandboxProvider &provider, const QString &id) {
    for (const SandboxEntry &entry : provider.sandboxes()) {
        if (entry.id == id)
            return entry;
    }
    return std::nullopt;
}

SandboxState stateOf(const SandboxProvider &provider, const QString &id) {
    const auto entry = findEntry(provider, id);
    return entry ? entry->providerState : SandboxState::Unreachable;
}

QString createOnline(SandboxProvider &provider, const SandboxCreateOptions &options, QString *why) {
    QSignalSpy created(&provider, &SandboxProvider::created);
    QSignalSpy failed(&provider, &SandboxProvider::actionFailed);
    provider.create(options);
    if (!created.wait(kStartBoundMs) && failed.isEmpty()) {
        *why = u"create gave no answer"_s;
        return {};
    }
    if (!failed.isEmpty()) {
        *why = failed.first().value(1).toString();
        return {};
    }
    const QString id = created.first().first().toString();
    if (!QTest::qWaitFor([&] { return stateOf(provider, id) == SandboxState::Online; },
                         kStartBoundMs)) {
        *why = u"%1 did not come online"_s.arg(id);
        return {};
    }
    return id;
}

Status readContext(const SandboxEntry &entry, SandboxContext *context) {
    SandboxClient client(entry.endpoint, entry.credentials);
    Status last = Status::error(Status::Kind::Timeout, u"no attempt"_s);
    const QDeadlineTimer deadline(30000);
    while (!deadline.hasExpired()) {
        auto *job = new GetContextJob(&client);
        QSignalSpy finished(job, &ApiJob::finished);
        bool ok = false;
        QObject::connect(job, &GetContextJob::succeeded, &client,
                         [context, &ok](const SandboxContext &c) {
                             ok = true;
                             if (context)
                                 *context = c;
                         });
        QObject::connect(job, &ApiJob::failed, &client, [&last](const Status &s) { last = s; });
        job->start();
        if (!finished.wait(15000)) {
            last = Status::error(Status::Kind::Timeout, u"GET /v1/sandbox: no answer in 15 s"_s);
            continue;
        }
        if (ok)
            return Status::success();
        if (!last.transient())
            return last;
        QTest::qWait(200);
    }
    return last;
}

} // namespace sbxtest
