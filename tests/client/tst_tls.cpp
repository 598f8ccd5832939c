// TLS to a sandbox behind https: an untrusted certificate is refused with its fingerprint, then
// accepted once pinned, or when its CA file is configured for that sandbox only.
#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"

#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSslKey>
#include <QSslServer>
#include <QSslSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

Status runContext(SandboxClient *client) {
    auto *job = new GetContextJob(client);
    Status status;
    QObject::connect(job, &ApiJob::finished, job, [job, &status] { status = job->status(); });
    QSignalSpy done(job, &ApiJob::finished);
    job->start();
    done.wait(15000);
    return status;
}

} // namespace

class TestTls final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QSslServer m_server;
    QSslCertificate m_cert;
    QByteArray m_reply;

    QUrl url() const { return QUrl(u"https://127.0.0.1:%1"_s.arg(m_server.serverPort())); }

private Q_SLOTS:
    void initTestCase();
    void untrustedCertificateIsRefusedWithFingerprint();
    void pinnedCertificateIsAccepted();
    void wrongPinIsRefused();
    void caFileTrustsTheServer();
};

void TestTls::initTestCase() {
    if (!QSslSocket::supportsSsl())
        QSKIP("Qt was built without a TLS backend here");
    const QString key = m_dir.filePath(u"key.pem"_s);
    const QString cert = m_dir.filePath(u"cert.pem"_s);
    QProcess openssl;
    openssl.start(u"openssl"_s, {u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s,
                                 u"-keyout"_s, key, u"-out"_s, cert, u"-days"_s, u"2"_s, u"-subj"_s,
                                 u"/CN=127.0.0.1"_s, u"-addext"_s, u"subjectAltName=IP:127.0.0.1"_s,
                                 u"-addext"_s, u"basicConstraints=critical,CA:TRUE"_s});
    QVERIFY2(openssl.waitForFinished(30000) && openssl.exitCode() == 0,
             openssl.readAllStandardError().constData());
    QFile certFile(cert), keyFile(key);
    QVERIFY(certFile.open(QIODevice::ReadOnly) && keyFile.open(QIODevice::ReadOnly));
    m_cert = QSslCertificate(&certFile, QSsl::Pem);
    QVERIFY(!m_cert.isNull());
    QSslConfiguration config = QSslConfiguration::defaultConfiguration();
    config.setLocalCertificate(m_cert);
    config.setPrivateKey(QSslKey(&keyFile, QSsl::Rsa));
    m_server.setSslConfiguration(config);
    QVERIFY(m_server.listen(QHostAddress::LocalHost));

    QFile fixture(QStringLiteral(SBX_FIXTURES_DIR "/sandbox-context-aio.json"));
    QVERIFY(fixture.open(QIODevice::ReadOnly));
    const QByteArray body = fixture.readAll();
    m_reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
              QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    connect(&m_server, &QTcpServer::pendingConnectionAvailable, this, [this] {
        while (auto *socket = static_cast<QSslSocket *>(m_server.nextPendingConnection())) {
            connect(socket, &QSslSocket::readyRead, socket, [this, socket] {
                if (socket->readAll().contains("\r\n\r\n")) {
                    socket->write(m_reply);
                    socket->disconnectFromHost();
                }
            });
            connect(socket, &QSslSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
}

void TestTls::untrustedCertificateIsRefusedWithFingerprint() {
    SandboxClient client({url(), {}}, {});
    const Status s = runContext(&client);
    QCOMPARE(s.kind, Status::Kind::Tls);
    QVERIFY(s.message.contains(u"not trusted"_s));
    QCOMPARE(s.certificateSha256, certificateFingerprint(m_cert));
}

void TestTls::pinnedCertificateIsAccepted() {
    TlsSettings tls;
    tls.pinnedSha256 = certificateFingerprint(m_cert);
    SandboxClient client({url(), tls}, {});
    const Status s = runContext(&client);
    QVERIFY2(s.ok(), qPrintable(s.message));
}

void TestTls::wrongPinIsRefused() {
    TlsSettings tls;
    tls.pinnedSha256 = QByteArray(64, 'a');
    SandboxClient client({url(), tls}, {});
    QCOMPARE(runContext(&client).kind, Status::Kind::Tls);
}

void TestTls::caFileTrustsTheServer() {
    TlsSettings tls;
    tls.caFile = m_dir.filePath(u"cert.pem"_s);
    SandboxClient client({url(), tls}, {});
    const Status s = runContext(&client);
    QVERIFY2(s.ok(), qPrintable(s.message));
}

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
