#include "widgets/logs/logview.h"

#include "client/providers/engine/enginelogs.h"
#include "client/providers/engine/enginesandboxes.h"
#include "client/providers/localsandboxes.h"
#include "models/sandboxlistmodel.h"
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

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_text(new QPlainTextEdit(this))
    , m_follow(new QCheckBox(tr("&Follow"), this))
    , m_status(new QLabel(this))
    , m_reconnect(new QToolButton(this)) {
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setMaximumBlockCount(defaultMaxLines);
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

// Feeds a LogView from the provider that runs the sandbox.
void attachLogs(LogView *view, const WorkspaceContext &ctx) {
    const QString id = ctx.sandboxId;
    SandboxProvider *provider = ctx.sandboxes->provider(id.section(QLatin1Char(':'), 0, 0));
    if (auto *local = qobject_cast<LocalSandboxes *>(provider)) {
        view->appendText(local->log(id));
        QObject::connect(local, &LocalSandboxes::logAppended, view,
                         [view, id](const QString &from, const QString &text) {
                             if (from == id)
                                 view->appendText(text);
                         });
        return;
    }
    if (auto *engine = qobject_cast<EngineSandboxes *>(provider)) {
        auto open = [view, engine, id] {
            EngineLogStream *stream = engine->openLogs(id, 500, view);
            if (!stream) {
                view->setEnded(LogView::tr("The container is gone"));
                return;
            }
            QObject::connect(stream, &EngineLogStream::text, view, &LogView::appendText);
            QObject::connect(stream, &EngineLogStream::ended, view,
                             [view, stream](const QString &why) {
                                 view->setEnded(why);
                                 stream->deleteLater();
                             });
            stream->start();
        };
        QObject::connect(view, &LogView::reconnectRequested, view, [view, open] {
            view->clear();
            open();
        });
        open();
    }
}

bool hasLogs(const WorkspaceContext &ctx) {
    const QString provider = ctx.sandboxId.section(QLatin1Char(':'), 0, 0);
    return provider == QLatin1String("local") || provider == QLatin1String("engine");
}

} // namespace

void registerLogsTab(TabRegistry &registry) {
    WorkspaceTab tab{QStringLiteral("logs"), QCoreApplication::translate("LogView", "Logs"), 60,
                     [](const WorkspaceContext &ctx, QWidget *parent) -> QWidget * {
                         auto *view = new LogView(parent);
                         attachLogs(view, ctx);
                         return view;
                     }};
    tab.available = hasLogs;
    registry.add(std::move(tab));
}
