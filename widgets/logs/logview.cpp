#include "widgets/logs/logview.h"

#include "client/providers/sandboxregistry.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/workspace/tabregistry.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextCursor>
#include <QToolButton>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit(this))
    , m_follow(new QCheckBox(tr("&Follow"), this))
    , m_status(new QLabel(this))
    , m_reconnect(new QToolButton(this)) {
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setMaximumBlockCount(kDefaultMaxLines);
    m_text->setUndoRedoEnabled(false);
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest lines in view (End)"));
    m_reconnect->setText(tr("Reconnect"));
    m_reconnect->hide();
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *wrap = new QCheckBox(tr("&Wrap lines"), this);
    auto *copy = new QToolButton(this);
    copy->setText(tr("Copy all"));
    auto *clearButton = new QToolButton(this);
    clearButton->setText(tr("Clear"));
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_follow);
    bar->addWidget(wrap);
    bar->addWidget(copy);
    bar->addWidget(clearButton);
    bar->addStretch(1);
    bar->addWidget(m_status);
    bar->addWidget(m_reconnect);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);

    connect(wrap, &QCheckBox::toggled, this, [this](bool on) {
        m_text->setLineWrapMode(on ? QPlainTextEdit::WidgetWidth : QPlainTextEdit::NoWrap);
    });
    connect(copy, &QToolButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_text->toPlainText()); });
    connect(clearButton, &QToolButton::clicked, this, &LogView::clear);
    connect(m_reconnect, &QToolButton::clicked, this, [this] {
        m_reconnect->hide();
        m_status->clear();
        Q_EMIT reconnectRequested();
    });
    connect(m_follow, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum());
    });
    // Scrolling up to read (wheel, keys, slider) stops following; back at the end resumes it.
    connect(m_text->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int value) {
        if (!m_appending)
            m_follow->setChecked(value == m_text->verticalScrollBar()->maximum());
    });
    addLocalShortcut(this, QKeySequence(Qt::Key_End), [this] { setFollowing(true); });
}

void LogView::appendText(const QString &text) {
    if (text.isEmpty())
        return;
    QScrollBar *bar = m_text->verticalScrollBar();
    const int keep = bar->value();
    m_appending = true;
    QTextCursor cursor(m_text->document());
    cursor.movePosition(QTextCursor::End);
    // Text arrives in pieces: continue the last line rather than starting a block per piece.
    cursor.insertText(text);
    if (m_follow->isChecked())
        bar->setValue(bar->maximum());
    else
        bar->setValue(keep);
    m_appending = false;
}

void LogView::clear() {
    m_text->clear();
}

void LogView::setEnded(const QString &why) {
    m_status->setText(why);
    m_reconnect->show();
}

void LogView::setFollowing(bool follow) {
    m_follow->setChecked(follow);
}

QString LogView::text() const {
    return m_text->toPlainText();
}

namespace {

// Feeds a LogView from the provider that runs the sandbox; Reconnect opens a fresh follower.
void attachLogs(LogView *view, const WorkspaceContext &ctx) {
    SandboxRegistry *registry = ctx.sandboxes;
    const QString id = ctx.sandboxId;
    auto open = [view, registry, id] {
        SandboxProvider *provider = registry->providerOf(id);
        LogSource *source = provider ? provider->openLog(id, view) : nullptr;
        if (!source) {
            view->setEnded(LogView::tr("The sandbox is gone"));
            return;
        }
        QObject::connect(source, &LogSource::text, view, &LogView::appendText);
        QObject::connect(source, &LogSource::ended, view, [view, source](const QString &why) {
            view->setEnded(why);
            source->deleteLater();
        });
        source->start();
    };
    QObject::connect(view, &LogView::reconnectRequested, view, [view, open] {
        view->clear();
        open();
    });
    open();
}

bool hasLogs(const WorkspaceContext &ctx) {
    const SandboxProvider *provider = ctx.sandboxes->providerOf(ctx.sandboxId);
    return provider && provider->hasLog(ctx.sandboxes->entry(ctx.sandboxId));
}

} // namespace

void registerLogsTab(TabRegistry &registry) {
    WorkspaceTab tab{u"logs"_s, QCoreApplication::translate("sbx::LogView", "Logs"), 60,
                     [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                         auto *view = new LogView(parent);
                         attachLogs(view, ctx);
                         return view;
                     }};
    tab.available = hasLogs;
    tab.icon = u"logs"_s;
    registry.add(std::move(tab));
}

} // namespace sbx
