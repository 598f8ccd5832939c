#include "widgets/traffic/trafficdock.h"

#include "client/traffic/trafficexport.h"
#include "client/traffic/trafficrecorder.h"
#include "models/traffic/trafficfiltermodel.h"
#include "models/traffic/trafficformat.h"
#include "models/traffic/trafficmodel.h"
#include "widgets/common/icons.h"
#include "widgets/common/userprompts.h"

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QPlainTextEdit *makeText(QWidget *parent, const QString &name) {
    auto *text = new QPlainTextEdit(parent);
    text->setObjectName(name);
    text->setReadOnly(true);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    return text;
}

} // namespace

TrafficDock::TrafficDock(TrafficRecorder *recorder, QWidget *parent)
    : QDockWidget(tr("Traffic inspector"), parent)
    , m_recorder(recorder)
    , m_model(new TrafficModel(recorder, this))
    , m_filter(new TrafficFilterModel(m_model, this))
    , m_sandbox(new QComboBox(this))
    , m_method(new QComboBox(this))
    , m_status(new QComboBox(this))
    , m_text(new QLineEdit(this))
    , m_curl(new QPushButton(tr("Copy as &curl"), this))
    , m_har(new QPushButton(tr("Export &HAR…"), this))
    , m_clear(new QPushButton(tr("Clear"), this))
    , m_count(new QLabel(this))
    , m_view(new QTreeView(this))
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_headers(makeText(this, u"trafficHeaders"_s))
    , m_request(makeText(this, u"trafficRequest"_s))
    , m_response(makeText(this, u"trafficResponse"_s))
    , m_notice(new QLabel(this))
    , m_countTimer(new QTimer(this)) {
    setObjectName(u"trafficDock"_s);

    m_sandbox->addItem(tr("All sandboxes"), QString());
    const QStringList names = recorder->sandboxes();
    for (const QString &name : names)
        m_sandbox->addItem(name, name);
    connect(recorder, &TrafficRecorder::sandboxSeen, this,
            [this](const QString &name) { m_sandbox->addItem(name, name); });
    m_method->addItem(tr("All methods"), QByteArray());
    for (const char *method : {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"})
        m_method->addItem(QString::fromLatin1(method), QByteArray(method));
    m_method->addItem(tr("WebSocket"), QByteArray("WS"));
    m_status->addItem(tr("All statuses"), int(TrafficStatusClass::All));
    m_status->addItem(tr("2xx success"), int(TrafficStatusClass::Success));
    m_status->addItem(tr("3xx redirect"), int(TrafficStatusClass::Redirect));
    m_status->addItem(tr("4xx client error"), int(TrafficStatusClass::ClientError));
    m_status->addItem(tr("5xx server error"), int(TrafficStatusClass::ServerError));
    m_status->addItem(tr("Failed"), int(TrafficStatusClass::Failed));
    m_text->setPlaceholderText(tr("Filter: path, status, sandbox…"));
    m_text->setAccessibleName(tr("Traffic filter"));
    m_text->setClearButtonEnabled(true);
    m_curl->setIcon(Icons::icon(u"copy"_s));
    m_curl->setToolTip(tr("The selected request as a curl command; credentials come from "
                          "$SANDBOX_API_KEY, $SANDBOX_JWT or $SANDBOX_TICKET"));
    m_har->setIcon(Icons::icon(u"download"_s));
    m_har->setToolTip(tr("Save the entries shown as a HAR 1.2 file (secrets are not in it)"));
    m_clear->setIcon(Icons::icon(u"delete"_s));
    connect(m_sandbox, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setSandbox(m_sandbox->currentData().toString()); });
    connect(m_method, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setMethod(m_method->currentData().toByteArray()); });
    connect(m_status, &QComboBox::currentIndexChanged, this, [this] {
        m_filter->setStatusClass(static_cast<TrafficStatusClass>(m_status->currentData().toInt()));
    });
    connect(m_text, &QLineEdit::textChanged, m_filter, &TrafficFilterModel::setText);
    connect(m_curl, &QPushButton::clicked, this, &TrafficDock::copyCurl);
    connect(m_har, &QPushButton::clicked, this, &TrafficDock::exportHar);
    connect(m_clear, &QPushButton::clicked, recorder, &TrafficRecorder::clear);

    m_view->setObjectName(u"trafficList"_s);
    m_view->setModel(m_filter);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setTextElideMode(Qt::ElideMiddle);
    QHeaderView *header = m_view->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(TrafficModel::Path, QHeaderView::Stretch);
    const QFontMetrics metrics = m_view->fontMetrics();
    const auto width = [&metrics](const QString &sample) {
        return metrics.horizontalAdvance(sample) + 24;
    };
    header->resizeSection(TrafficModel::Time, width(u"00:00:00.000"_s));
    header->resizeSection(TrafficModel::Sandbox, width(u"Local sandbox"_s));
    header->resizeSection(TrafficModel::Method, width(u"DELETE"_s));
    header->resizeSection(TrafficModel::Status, width(u"failed"_s));
    header->resizeSection(TrafficModel::Duration, width(u"000 ms"_s));
    header->resizeSection(TrafficModel::Sent, width(u"000.0 KiB"_s));
    header->resizeSection(TrafficModel::Received, width(u"000.0 KiB"_s));
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TrafficDock::showSelected);
    // Follow new entries while the list is scrolled to its end.
    connect(m_filter, &QAbstractItemModel::rowsAboutToBeInserted, this, [this] {
        const QScrollBar *bar = m_view->verticalScrollBar();
        m_follow = bar->value() >= bar->maximum();
    });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow)
            m_view->scrollToBottom();
    });
    connect(m_filter, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &topLeft, const QModelIndex &bottomRight) {
                const int row = m_view->currentIndex().row();
                if (row >= topLeft.row() && row <= bottomRight.row())
                    showSelected();
            });
    connect(m_filter, &QAbstractItemModel::modelReset, this, &TrafficDock::showSelected);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (m_shown != 0 && m_model->rowOf(m_shown) < 0)
            showSelected();
    });
    connect(recorder, &TrafficRecorder::detailsDropped, this, &TrafficDock::showSelected);

    m_summary->setObjectName(u"trafficSummary"_s);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_tabs->addTab(m_headers, tr("Headers"));
    m_tabs->addTab(m_request, tr("Request"));
    m_tabs->addTab(m_response, tr("Response"));
    m_notice->setWordWrap(true);
    m_notice->hide();

    auto *filters = new QHBoxLayout;
    filters->addWidget(m_sandbox);
    filters->addWidget(m_method);
    filters->addWidget(m_status);
    filters->addWidget(m_text, 1);
    filters->addWidget(m_count);
    filters->addWidget(m_curl);
    filters->addWidget(m_har);
    filters->addWidget(m_clear);

    auto *details = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_summary);
    detailsLayout->addWidget(m_tabs, 1);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->setObjectName(u"trafficSplitter"_s);
    split->addWidget(m_view);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(filters);
    layout->addWidget(m_notice);
    layout->addWidget(split, 1);
    setWidget(body);

    // Headers and bodies are recorded only while the inspector is open.
    QAction *toggle = toggleViewAction();
    toggle->setText(tr("&Traffic inspector"));
    connect(toggle, &QAction::toggled, recorder, &TrafficRecorder::setKeepDetails);
    connect(toggle, &QAction::toggled, this, [this](bool open) {
        if (open) {
            updateCount();
            m_countTimer->start();
        } else {
            m_countTimer->stop();
        }
    });
    m_countTimer->setInterval(1000);
    connect(m_countTimer, &QTimer::timeout, this, &TrafficDock::updateCount);
    recorder->setKeepDetails(toggle->isChecked());
    showSelected();
    updateCount();
}

