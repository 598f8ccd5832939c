#include "app/enginesdialog.h"

#include "client/providers/engine/enginelistmodel.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/engine/sshlink.h"
#include "widgets/common/userprompts.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

// The fields of one engine to add; the address decides which of them apply.
class AddEngineDialog final : public QDialog {
public:
    explicit AddEngineDialog(QWidget *parent)
        : QDialog(parent) {
        setWindowTitle(EnginesDialog::tr("Add a container engine"));
        auto *form = new QFormLayout;
        m_address->setPlaceholderText(u"ssh://user@host  ·  tcp://host:2376"_s);
        m_sshOptions->setPlaceholderText(u"-i ~/.ssh/build_server"_s);
        m_ca->setPlaceholderText(
            EnginesDialog::tr("ca.pem: the CA that signed the engine's certificate"));
        m_cert->setPlaceholderText(
            EnginesDialog::tr("cert.pem: this console's client certificate"));
        m_key->setPlaceholderText(EnginesDialog::tr("key.pem: its key"));
        form->addRow(EnginesDialog::tr("&Name:"), m_name);
        form->addRow(EnginesDialog::tr("&Address:"), m_address);
        form->addRow(EnginesDialog::tr("SSH &options:"), m_sshOptions);
        form->addRow(EnginesDialog::tr("&CA file:"), m_ca);
        form->addRow(EnginesDialog::tr("C&ertificate:"), m_cert);
        form->addRow(EnginesDialog::tr("&Key:"), m_key);
        form->addRow(QString(), m_plain);
        m_plain->setText(
            EnginesDialog::tr("Allow plain TCP to another host (anyone on the way could drive "
                              "the engine)"));
        auto *note = new QLabel(
            EnginesDialog::tr("Over SSH the console uses your keys, agent and known_hosts "
                              "and never asks for or keeps a password."),
            this);
        note->setWordWrap(true);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
        buttons->button(QDialogButtonBox::Ok)->setText(EnginesDialog::tr("Add"));
        connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
        auto *layout = new QVBoxLayout(this);
        layout->addLayout(form);
        layout->addWidget(note);
        layout->addWidget(buttons);
        resize(560, sizeHint().height());
    }

    EngineEndpoint endpoint() const {
        EngineEndpoint e;
        e.name = m_name->text().trimmed();
        e.host = m_address->text().trimmed();
        e.sshOptions = QProcess::splitCommand(m_sshOptions->text());
        e.caFile = m_ca->text().trimmed();
        e.certFile = m_cert->text().trimmed();
        e.keyFile = m_key->text().trimmed();
        e.tls = !e.caFile.isEmpty() || !e.certFile.isEmpty();
        e.plainConfirmed = m_plain->isChecked();
        return e;
    }

private:
    QLineEdit *m_name = new QLineEdit(this);
    QLineEdit *m_address = new QLineEdit(this);
    QLineEdit *m_sshOptions = new QLineEdit(this);
    QLineEdit *m_ca = new QLineEdit(this);
    QLineEdit *m_cert = new QLineEdit(this);
    QLineEdit *m_key = new QLineEdit(this);
    QCheckBox *m_plain = new QCheckBox(this);
};

} // namespace

