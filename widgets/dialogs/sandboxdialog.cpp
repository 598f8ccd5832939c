#include "widgets/dialogs/sandboxdialog.h"

#include "widgets/common/userprompts.h"

#include "client/api/sandboxjobs.h"
#include "client/sandboxclient.h"
#include "models/palette.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// Rich text in a role's colour (the outcome label shows HTML).
QString coloured(const QString &html, Palette::Role role) {
    return u"<span style='color:%1'>%2</span>"_s.arg(Palette::color(role).name(), html);
}

} // namespace

SandboxDialog::SandboxDialog(QWidget *parent)
    : QDialog(parent)
    , m_name(new QLineEdit(this))
    , m_url(new QLineEdit(this))
    , m_auth(new QComboBox(this))
    , m_secret(new QLineEdit(this))
    , m_secretHint(new QLabel(this))
    , m_expiry(new QLabel(this))
    , m_caFile(new QLineEdit(this))
    , m_pinned(new QLabel(this))
    , m_test(new QPushButton(tr("&Test connection"), this))
    , m_outcome(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Add sandbox"));
    setMinimumWidth(520);
    m_name->setPlaceholderText(tr("e.g. Staging agent"));
    m_url->setPlaceholderText(tr("http://localhost:8080"));
    m_auth->addItem(tr("None"), static_cast<int>(Credentials::Kind::None));
    m_auth->addItem(tr("API key (SANDBOX_API_KEY)"), static_cast<int>(Credentials::Kind::ApiKey));
    m_auth->addItem(tr("JWT (signed for JWT_PUBLIC_KEY)"),
                    static_cast<int>(Credentials::Kind::Jwt));
    m_secret->setEchoMode(QLineEdit::Password);
    QAction *reveal = m_secret->addAction(QIcon(), QLineEdit::TrailingPosition);
    reveal->setText(tr("Show"));
    reveal->setToolTip(tr("Show or hide the secret"));
    connect(reveal, &QAction::triggered, this, [this] {
        m_secret->setEchoMode(m_secret->echoMode() == QLineEdit::Password ? QLineEdit::Normal
                                                                          : QLineEdit::Password);
    });
    m_secretHint->setWordWrap(true);
    m_secretHint->setStyleSheet(u"color: palette(mid);"_s);
    m_caFile->setPlaceholderText(tr("System certificates"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("CA certificate"), QString(), tr("Certificates (*.pem *.crt);;All files (*)"));
        if (!file.isEmpty())
            m_caFile->setText(file);
    });
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_caFile, 1);
    caRow->addWidget(browse);
    m_pinned->setWordWrap(true);
    m_pinned->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outcome->setWordWrap(true);
    m_outcome->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outcome->setObjectName(u"testOutcome"_s);

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Address:"), m_url);
    form->addRow(tr("A&uthentication:"), m_auth);
    form->addRow(tr("&Secret:"), m_secret);
    form->addRow(QString(), m_secretHint);
    form->addRow(QString(), m_expiry);
    // A row of a layout has no buddy of its own: the label points at the field.
    auto *caLabel = new QLabel(tr("CA &file:"), this);
    caLabel->setBuddy(m_caFile);
    form->addRow(caLabel, caRow);
    form->addRow(QString(), m_pinned);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test);
    testRow->addWidget(m_outcome, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(testRow);
    layout->addStretch();
    layout->addWidget(m_buttons);

    connect(m_auth, &QComboBox::currentIndexChanged, this, &SandboxDialog::updateAuthFields);
    connect(m_secret, &QLineEdit::textChanged, this, &SandboxDialog::updateAuthFields);
    connect(m_test, &QPushButton::clicked, this, &SandboxDialog::testConnection);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SandboxDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SandboxDialog::reject);
    updateAuthFields();
    setSecretsSessionOnly(false);
}

SandboxDialog::~SandboxDialog() {
    if (m_testJob)
        m_testJob->abort();
}

void SandboxDialog::setSecretsSessionOnly(bool sessionOnly) {
    m_secretHint->setText(sessionOnly
                              ? tr("No system keychain is running: the secret is kept in "
                                   "memory for this session only.")
                              : tr("Stored in the system keychain, never in the settings file."));
}

void SandboxDialog::setEntry(const SandboxEntry &entry) {
    setWindowTitle(tr("Edit sandbox"));
    m_entry = entry;
    m_name->setText(entry.name);
    m_url->setText(entry.endpoint.baseUrl.toString());
    m_auth->setCurrentIndex(m_auth->findData(static_cast<int>(entry.credentials.kind)));
    m_secret->setText(entry.credentials.secret);
    m_caFile->setText(entry.endpoint.tls.caFile);
    m_pinnedSha256 = entry.endpoint.tls.pinnedSha256;
    m_pinned->setText(
        m_pinnedSha256.isEmpty()
            ? QString()
            : tr("Trusted certificate SHA-256: %1").arg(QString::fromLatin1(m_pinnedSha256)));
    updateAuthFields();
}

SandboxEntry SandboxDialog::entry() const {
    SandboxEntry e = m_entry;
    e.name = m_name->text().trimmed();
    QString error;
    e.endpoint.baseUrl = parseBaseUrl(m_url->text(), &error);
    if (e.name.isEmpty())
        e.name = e.endpoint.baseUrl.host() +
                 (e.endpoint.baseUrl.port() > 0
                      ? QLatin1Char(':') + QString::number(e.endpoint.baseUrl.port())
                      : QString());
    e.endpoint.tls.caFile = m_caFile->text().trimmed();
    e.endpoint.tls.pinnedSha256 = m_pinnedSha256;
    e.credentials.kind = static_cast<Credentials::Kind>(m_auth->currentData().toInt());
    e.credentials.secret =
        e.credentials.kind == Credentials::Kind::None ? QString() : m_secret->text().trimmed();
    return e;
}