TrafficDock::~TrafficDock() = default;

bool TrafficDock::selectRow(int row) {
    const QModelIndex index = m_filter->index(row, 0);
    if (!index.isValid())
        return false;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
    return true;
}

const TrafficEntry *TrafficDock::selected() const {
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? m_filter->entry(current.row()) : nullptr;
}

QString TrafficDock::summaryText() const {
    return m_summary->text();
}

QString TrafficDock::headersText() const {
    return m_headers->toPlainText();
}

QString TrafficDock::requestText() const {
    return m_request->toPlainText();
}

QString TrafficDock::responseText() const {
    return m_response->toPlainText();
}

QString TrafficDock::noticeText() const {
    return m_notice->isHidden() ? QString() : m_notice->text();
}

void TrafficDock::showSelected() {
    const TrafficEntry *e = selected();
    m_shown = e ? e->serial : 0;
    m_curl->setEnabled(e && !curlCommand(*e).isEmpty());
    if (!e) {
        m_summary->setText(tr("Select an entry to see its headers and bodies."));
        m_headers->clear();
        m_request->clear();
        m_response->clear();
        return;
    }
    m_summary->setText(TrafficFormat::summary(*e));
    m_headers->setPlainText(TrafficFormat::headers(*e));
    m_request->setPlainText(TrafficFormat::body(*e, TrafficDirection::Sent));
    m_response->setPlainText(TrafficFormat::body(*e, TrafficDirection::Received));
}

void TrafficDock::updateCount() {
    m_count->setText(tr("%1 of %n entries, %2 kept", nullptr, m_recorder->size())
                         .arg(m_filter->rowCount())
                         .arg(TrafficFormat::size(m_recorder->detailBytes())));
    m_count->setToolTip(tr("At most %n entries are kept; headers and bodies only while the "
                           "inspector is open, %1 at most.",
                           nullptr, m_recorder->limits().maxEntries)
                            .arg(TrafficFormat::size(m_recorder->limits().detailBudget)));
}

QString TrafficDock::curlText() const {
    const TrafficEntry *e = selected();
    return e ? curlCommand(*e) : QString();
}

void TrafficDock::copyCurl() {
    const QString text = curlText();
    if (text.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(text);
    m_notice->setText(tr("Copied the request as a curl command. Set SANDBOX_API_KEY, "
                         "SANDBOX_JWT or SANDBOX_TICKET before you run it."));
    m_notice->show();
}

bool TrafficDock::exportHar() {
    UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
    const std::optional<QString> path =
        prompts->askSaveFile(this, tr("Export HAR"), u"sandbox-traffic.har"_s);
    if (!path)
        return false;
    const QList<TrafficEntry> entries = m_filter->shownEntries();
    QSaveFile file(*path);
    const QString version = QCoreApplication::applicationVersion();
    const bool ok = file.open(QIODevice::WriteOnly) &&
                    file.write(harDocument(entries, version.isEmpty() ? u"0.1"_s : version)) >= 0 &&
                    file.commit();
    m_notice->setText(ok ? tr("Exported %n entries to %1.", nullptr, int(entries.size())).arg(*path)
                         : tr("Could not write %1: %2").arg(*path, file.errorString()));
    m_notice->show();
    return ok;
}

} // namespace sbx