EnginesDialog::EnginesDialog(EngineConnections *engines, UserPrompts *prompts, QWidget *parent)
    : QDialog(parent)
    , m_engines(engines)
    , m_prompts(prompts)
    , m_model(new EngineListModel(engines, this))
    , m_view(new QTableView(this))
    , m_detail(new QLabel(this))
    , m_remove(new QPushButton(tr("&Remove"), this))
    , m_trust(new QPushButton(tr("&Trust host key…"), this))
    , m_again(new QPushButton(tr("&Connect again"), this))
    , m_tick(new QTimer(this)) {
    setWindowTitle(tr("Container engines"));
    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(EngineListModel::Address,
                                                     QHeaderView::Stretch);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->setColumnWidth(EngineListModel::Name, 220);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *add = new QPushButton(tr("&Add…"), this);
    auto *reload = new QPushButton(tr("Re&read contexts"), this);
    reload->setToolTip(tr("Read the Docker CLI's contexts again (~/.docker/contexts)"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(add, QDialogButtonBox::ActionRole);
    buttons->addButton(m_remove, QDialogButtonBox::ActionRole);
    buttons->addButton(m_trust, QDialogButtonBox::ActionRole);
    buttons->addButton(m_again, QDialogButtonBox::ActionRole);
    buttons->addButton(reload, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(add, &QPushButton::clicked, this, &EnginesDialog::addEngine);
    connect(m_remove, &QPushButton::clicked, this, &EnginesDialog::removeEngine);
    connect(m_trust, &QPushButton::clicked, this, &EnginesDialog::trustHostKey);
    connect(m_again, &QPushButton::clicked, this, &EnginesDialog::connectAgain);
    connect(reload, &QPushButton::clicked, engines, &EngineConnections::reload);

    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("Sandboxes of every engine that is on appear in the list, "
                                "labelled by engine."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_detail);
    if (!engines->contextProblems().isEmpty()) {
        auto *problems = new QLabel(engines->contextProblems().join(u'\n'), this);
        problems->setWordWrap(true);
        layout->addWidget(problems);
    }
    layout->addWidget(buttons);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &EnginesDialog::updateButtons);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &EnginesDialog::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &EnginesDialog::updateButtons);
    // Round trips change with every listing, without a signal.
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, m_model, &EngineListModel::reload);
    m_tick->start();
    m_view->selectRow(0);
    updateButtons();
    resize(820, 360);
}

int EnginesDialog::currentRow() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void EnginesDialog::updateButtons() {
    const int row = currentRow();
    const EngineChoice choice = row >= 0 ? m_model->choice(row) : EngineChoice();
    EngineSandboxes *provider =
        row >= 0 && choice.enabled ? m_engines->provider(choice.endpoint.name) : nullptr;
    m_remove->setEnabled(row >= 0 && choice.origin == EngineChoice::Origin::Added);
    m_trust->setEnabled(provider &&
                        provider->engineState() == EngineSandboxes::EngineState::HostKeyUnknown);
    m_again->setEnabled(provider && !provider->isEngineReachable());
    m_detail->setText(row >= 0 ? m_model->statusText(row) : QString());
}

void EnginesDialog::addEngine() {
    AddEngineDialog dialog(this);
    while (dialog.exec() == QDialog::Accepted) {
        QString why;
        if (m_engines->add(dialog.endpoint(), &why))
            return;
        QMessageBox::warning(this, tr("Add a container engine"), why);
    }
}

void EnginesDialog::removeEngine() {
    const int row = currentRow();
    if (row < 0)
        return;
    const QString name = m_model->choice(row).endpoint.name;
    if (m_prompts->confirm(
            this, tr("Remove engine"),
            tr("Remove %1 from the list? Its sandboxes keep running there.").arg(name),
            tr("Remove")))
        m_engines->remove(name);
}

void EnginesDialog::trustHostKey() {
    const int row = currentRow();
    EngineSandboxes *provider =
        row >= 0 ? m_engines->provider(m_model->choice(row).endpoint.name) : nullptr;
    SshLink *link = provider ? provider->sshLink() : nullptr;
    if (!link || link->state() != SshLink::State::HostKeyUnknown)
        return;
    const QString text =
        tr("%1 is not in your known_hosts yet. It presents:\n\n%2\n\nCompare the fingerprint "
           "with the one the host's owner gives you (ssh-keygen -lf on the host's key). Trust "
           "it and add it to known_hosts?")
            .arg(link->endpoint().where(), link->hostKeyFingerprints().join(u'\n'));
    if (m_prompts->confirm(this, tr("Unknown host key"), text, tr("Trust")))
        link->trustHostKey();
}

void EnginesDialog::connectAgain() {
    const int row = currentRow();
    EngineSandboxes *provider =
        row >= 0 ? m_engines->provider(m_model->choice(row).endpoint.name) : nullptr;
    if (provider)
        provider->reconnect();
}

} // namespace sbx
