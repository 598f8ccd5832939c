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

namespace {

const QList<QPair<QString, QString>> &systemFields() {
    static const QList<QPair<QString, QString>> fields{
        {QStringLiteral("os"), QStringLiteral("Operating system")},
        {QStringLiteral("arch"), QStringLiteral("Architecture")},
        {QStringLiteral("user"), QStringLiteral("User")},
        {QStringLiteral("home"), QStringLiteral("Home")},
        {QStringLiteral("workspace"), QStringLiteral("Workspace")},
        {QStringLiteral("timezone"), QStringLiteral("Time zone")},
        {QStringLiteral("ports"), QStringLiteral("Occupied ports")},
        {QStringLiteral("extensions"), QStringLiteral("Extensions")},
    };
    return fields;
}

QTreeWidget *makeTree(const QStringList &headers, QWidget *parent) {
    auto *tree = new QTreeWidget(parent);
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
    , m_refresh(new QPushButton(QStringLiteral("Refresh"), this))
    , m_body(new QWidget(this))
    , m_runtimes(makeTree(
          {QStringLiteral("Runtime"), QStringLiteral("Version"), QStringLiteral("Aliases")},
          m_body))
    , m_tools(makeTree({QStringLiteral("Tool"), QStringLiteral("Description")}, m_body)) {
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_title->setText(QStringLiteral("Loading…"));
    m_updated->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_refresh->setToolTip(QStringLiteral("Read the context again (F5)"));
    connect(m_refresh, &QPushButton::clicked, this, &ContextView::refresh);
    addLocalShortcut(this, QKeySequence::Refresh, [this] { refresh(); });

    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_updated);
    header->addWidget(m_refresh);

    auto *systemBox = new QGroupBox(QStringLiteral("System"), m_body);
    auto *form = new QFormLayout(systemBox);
    for (const auto &[key, label] : systemFields()) {
        auto *value = new QLabel(systemBox);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        value->setObjectName(QStringLiteral("field_") + key);
        m_fields.insert(key, value);
        form->addRow(label + QLatin1Char(':'), value);
    }
    auto *runtimeBox = new QGroupBox(QStringLiteral("Runtimes"), m_body);
    (new QVBoxLayout(runtimeBox))->addWidget(m_runtimes);
    auto *toolsBox = new QGroupBox(QStringLiteral("Available tools"), m_body);
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
    m_updated->setText(QStringLiteral("Reading…"));
    auto *job = new GetContextJob(m_client);
    m_job = job;
    connect(job, &GetContextJob::succeeded, this, &ContextView::showContext);
    connect(job, &ApiJob::failed, this, &ContextView::showError);
    connect(job, &ApiJob::finished, this, [this] { m_refresh->setEnabled(true); });
    job->start();
}

QString ContextView::fieldText(const QString &key) const {
    const QLabel *label = m_fields.value(key);
    return label ? label->text() : QString();
}

void ContextView::showContext(const SandboxContext &c) {
    m_loaded = true;
    m_error->hide();
    m_body->setEnabled(true);
    m_title->setText(QStringLiteral("Sandbox %1").arg(c.version));
    m_updated->setText(QStringLiteral("Updated %1")
                           .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss"))));
    const QString dash = QStringLiteral("—");
    auto orDash = [&dash](const QString &s) {
        return s.isEmpty() ? dash : s;
    };
    m_fields[QStringLiteral("os")]->setText(
        orDash(QStringList{c.os, c.osVersion}.join(QLatin1Char(' ')).trimmed()));
    m_fields[QStringLiteral("arch")]->setText(orDash(c.arch));
    m_fields[QStringLiteral("user")]->setText(orDash(c.user));
    m_fields[QStringLiteral("home")]->setText(orDash(c.homeDir));
    m_fields[QStringLiteral("workspace")]->setText(orDash(c.workspace));
    m_fields[QStringLiteral("timezone")]->setText(orDash(c.timezone));
    QStringList ports = c.occupiedPorts;
    std::sort(ports.begin(), ports.end(),
              [](const QString &a, const QString &b) { return a.toInt() < b.toInt(); });
    m_fields[QStringLiteral("ports")]->setText(orDash(ports.join(QStringLiteral(", "))));
    m_fields[QStringLiteral("extensions")]->setText(c.extensions.isEmpty()
                                                        ? QStringLiteral("none (standard AIO)")
                                                        : c.extensions.join(QStringLiteral(", ")));

    m_runtimes->clear();
    const QList<QPair<QString, QList<ToolSpec>>> groups{{QStringLiteral("Python"), c.python},
                                                        {QStringLiteral("Node.js"), c.nodejs}};
    for (const auto &[name, specs] : groups) {
        auto *group = new QTreeWidgetItem(
            m_runtimes, {name, specs.isEmpty() ? QStringLiteral("not found") : QString()});
        for (const ToolSpec &spec : specs)
            new QTreeWidgetItem(group, {spec.bin, spec.ver, spec.alias.join(QStringLiteral(", "))});
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
        m_title->setText(QStringLiteral("Context unavailable"));
    m_error->setText(QStringLiteral("Could not read the sandbox's context: ") + status.message);
    m_error->show();
    Q_EMIT loadFailed(status.message);
}