bool SandboxDialog::validate(QString *error) const {
    if (!parseBaseUrl(m_url->text(), error).isValid())
        return false;
    const auto kind = static_cast<Credentials::Kind>(m_auth->currentData().toInt());
    if (kind != Credentials::Kind::None && m_secret->text().trimmed().isEmpty()) {
        *error = kind == Credentials::Kind::ApiKey ? tr("Enter the API key") : tr("Paste the JWT");
        return false;
    }
    if (kind == Credentials::Kind::Jwt && m_secret->text().trimmed().count(QLatin1Char('.')) != 2) {
        *error = tr("That is not a JWT: a JWT has three parts separated by dots");
        return false;
    }
    return true;
}

void SandboxDialog::updateAuthFields() {
    const auto kind = static_cast<Credentials::Kind>(m_auth->currentData().toInt());
    m_secret->setEnabled(kind != Credentials::Kind::None);
    m_secret->setPlaceholderText(kind == Credentials::Kind::Jwt
                                     ? u"eyJhbGciOiJSUzI1NiIs…"_s
                                     : tr("The sandbox's SANDBOX_API_KEY"));
    m_expiry->clear();
    if (kind == Credentials::Kind::Jwt) {
        const QDateTime expiry = jwtExpiry(m_secret->text().trimmed());
        if (expiry.isValid()) {
            const qint64 left = QDateTime::currentDateTimeUtc().secsTo(expiry);
            m_expiry->setText(
                left <= 0 ? tr("⚠ This JWT has expired.")
                : left < 300
                    ? tr("⚠ This JWT expires in %1 min.").arg(qMax<qint64>(1, left / 60))
                    : tr("Expires %1").arg(expiry.toLocalTime().toString(u"yyyy-MM-dd HH:mm"_s)));
        }
    }
}

void SandboxDialog::testConnection() {
    QString error;
    if (!validate(&error)) {
        m_outcome->setText(coloured(error.toHtmlEscaped(), Palette::Role::TextError));
        Q_EMIT testFinished(false);
        return;
    }
    if (m_testJob)
        m_testJob->abort();
    const SandboxEntry e = entry();
    if (!m_testClient)
        m_testClient = new SandboxClient(e.endpoint, e.credentials, this);
    m_testClient->setEndpoint(e.endpoint);
    m_testClient->setCredentials(e.credentials);
    m_test->setEnabled(false);
    m_outcome->setText(tr("Connecting to %1…").arg(e.endpoint.displayAddress().toHtmlEscaped()));
    auto *job = new ProbeJob(m_testClient, 10000);
    m_testJob = job;
    connect(job, &ProbeJob::succeeded, this, [this](const ProbeResult &r) {
        QString text = tr("%1: sandbox %2, %3 ms")
                           .arg(coloured(tr("✔ Connected"), Palette::Role::TextSuccess),
                                r.version.toHtmlEscaped(), QString::number(r.latencyMs));
        if (!r.extensions.isEmpty())
            text = tr("%1, extensions: %2").arg(text, r.extensions.join(u", "_s).toHtmlEscaped());
        m_outcome->setText(text);
        Q_EMIT testFinished(true);
    });
    connect(job, &ApiJob::failed, this, &SandboxDialog::onTestFailed);
    connect(job, &ApiJob::finished, this, [this] { m_test->setEnabled(true); });
    job->start();
}

void SandboxDialog::onTestFailed(const Status &status) {
    if (status.kind == Status::Kind::Tls && !status.certificateSha256.isEmpty() &&
        status.certificateSha256 != m_pinnedSha256 &&
        confirmCertificate(status.certificateSha256)) {
        m_pinnedSha256 = status.certificateSha256;
        m_pinned->setText(
            tr("Trusted certificate SHA-256: %1").arg(QString::fromLatin1(m_pinnedSha256)));
        testConnection();
        return;
    }
    m_outcome->setText(
        coloured(u"✘ "_s + status.message.toHtmlEscaped(), Palette::Role::TextError));
    Q_EMIT testFinished(false);
}

bool SandboxDialog::confirmCertificate(const QByteArray &sha256) {
    QString grouped;
    for (qsizetype i = 0; i < sha256.size(); i += 2)
        grouped += QString::fromLatin1(sha256.mid(i, 2)).toUpper() +
                   (i + 2 < sha256.size() ? u":"_s : QString());
    return (m_prompts ? m_prompts : dialogPrompts())
        ->confirm(this, tr("Untrusted certificate"),
                  tr("The sandbox presented a certificate that no trusted authority signed.\n\n"
                     "SHA-256 fingerprint:\n%1\n\nTrust this certificate for this sandbox only "
                     "if the fingerprint matches the one on the server.")
                      .arg(grouped),
                  tr("&Trust it"));
}

QString SandboxDialog::testOutcome() const {
    return m_outcome->text();
}

void SandboxDialog::accept() {
    QString error;
    if (!validate(&error)) {
        m_outcome->setText(coloured(error.toHtmlEscaped(), Palette::Role::TextError));
        return;
    }
    QDialog::accept();
}

} // namespace sbx
