// Fuzzes how the console reads a reply (client/transport/statusmapping.cpp, client/api/): an
// HTTP status and a body in, a Status out. Every failure must carry a message a person can read,
// and every parser must cope with any body.
//
// Input: bytes 0-1 pick the HTTP status (0 = no answer, then byte 2 picks the transport error),
// byte 2 also the credentials, timeout and cancel flags; the rest is the body.
#include "client/api/envelope.h"
#include "client/api/filejobs.h"
#include "client/api/hookjobs.h"
#include "client/api/sandboxjobs.h"
#include "client/transport/statusmapping.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// A failed Status: a kind other than Ok and something to show.
void checkFailure(const Status &s) {
    check(!s.ok());
    check(!s.message.trimmed().isEmpty());
}

void checkParsed(const Status &s) {
    if (!s.ok())
        checkFailure(s);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size < 3)
        return 0;
    const int raw = (data[0] << 8) | data[1];
    // Mostly real statuses, sometimes anything at all.
    const int httpStatus = raw & 0x8000 ? raw - 0x8000 - 0x4000 : raw % 600;
    const unsigned flags = data[2];
    const QByteArray body(reinterpret_cast<const char *>(data) + 3, qsizetype(size - 3));

    ReplyFacts facts;
    facts.httpStatus = httpStatus;
    facts.error =
        httpStatus == 0 ? QNetworkReply::NetworkError(flags % 410) : QNetworkReply::NoError;
    facts.body = body;
    facts.timedOut = (flags & 0x30) == 0x30;
    facts.timeoutMs = int(flags) * 97;
    facts.cancelled = (flags & 0xc0) == 0xc0;
    facts.method = u"POST"_s;
    facts.path = flags & 1 ? u"/v1/sandbox"_s : u"/v1/file/list"_s;
    facts.address = u"127.0.0.1:8080"_s;
    facts.credentials = Credentials::Kind((flags >> 1) % 4);

    const Status status = statusFromReply(facts);
    const bool answered = !facts.cancelled && !facts.timedOut;
    if (answered && httpStatus >= 200 && httpStatus < 300)
        check(status.ok());
    else
        checkFailure(status);
    check(status.kind != Status::Kind::Tls || httpStatus == 0);
    (void)messageFromErrorBody(body);

    Envelope envelope;
    checkParsed(parseEnvelope(body, u"Fuzz"_s, &envelope));
    // The tolerant readers on whatever the data holds.
    for (const char *key :
         {"message", "path", "size", "success", "content", "items", "exit_code"}) {
        (void)jsonString(envelope.data, key);
        (void)jsonInt(envelope.data, key);
        (void)jsonDouble(envelope.data, key);
        (void)jsonBool(envelope.data, key);
        (void)jsonStringList(envelope.data, key);
    }
    nlohmann::json object;
    checkParsed(parseJsonObject(body, u"Fuzz"_s, &object));

    SandboxContext context;
    checkParsed(parseSandboxContext(body, &context));
    QList<SandboxHook> hooks;
    checkParsed(parseHookList(body, &hooks));
    checkParsed(parseFileListing(body).status);
    return 0;
}
