// The Jupyter group's pieces that need no kernel: the wire format's signatures (checked against
// Python's hmac), decoding, and how IOPub messages become AIO's outputs.
#include "server/jupyter/executionrecord.h"
#include "server/jupyter/kernelwire.h"

#include <QTest>

using namespace sbx;
using nlohmann::json;

namespace {

KernelMessage iopub(const std::string &type, json content) {
    KernelMessage message;
    message.header = {{"msg_type", type}, {"msg_id", "m"}};
    message.parent = {{"msg_id", "request"}};
    message.content = std::move(content);
    return message;
}

} // namespace

class TestServerJupyterUnits final : public QObject {
    Q_OBJECT

private slots:
    void signatureMatchesPythonHmac();
    void decodeChecksTheSignature();
    void requestsCarryAFreshIdAndOurSession();
    void streamsMergeAndClearOutputApplies();
    void displaysUpdateAndErrorsAreKept();
    void outputPastTheLimitIsDroppedAndCounted();
};

void TestServerJupyterUnits::signatureMatchesPythonHmac() {
    // hmac.new(b"secret-key", digestmod=sha256) over the four parts, in Python.
    const KernelWire wire("secret-key");
    QCOMPARE(wire.signature(R"({"msg_id":"a"})", "{}", "{}", R"({"code":"1+1"})"),
             std::string("712005a3ddfac00ddc4b5e88335391b3a6ee2873954746371defcd8f11725fad"));
    // An empty key signs nothing, as Jupyter allows.
    QCOMPARE(KernelWire("").signature("{}", "{}", "{}", "{}"), std::string());
}

void TestServerJupyterUnits::decodeChecksTheSignature() {
    const KernelWire wire("k");
    KernelMessage message = wire.request("execute_request", {{"code", "x"}});
    message.buffers = {"raw"};
    std::vector<std::string> frames = wire.encode(message);
    // Routing ids before the delimiter are skipped.
    frames.insert(frames.begin(), "kernel.1234.status");
    std::string error;
    const auto decoded = wire.decode(frames, error);
    QVERIFY2(decoded, error.c_str());
    QCOMPARE(decoded->type(), std::string("execute_request"));
    QCOMPARE(decoded->content["code"].get<std::string>(), std::string("x"));
    QCOMPARE(decoded->buffers.size(), std::size_t(1));

    std::vector<std::string> forged = frames;
    forged[5] = R"({"code":"import os"})"; // content changed, signature kept
    QVERIFY(!wire.decode(forged, error));
    QVERIFY(error.find("signature") != std::string::npos);
    QVERIFY(!KernelWire("other").decode(frames, error));
    QVERIFY(!wire.decode({"no", "delimiter"}, error));
}

void TestServerJupyterUnits::requestsCarryAFreshIdAndOurSession() {
    const KernelWire wire("k");
    const KernelMessage a = wire.request("kernel_info_request", json::object());
    const KernelMessage b = wire.request("kernel_info_request", json::object());
    QVERIFY(a.id() != b.id());
    QCOMPARE(a.id().size(), std::size_t(36));
    QCOMPARE(a.header["session"].get<std::string>(), wire.session());
    QCOMPARE(a.header["version"].get<std::string>(), std::string("5.3"));
}

void TestServerJupyterUnits::streamsMergeAndClearOutputApplies() {
    ExecutionRecord record(1 << 20);
    record.add(iopub("execute_input", {{"execution_count", 4}}));
    record.add(iopub("stream", {{"name", "stdout"}, {"text", "a"}}));
    record.add(iopub("stream", {{"name", "stdout"}, {"text", "b"}}));
    record.add(iopub("stream", {{"name", "stderr"}, {"text", "e"}}));
    QCOMPARE(record.executionCount(), std::optional<int>(4));
    QVERIFY(!record.idle());
    record.add(iopub("status", {{"execution_state", "idle"}}));
    QVERIFY(record.idle());
    json outputs = record.takeOutputs();
    QCOMPARE(outputs.size(), std::size_t(2));
    QCOMPARE(outputs[0]["text"].get<std::string>(), std::string("ab"));
    // Every JupyterOutput field is present, null where it does not apply.
    QCOMPARE(outputs[0].size(), std::size_t(9));
    QVERIFY(outputs[0]["ename"].is_null());
    QCOMPARE(streamText(outputs, "stderr"), std::string("e"));

    ExecutionRecord cleared(1 << 20);
    cleared.add(iopub("stream", {{"name", "stdout"}, {"text", "old"}}));
    cleared.add(iopub("clear_output", {{"wait", true}}));
    cleared.add(iopub("stream", {{"name", "stdout"}, {"text", "new"}}));
    outputs = cleared.takeOutputs();
    QCOMPARE(outputs.size(), std::size_t(1));
    QCOMPARE(outputs[0]["text"].get<std::string>(), std::string("new"));
}

void TestServerJupyterUnits::displaysUpdateAndErrorsAreKept() {
    ExecutionRecord record(1 << 20);
    record.add(iopub("display_data", {{"data", {{"text/plain", "1"}}},
                                      {"metadata", json::object()},
                                      {"transient", {{"display_id", "d"}}}}));
    record.add(iopub("update_display_data", {{"data", {{"text/plain", "2"}}},
                                             {"metadata", json::object()},
                                             {"transient", {{"display_id", "d"}}}}));
    record.add(iopub(
        "execute_result",
        {{"data", {{"text/plain", "42"}}}, {"metadata", json::object()}, {"execution_count", 7}}));
    record.add(iopub("error", {{"ename", "ValueError"},
                               {"evalue", "bad"},
                               {"traceback", json::array({"line 1", "ValueError: bad"})}}));
    const json outputs = record.takeOutputs();
    QCOMPARE(outputs.size(), std::size_t(3));
    QCOMPARE(outputs[0]["data"]["text/plain"].get<std::string>(), std::string("2"));
    QCOMPARE(outputs[1]["output_type"].get<std::string>(), std::string("execute_result"));
    QCOMPARE(outputs[1]["execution_count"].get<int>(), 7);
    QCOMPARE(firstTraceback(outputs).size(), std::size_t(2));
}

void TestServerJupyterUnits::outputPastTheLimitIsDroppedAndCounted() {
    ExecutionRecord record(1000);
    for (int i = 0; i < 10; ++i) {
        record.add(iopub("stream",
                         {{"name", i % 2 ? "stdout" : "stderr"}, {"text", std::string(300, 'x')}}));
    }
    record.add(iopub("error", {{"ename", "E"}, {"evalue", "v"}, {"traceback", json::array()}}));
    const json outputs = record.takeOutputs();
    std::size_t kept = 0;
    for (const json &output : outputs) {
        if (output["output_type"] == "stream")
            kept += output["text"].get<std::string>().size();
    }
    QVERIFY(kept < 1500);
    // The error still arrives, and a closing note says what was dropped.
    QVERIFY(firstTraceback(outputs).is_array());
    const std::string note = outputs.back()["text"].get<std::string>();
    QVERIFY2(note.find("dropped") != std::string::npos, note.c_str());
}

QTEST_APPLESS_MAIN(TestServerJupyterUnits)
#include "tst_server_jupyter_units.moc"
