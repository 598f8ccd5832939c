#include "widgets/llms/llmstxtview.h"

#include "client/api/sandboxjobs.h"
#include "models/palette.h"
#include "widgets/common/widgethelpers.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace sbx {

LlmsTxtView::LlmsTxtView(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_browser(new QTextBrowser(this))
    , m_error(makeErrorBox(this))
    , m_search(new QLineEdit(this))
    , m_matches(new QLabel(this))
    , m_raw(new QCheckBox(tr("Plain text"), this))
    , m_refresh(new QPushButton(tr("Refresh"), this)) {
    m_browser->setOpenLinks(false);
    m_browser->setPlaceholderText(tr("Loading /llms.txt…"));
    m_search->setPlaceholderText(tr("Find in llms.txt (Ctrl+F)"));
    m_browser->setAccessibleName(tr("llms.txt"));
    m_search->setAccessibleName(tr("Find in llms.txt"));
    m_search->setClearButtonEnabled(true);
    auto *copy = new QPushButton(tr("Copy all"), this);
    m_raw->setToolTip(tr("Show the file exactly as the sandbox serves it"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    bar->addWidget(m_matches);
    bar->addWidget(m_raw);
    bar->addWidget(copy);
    bar->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_error);
    layout->addWidget(m_browser, 1);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &term) { find(term); });
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    connect(m_raw, &QCheckBox::toggled, this, &LlmsTxtView::render);
    connect(m_refresh, &QPushButton::clicked, this, &LlmsTxtView::refresh);
    connect(copy, &QPushButton::clicked, this,
            [this] { QGuiApplication::clipboard()->setText(m_text); });
    addLocalShortcut(this, QKeySequence::Find, tr("Find"), [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    addLocalShortcut(this, QKeySequence::FindNext, tr("Find next"), [this] { findNext(false); });
    addLocalShortcut(this, QKeySequence::FindPrevious, tr("Find previous"),
                     [this] { findNext(true); });
    addLocalShortcut(this, QKeySequence::Refresh, tr("Reload llms.txt"), [this] { refresh(); });
}

LlmsTxtView::~LlmsTxtView() {
    if (m_job)
        m_job->abort();
}

void LlmsTxtView::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    if (!m_loaded && !m_job)
        refresh();
}

void LlmsTxtView::refresh() {
    if (!m_client || m_job)
        return;
    m_refresh->setEnabled(false);
    auto *job = new GetLlmsTxtJob(m_client);
    m_job = job;
    connect(job, &GetLlmsTxtJob::succeeded, this, [this](const QString &text) {
        m_text = text;
        m_loaded = true;
        m_error->hide();
        render();
        Q_EMIT loaded();
    });
    connect(job, &ApiJob::failed, this, &LlmsTxtView::showError);
    connect(job, &ApiJob::finished, this, [this] { m_refresh->setEnabled(true); });
    job->start();
}

void LlmsTxtView::render() {
    const int scroll = m_browser->verticalScrollBar() ? m_browser->verticalScrollBar()->value() : 0;
    if (m_raw->isChecked()) {
        m_browser->setCurrentFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        m_browser->setPlainText(m_text);
    } else {
        // llms.txt is Markdown by convention; CommonMark rendering keeps headings and lists
        // readable.
        m_browser->document()->setMarkdown(m_text, QTextDocument::MarkdownDialectGitHub);
    }
    m_browser->verticalScrollBar()->setValue(scroll);
    find(m_search->text());
}

int LlmsTxtView::find(const QString &term) {
    QList<QTextEdit::ExtraSelection> selections;
    if (!term.isEmpty()) {
        QTextDocument *doc = m_browser->document();
        QTextCursor cursor(doc);
        QTextCharFormat highlight;
        highlight.setBackground(Palette::color(Palette::Role::SearchMatch));
        while (true) {
            cursor = doc->find(term, cursor);
            if (cursor.isNull())
                break;
            selections.append({cursor, highlight});
        }
    }
    m_browser->setExtraSelections(selections);
    m_matches->setText(term.isEmpty()         ? QString()
                       : selections.isEmpty() ? tr("no match")
                                              : tr("%1 matches").arg(selections.size()));
    if (!selections.isEmpty()) {
        QTextCursor first = selections.first().cursor;
        m_browser->setTextCursor(first);
        m_browser->ensureCursorVisible();
    }
    return static_cast<int>(selections.size());
}

void LlmsTxtView::findNext(bool backward) {
    const QString term = m_search->text();
    if (term.isEmpty())
        return;
    QTextDocument::FindFlags flags;
    if (backward)
        flags |= QTextDocument::FindBackward;
    if (!m_browser->find(term, flags)) {
        // Wrap around, as every editor's find does.
        QTextCursor cursor = m_browser->textCursor();
        cursor.movePosition(backward ? QTextCursor::End : QTextCursor::Start);
        m_browser->setTextCursor(cursor);
        m_browser->find(term, flags);
    }
}

void LlmsTxtView::showError(const Status &status) {
    m_error->setText(tr("Could not read /llms.txt: ") + status.message);
    m_error->show();
    Q_EMIT loadFailed(status.message);
}

} // namespace sbx
