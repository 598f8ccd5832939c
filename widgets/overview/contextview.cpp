#include "widgets/overview/contextview.h"

#include "client/api/sandboxjobs.h"
#include "widgets/common/widgethelpers.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTime>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

const QList<QPair<QString, const char *>> &systemFields() {
    static const QList<QPair<QString, const char *>> fields{
        {u"os"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Operating system")},
        {u"arch"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Architecture")},
        {u"user"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "User")},
        {u"home"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Home")},
        {u"workspace"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Workspace")},
        {u"timezone"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Time zone")},
        {u"ports"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Occupied ports")},
        {u"extensions"_s, QT_TRANSLATE_NOOP("sbx::ContextView", "Extensions")},
    };
    return fields;
}

QTreeWidget *makeTree(const QString &name, const QStringList &headers, QWidget *parent) {
    auto *tree = new QTreeWidget(parent);
    tree->setAccessibleName(name);
    tree->setHeaderLabels(headers);
    tree->setRootIsDecorated(true);
    tree->setAlternatingRowColors(true);
    tree->setUniformRowHeights(true);
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree->header()->setStretchLastSection(true);
    tree->setMinimumHeight(180);
    return tree;
}

} // namespace

ContextView::ContextView(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_title(new QLabel(this))
    , m_updated(new QLabel(this))
    , m_error(makeErrorBox(this))
    , m_refresh(new QPushButton(tr("Refresh"), this))
    , m_body(new QWidget(this))
    , m_runtimes(makeTree(tr("Runtimes"), {tr("Runtime"), tr("Version"), tr("Aliases")}, m_body))
    , m_tools(makeTree(tr("Tools"), {tr("Tool"), tr("Description")}, m_body)) {
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setText(tr("Loading…"));
    m_updated->setStyleSheet(u"color: palette(mid);"_s);
    m_refresh->setToolTip(tr("Read the context again (F5)"));
    connect(m_refresh, &QPushButton::clicked, this, &ContextView::refresh);
    addLocalShortcut(this, QKeySequence::Refresh, tr("Refresh the overview"),
                     [this] { refresh(); });

    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_updated);
    header->addWidget(m_refresh);

    auto *systemBox = new QGroupBox(tr("System"), m_body);
    auto *form = new QFormLayout(systemBox);
    for (const auto &[key, label] : systemFields()) {
        auto *value = new QLabel(systemBox);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        value->setObjectName(u"field_"_s + key);
        m_fields.insert(key, value);
        form->addRow(tr(label) + QLatin1Char(':'), value);
    }
    auto *runtimeBox = new QGroupBox(tr("Runtimes"), m_body);
    (new QVBoxLayout(runtimeBox))->addWidget(m_runtimes);
    auto *toolsBox = new QGroupBox(tr("Available tools"), m_body);
    (new QVBoxLayout(toolsBox))->addWidget(m_tools);

    auto *columns = new QHBoxLayout;
    columns->addWidget(runtimeBox, 2);
    columns->addWidget(toolsBox, 3);
    auto *bodyLayout = new QVBoxLayout(m_body);
    bodyLayout->setContentsMargins(0, 0, 0, 0);
    bodyLayout->addWidget(systemBox);
    bodyLayout->addLayout(columns, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_error);
    layout->addWidget(m_body, 1);
    m_body->setEnabled(false);
}

ContextView::~ContextView() {
    if (m_job)
        m_job->abort();
}

void ContextView::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (!m_loaded && !m_job)
        refresh();
}

void ContextView::refresh() {
    if (!m_client || m_job)
        return;
    m_refresh->setEnabled(false);
    m_updated->setText(tr("Reading…"));
    auto *job = new GetContextJob(m_client);
    m_job = job;
    connect(job, &GetContextJob::succeeded, this, &ContextView::showContext);
    connect(job, &ApiJob::failed, this, &ContextView::showError);
    connect(job, &ApiJob::finished, this, [this] { m_refresh->setEnabled(true); });
    job->start();
}

void ContextView::setSandboxName(const QString &name) {
    m_name = name;
    if (m_loaded)
        updateTitle();
}

QString ContextView::title() const {
    return m_title->text();
}

void ContextView::updateTitle() {
    // The name the person gave it first; the server's version beside it, not instead of it.
    if (m_name.isEmpty())
        m_title->setText(tr("Sandbox %1").arg(m_version));
    else if (m_version.isEmpty())
        m_title->setText(m_name);
    else
        m_title->setText(
            tr("%1 (version %2)", "sandbox name, its server's version").arg(m_name, m_version));
}

QString ContextView::fieldText(const QString &key) const {
    const QLabel *label = m_fields.value(key);
    return label ? label->text() : QString();
}

void ContextView::showContext(const SandboxContext &c) {
    m_loaded = true;
    m_error->hide();
    m_body->setEnabled(true);
    m_version = c.version;
    updateTitle();
    m_updated->setText(tr("Updated %1").arg(QTime::currentTime().toString(u"HH:mm:ss"_s)));
    const QString dash = u"—"_s;
    auto orDash = [&dash](const QString &s) {
        return s.isEmpty() ? dash : s;
    };
    m_fields[u"os"_s]->setText(
        orDash(QStringList{c.os, c.osVersion}.join(QLatin1Char(' ')).trimmed()));
    m_fields[u"arch"_s]->setText(orDash(c.arch));
    m_fields[u"user"_s]->setText(orDash(c.user));
    m_fields[u"home"_s]->setText(orDash(c.homeDir));
    m_fields[u"workspace"_s]->setText(orDash(c.workspace));
    m_fields[u"timezone"_s]->setText(orDash(c.timezone));
    QStringList ports = c.occupiedPorts;
    std::sort(ports.begin(), ports.end(),
              [](const QString &a, const QString &b) { return a.toInt() < b.toInt(); });
    m_fields[u"ports"_s]->setText(orDash(ports.join(u", "_s)));
    m_fields[u"extensions"_s]->setText(c.extensions.isEmpty() ? tr("none (standard AIO)")
                                                              : c.extensions.join(u", "_s));

    m_runtimes->clear();
    const QList<QPair<QString, QList<ToolSpec>>> groups{{u"Python"_s, c.python},
                                                        {u"Node.js"_s, c.nodejs}};
    for (const auto &[name, specs] : groups) {
        auto *group =
            new QTreeWidgetItem(m_runtimes, {name, specs.isEmpty() ? tr("not found") : QString()});
        for (const ToolSpec &spec : specs)
            new QTreeWidgetItem(group, {spec.bin, spec.ver, spec.alias.join(u", "_s)});
        group->setExpanded(true);
    }
    m_tools->clear();
    for (const ToolCategory &category : c.utils) {
        auto *group = new QTreeWidgetItem(
            m_tools, {category.category, QString::number(category.tools.size())});
        for (const AvailableTool &tool : category.tools)
            new QTreeWidgetItem(group, {tool.name, tool.description});
        group->setExpanded(true);
    }
    Q_EMIT loaded();
}

void ContextView::showError(const Status &status) {
    m_updated->setText(QString());
    if (!m_loaded)
        m_title->setText(tr("Context unavailable"));
    m_error->setText(tr("Could not read the sandbox's context: %1").arg(status.message));
    m_error->show();
    Q_EMIT loadFailed(status.message);
}

} // namespace sbx
