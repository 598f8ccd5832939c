#include "widgets/logs/logview.h"

#include "client/providers/sandboxregistry.h"
#include "models/logs/logdata.h"
#include "models/logs/logexport.h"
#include "models/logs/logsearch.h"
#include "models/logs/logstructure.h"
#include "models/logs/logtext.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/logs/loglinesview.h"
#include "widgets/logs/logoverview.h"
#include "widgets/workspace/tabregistry.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kRefreshMs = 30;

QCheckBox *optionBox(const QString &text, const QString &tip, QWidget *parent) {
    auto *box = new QCheckBox(text, parent);
    box->setToolTip(tip);
    return box;
}

} // namespace

LogView::LogView(QWidget *parent)
    : QWidget(parent)
    , m_data(new LogData(this))
    , m_search(new LogSearch(m_data, this))
    , m_filter(new LogSearch(m_data, this))
    , m_errors(new LogSearch(m_data, this))
    , m_export(new LogExport(this))
    , m_lines(new LogLinesView(m_data, this))
    , m_filterLines(new LogLinesView(m_data, this))
    , m_overview(new LogOverview(m_data, this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_filterPane(new QWidget(this))
    , m_findField(new QLineEdit(this))
    , m_findRegex(optionBox(tr("Re&gex"), tr("The search is a regular expression"), this))
    , m_findCase(optionBox(tr("&Case"), tr("Upper and lower case differ"), this))
    , m_findCount(new QLabel(this))
    , m_filterField(new QLineEdit(this))
    , m_filterRegex(optionBox(tr("Regex"), tr("The filter is a regular expression"), this))
    , m_filterCase(optionBox(tr("Case"), tr("Upper and lower case differ"), this))
    , m_filterInvert(optionBox(tr("&Invert"), tr("Show the lines that do not match"), this))
    , m_filterLevel(new QComboBox(this))
    , m_filterButton(new QToolButton(this))
    , m_followButton(new QToolButton(this))
    , m_relativeButton(new QToolButton(this))
    , m_detail(new QPlainTextEdit(this))
    , m_status(new QLabel(this))
    , m_reconnect(new QToolButton(this))
    , m_refresh(new QTimer(this)) {
    m_findField->setPlaceholderText(tr("Search the whole log (F3 next, Shift+F3 previous)"));
    m_findField->setClearButtonEnabled(true);
    m_findField->setAccessibleName(tr("Search the log"));
    m_filterField->setAccessibleName(tr("Filter the log"));
    m_filterField->setPlaceholderText(tr("Filter: show only the lines that match"));
    m_filterField->setClearButtonEnabled(true);
    auto *previous = new QToolButton(this);
    previous->setText(tr("Previous"));
    previous->setToolTip(tr("Previous match (Shift+F3)"));
    auto *next = new QToolButton(this);
    next->setText(tr("Next"));
    next->setToolTip(tr("Next match (F3)"));
    m_filterButton->setText(tr("&Filter"));
    m_filterButton->setCheckable(true);
    m_filterButton->setToolTip(tr("A pane with only the lines that match a filter (Ctrl+Shift+F)"));
    m_followButton->setText(tr("Follow"));
    m_followButton->setCheckable(true);
    m_followButton->setChecked(true);
    m_followButton->setToolTip(tr("Keep the newest lines in view (End)"));
    m_relativeButton->setText(tr("Relative time"));
    m_relativeButton->setCheckable(true);
    m_relativeButton->setToolTip(
        tr("Beside each line, its time since the current line's (Ctrl+T goes to a time)"));
    m_detail->setReadOnly(true);
    m_detail->setFont(m_lines->font());
    m_detail->setPlaceholderText(tr("The current line, when it is JSON"));
    m_detail->hide();
    m_reconnect->setText(tr("Reconnect"));
    m_reconnect->hide();
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Squeezed by its neighbours (Runs' list, a narrow window) it would shrink to a letter.
    m_findField->setMinimumWidth(fontMetrics().horizontalAdvance(u"Search the whole log (F3)"_s));
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_findField, 1);
    bar->addWidget(m_findRegex);
    bar->addWidget(m_findCase);
    bar->addWidget(previous);
    bar->addWidget(next);
    bar->addWidget(m_findCount);
    bar->addSpacing(12);
    bar->addWidget(m_filterButton);
    bar->addWidget(m_relativeButton);
    bar->addWidget(m_followButton);

    auto *filterBar = new QHBoxLayout;
    filterBar->setContentsMargins(0, 0, 0, 0);
    filterBar->addWidget(m_filterField, 1);
    filterBar->addWidget(m_filterRegex);
    filterBar->addWidget(m_filterCase);
    filterBar->addWidget(m_filterInvert);
    filterBar->addWidget(m_filterLevel);
    auto *filterLayout = new QVBoxLayout(m_filterPane);
    filterLayout->setContentsMargins(0, 0, 0, 0);
    filterLayout->addLayout(filterBar);
    filterLayout->addWidget(m_filterLines, 1);
    m_filterLines->setLineSet(&m_filter->matches());
    // Levels by what they keep: the level and worse.
    m_filterLevel->addItem(tr("Any level"), int(LogLevel::None));
    m_filterLevel->addItem(tr("Debug and worse"), int(LogLevel::Debug));
    m_filterLevel->addItem(tr("Info and worse"), int(LogLevel::Info));
    m_filterLevel->addItem(tr("Warnings and errors"), int(LogLevel::Warning));
    m_filterLevel->addItem(tr("Errors only"), int(LogLevel::Error));
    m_filterLevel->setToolTip(tr("Keep only lines of this level or worse"));
    m_lines->setBookmarks(&m_bookmarks);
    m_filterLines->setBookmarks(&m_bookmarks);
    auto *linesWithRuler = new QWidget(this);
    auto *rulerLayout = new QHBoxLayout(linesWithRuler);
    rulerLayout->setContentsMargins(0, 0, 0, 0);
    rulerLayout->setSpacing(0);
    rulerLayout->addWidget(m_lines, 1);
    rulerLayout->addWidget(m_overview);
    m_overview->setMarks(&m_search->matches(), &m_errors->matches());
    m_splitter->addWidget(linesWithRuler);
    m_splitter->addWidget(m_detail);
    m_splitter->addWidget(m_filterPane);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setStretchFactor(2, 2);
    m_filterPane->hide();

    auto *statusBar = new QHBoxLayout;
    statusBar->addWidget(m_status, 1);
    statusBar->addWidget(m_reconnect);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_splitter, 1);
    layout->addLayout(statusBar);

    // The log.
    // A log that grows fast is shown at most every kRefreshMs: painting per piece of bytes
    // would cap how fast lines can arrive.
    m_refresh->setSingleShot(true);
    connect(m_refresh, &QTimer::timeout, m_overview, qOverload<>(&QWidget::update));
    m_refresh->setInterval(kRefreshMs);
    connect(m_refresh, &QTimer::timeout, this, [this] {
        m_lines->rowsChanged();
        updateStatus();
    });
    connect(m_data, &LogData::grew, this, [this](qint64, qint64 lineCount) {
        if (!m_refresh->isActive())
            m_refresh->start();
        if (m_restoreLine >= 0 && lineCount > m_restoreLine) {
            goToLine(std::exchange(m_restoreLine, -1));
        }
    });
    connect(m_data, &LogData::indexProgress, this, [this](qint64 done, qint64 total) {
        m_indexPercent = total > 0 && done < total ? done * 100 / total : -1;
        updateStatus();
    });
    connect(m_data, &LogData::reset, this, [this](const QString &why) {
        m_notice = why;
        m_lines->resetView();
        m_filterLines->resetView();
        updateStatus();
    });
    connect(m_data, &LogData::failed, this, [this](const QString &message) {
        m_notice = message;
        updateStatus();
    });

    // Search.
    const auto runFind = [this] {
        find(queryFrom(m_findField, m_findRegex, m_findCase, false));
    };
    connect(m_findField, &QLineEdit::textChanged, this, runFind);
    connect(m_findRegex, &QCheckBox::toggled, this, runFind);
    connect(m_findCase, &QCheckBox::toggled, this, runFind);
    connect(m_findField, &QLineEdit::returnPressed, this, &LogView::findNext);
    connect(next, &QToolButton::clicked, this, &LogView::findNext);
    connect(previous, &QToolButton::clicked, this, &LogView::findPrevious);
    connect(m_search, &LogSearch::matchesChanged, this, &LogView::updateStatus);
    connect(m_search, &LogSearch::matchesChanged, m_overview, qOverload<>(&QWidget::update));
    connect(m_errors, &LogSearch::matchesChanged, m_overview, qOverload<>(&QWidget::update));
    connect(m_overview, &LogOverview::lineClicked, this, &LogView::goToLine);
    // The ruler shows the errors of the whole log: found once the log is read.
    connect(m_data, &LogData::indexed, this, &LogView::startErrorScan);
    connect(m_search, &LogSearch::progress, this, &LogView::updateStatus);
    connect(m_search, &LogSearch::finished, this, &LogView::updateStatus);

    // Filter.
    const auto runFilter = [this] {
        setFilter(
            queryFrom(m_filterField, m_filterRegex, m_filterCase, m_filterInvert->isChecked()));
    };
    connect(m_filterField, &QLineEdit::textChanged, this, runFilter);
    connect(m_filterRegex, &QCheckBox::toggled, this, runFilter);
    connect(m_filterCase, &QCheckBox::toggled, this, runFilter);
    connect(m_filterInvert, &QCheckBox::toggled, this, runFilter);
    connect(m_filter, &LogSearch::matchesChanged, m_filterLines, &LogLinesView::rowsChanged);
    connect(m_filter, &LogSearch::matchesChanged, this, &LogView::updateStatus);
    connect(m_filterButton, &QToolButton::toggled, this, &LogView::showFilter);
    // A line picked in the filter pane is shown in the whole log.
    connect(m_filterLines, &LogLinesView::lineActivated, this, &LogView::goToLine);
    connect(m_filterLines, &LogLinesView::currentLineChanged, this, &LogView::goToLine);

    // Structure: the current line's JSON, relative times, go to time.
    connect(m_lines, &LogLinesView::currentLineChanged, this, &LogView::showDetail);
    connect(m_lines, &LogLinesView::currentLineChanged, this, [this] {
        if (m_lines->showsRelativeTime())
            setRelativeTime(true);
    });
    connect(m_relativeButton, &QToolButton::toggled, this, &LogView::setRelativeTime);
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_T), tr("Go to a time"),
                     [this] { askGoToTime(); });

    // Follow.
    connect(m_followButton, &QToolButton::toggled, m_lines, &LogLinesView::setFollowing);
    connect(m_lines, &LogLinesView::followingChanged, m_followButton, &QToolButton::setChecked);
    connect(m_lines, &LogLinesView::unseenChanged, this, &LogView::updateStatus);
    connect(m_reconnect, &QToolButton::clicked, this, [this] {
        m_reconnect->hide();
        m_ended.clear();
        updateStatus();
        Q_EMIT reconnectRequested();
    });

    // Esc in the search field stops a search still running, else clears it.
    addLocalShortcut(m_findField, QKeySequence(Qt::Key_Escape),
                     tr("Stop the search, or leave the find field"), [this] {
                         if (m_search->isRunning()) {
                             m_search->cancel();
                             updateStatus();
                         } else {
                             m_findField->clear();
                         }
                     });
    addLocalShortcut(this, QKeySequence(Qt::Key_F3), tr("Find next"), [this] { findNext(); });
    addLocalShortcut(this, QKeySequence(Qt::SHIFT | Qt::Key_F3), tr("Find previous"),
                     [this] { findPrevious(); });
    addLocalShortcut(this, QKeySequence::Find, tr("Find"), [this] {
        m_findField->setFocus();
        m_findField->selectAll();
    });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
                     tr("Show or hide the filter pane"), [this] { m_filterButton->toggle(); });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_G), tr("Go to a line"),
                     [this] { askGoToLine(); });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_E), tr("Next error"),
                     [this] { nextError(); });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), tr("Previous error"),
                     [this] { previousError(); });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_M), tr("Set or clear a bookmark"),
                     [this] { toggleBookmark(); });
    addLocalShortcut(this, QKeySequence(Qt::Key_F2), tr("Next bookmark"),
                     [this] { nextBookmark(); });
    addLocalShortcut(this, QKeySequence(Qt::SHIFT | Qt::Key_F2), tr("Previous bookmark"),
                     [this] { previousBookmark(); });
    addLocalShortcut(this, QKeySequence::Save, tr("Save the lines"), [this] {
        // From the filter pane, its lines; anywhere else, the whole log.
        askSave(m_filterPane->isVisible() && m_filterPane->isAncestorOf(focusWidget()));
    });
    connect(m_errors, &LogSearch::matchesChanged, this, [this] {
        if (m_pendingErrorFrom != -2)
            jumpToError(m_pendingErrorFrom, m_pendingErrorForward);
    });
    connect(m_errors, &LogSearch::finished, this, [this] {
        if (m_pendingErrorFrom != -2) {
            jumpToError(m_pendingErrorFrom, m_pendingErrorForward);
            if (m_pendingErrorFrom != -2) {
                m_pendingErrorFrom = -2;
                m_notice = tr("No error in that direction");
                updateStatus();
            }
        }
    });
    connect(m_export, &LogExport::finished, this, [this](const QString &error) {
        m_notice = error.isEmpty() ? tr("Saved") : error;
        updateStatus();
    });
    addLocalShortcut(this, QKeySequence::Copy, tr("Copy the selected lines"), [this] {
        QGuiApplication::clipboard()->setText(m_lines->selectedText(false));
    });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                     tr("Copy the selected lines with line numbers"), [this] {
                         QGuiApplication::clipboard()->setText(m_lines->selectedText(true));
                     });
    if (!m_data->openSpool())
        m_notice = m_data->errorText();
    else
        startErrorScan(); // a spool grows from nothing: the scan keeps up as it does
    updateStatus();
}

LogView::~LogView() {
    // The workers read m_data, which as the first child would be deleted before them.
    for (LogSearch *search : {m_search, m_filter, m_errors})
        search->cancel();
    m_export->cancel();
}

void LogView::attach(LogSource *source) {
    const QString file = source->localFile();
    if (!file.isEmpty()) {
        if (!openFile(file, true))
            setEnded(m_data->errorText());
        return;
    }
    if (!m_data->path().isEmpty() && !m_data->openSpool())
        m_notice = m_data->errorText();
    connect(source, &LogSource::bytes, m_data,
            [this](const QByteArray &bytes) { m_data->append(bytes); });
    connect(source, &LogSource::restarted, m_data, &LogData::restart);
}

void LogView::follow(std::function<LogSource *(QObject *parent)> open) {
    auto connectOne = [this, open] {
        LogSource *source = open(this);
        if (!source) {
            setEnded(tr("The sandbox is gone"));
            return;
        }
        attach(source);
        connect(source, &LogSource::ended, this, [this, source](const QString &why) {
            setEnded(why);
            source->deleteLater();
        });
        source->start();
    };
    connect(this, &LogView::reconnectRequested, this, [this, connectOne] {
        m_data->restart(tr("Reconnected"));
        connectOne();
    });
    connectOne();
}

bool LogView::openFile(const QString &path, bool follow) {
    const bool ok = m_data->openFile(path, follow);
    if (!ok)
        m_notice = m_data->errorText();
    m_lines->resetView();
    updateStatus();
    return ok;
}

void LogView::setEnded(const QString &why) {
    m_ended = why;
    m_reconnect->show();
    updateStatus();
}

LogQuery LogView::queryFrom(const QLineEdit *field, const QCheckBox *regex,
                            const QCheckBox *caseBox, bool invert) const {
    LogQuery query;
    query.pattern = field->text();
    query.regex = regex->isChecked();
    query.caseSensitive = caseBox->isChecked();
    query.invert = invert;
    return query;
}

void LogView::find(const LogQuery &query) {
    const bool ok = m_search->start(query);
    m_findField->setToolTip(ok ? QString() : m_search->errorText());
    m_lines->setHighlight(ok ? query : LogQuery());
    m_filterLines->setHighlight(ok ? query : LogQuery());
    updateStatus();
}

void LogView::findNext() {
    const qint64 from = m_lines->currentLine();
    const qint64 line = m_search->matches().next(from);
    if (line >= 0)
        m_lines->goToLine(line);
    else if (!m_search->matches().isEmpty()) // wrap to the first match
        m_lines->goToLine(m_search->matches().at(0));
    updateStatus();
}

void LogView::findPrevious() {
    const qint64 from = m_lines->currentLine() < 0 ? m_data->lineCount() : m_lines->currentLine();
    const qint64 line = m_search->matches().previous(from);
    if (line >= 0)
        m_lines->goToLine(line);
    else if (!m_search->matches().isEmpty())
        m_lines->goToLine(m_search->matches().at(m_search->matches().count() - 1));
    updateStatus();
}

void LogView::setFilter(const LogQuery &query) {
    const bool ok = m_filter->start(query);
    m_filterField->setToolTip(ok ? QString() : m_filter->errorText());
    m_filterLines->resetView();
    updateStatus();
}

void LogView::showFilter(bool shown) {
    m_filterPane->setVisible(shown);
    if (m_filterButton->isChecked() != shown)
        m_filterButton->setChecked(shown);
    if (shown)
        m_filterField->setFocus();
}

void LogView::goToLine(qint64 line) {
    m_lines->goToLine(std::clamp<qint64>(line, 0, std::max<qint64>(0, m_data->lineCount() - 1)));
    updateStatus();
}

void LogView::restoreLine(qint64 line) {
    if (line < m_data->lineCount()) {
        goToLine(line);
        return;
    }
    m_restoreLine = line; // once the index reaches it
}

qint64 LogView::currentLine() const {
    return m_lines->currentLine();
}

void LogView::askGoToLine() {
    UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
    const auto answer =
        prompts->askText(this, tr("Go to line"),
                         tr("Line (1 to %L1):").arg(std::max<qint64>(1, m_data->lineCount())));
    if (!answer)
        return;
    bool ok = false;
    const qint64 line = answer->trimmed().toLongLong(&ok);
    if (ok)
        goToLine(line - 1);
}

void LogView::nextError() {
    jumpToError(m_lines->currentLine(), true);
}

void LogView::previousError() {
    const qint64 from = m_lines->currentLine() < 0 ? m_data->lineCount() : m_lines->currentLine();
    jumpToError(from, false);
}

void LogView::startErrorScan() {
    if (m_errors->isActive())
        return;
    LogQuery errors;
    errors.minLevel = LogLevel::Error;
    m_errors->start(errors);
}

void LogView::jumpToError(qint64 from, bool forward) {
    startErrorScan();
    const LineSet &found = m_errors->matches();
    const qint64 line = forward ? found.next(from) : found.previous(from);
    // Forward, a later error may still be found; backward, an earlier one is found already
    // unless the worker has not reached from yet.
    const bool settled = line >= 0 && (forward || m_errors->scannedLines() > from);
    if (settled) {
        m_pendingErrorFrom = -2;
        m_notice.clear();
        goToLine(line);
        return;
    }
    if (!m_errors->isRunning() && line < 0) {
        m_pendingErrorFrom = -2;
        m_notice = tr("No error in that direction");
        updateStatus();
        return;
    }
    m_pendingErrorFrom = from;
    m_pendingErrorForward = forward;
}

void LogView::showDetail(qint64 line) {
    const QString pretty = line < 0 ? QString() : prettyJsonLine(plainLogBytes(m_data->line(line)));
    m_detail->setPlainText(pretty);
    m_detail->setVisible(!pretty.isEmpty());
}

QString LogView::detailText() const {
    return m_detail->isVisible() ? m_detail->toPlainText() : QString();
}

void LogView::setRelativeTime(bool on) {
    if (m_relativeButton->isChecked() != on)
        m_relativeButton->setChecked(on);
    if (!on) {
        m_lines->setRelativeTime(std::nullopt, {});
        m_filterLines->setRelativeTime(std::nullopt, {});
        return;
    }
    const LogTimeContext context = localTimeContext();
    // Since the current line's time, else the first time in the log.
    std::optional<qint64> base;
    if (m_lines->currentLine() >= 0)
        base = lineTime(*m_data, m_lines->currentLine(), context);
    for (qint64 line = 0; !base && line < std::min<qint64>(m_data->lineCount(), 64); ++line)
        base = lineTime(*m_data, line, context);
    m_lines->setRelativeTime(base ? base : std::optional<qint64>(0), context);
    m_filterLines->setRelativeTime(base ? base : std::optional<qint64>(0), context);
}

void LogView::askGoToTime() {
    UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
    const LogTimeContext context = localTimeContext();
    QString initial;
    if (m_lines->currentLine() >= 0) {
        if (const auto t = lineTime(*m_data, m_lines->currentLine(), context))
            initial = QDateTime::fromMSecsSinceEpoch(*t).toString(u"yyyy-MM-dd HH:mm:ss"_s);
    }
    const auto answer = prompts->askText(this, tr("Go to time"),
                                         tr("First line at or after (2026-12-01 15:52:14, or an "
                                            "RFC 3339 time):"),
                                         initial);
    if (answer && !goToTime(*answer)) {
        m_notice = tr("Not a time: %1").arg(*answer);
        updateStatus();
    }
}

bool LogView::goToTime(const QString &when) {
    const LogTimeContext context = localTimeContext();
    const auto ms = parseLogTime(when.trimmed().toUtf8(), context);
    if (!ms)
        return false;
    const qint64 line = firstLineAtOrAfter(*m_data, *ms, context);
    if (line >= m_data->lineCount()) {
        m_notice = tr("Every line is earlier than %1").arg(when.trimmed());
        goToLine(m_data->lineCount() - 1);
        return true;
    }
    m_notice.clear();
    goToLine(line);
    return true;
}

void LogView::toggleBookmark() {
    const qint64 line = m_lines->currentLine();
    if (line < 0)
        return;
    if (!m_bookmarks.erase(line))
        m_bookmarks.insert(line);
    m_lines->viewport()->update();
    m_filterLines->viewport()->update();
}

void LogView::nextBookmark() {
    const auto it = m_bookmarks.upper_bound(m_lines->currentLine());
    if (it != m_bookmarks.end())
        goToLine(*it);
    else if (!m_bookmarks.empty())
        goToLine(*m_bookmarks.begin());
}

void LogView::previousBookmark() {
    const qint64 current =
        m_lines->currentLine() < 0 ? m_data->lineCount() : m_lines->currentLine();
    auto it = m_bookmarks.lower_bound(current);
    if (it != m_bookmarks.begin())
        goToLine(*std::prev(it));
    else if (!m_bookmarks.empty())
        goToLine(*m_bookmarks.rbegin());
}

void LogView::askSave(bool filtered) {
    UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
    const QString suggested =
        m_data->path().isEmpty() ? u"sandbox.log"_s : QFileInfo(m_data->path()).fileName();
    const auto path = prompts->askSaveFile(
        this, filtered ? tr("Save the filtered lines") : tr("Save the log"), suggested);
    if (path)
        saveTo(*path, filtered);
}

void LogView::saveTo(const QString &path, bool filtered) {
    m_notice = tr("Saving to %1…").arg(path);
    if (filtered && m_filter->isActive())
        m_export->start(m_data, path, m_filter->matches());
    else
        m_export->start(m_data, path);
    updateStatus();
}

QString LogView::statusText() const {
    return m_status->text();
}

void LogView::updateStatus() {
    QStringList parts;
    parts << tr("%L1 lines").arg(m_data->lineCount());
    if (m_indexPercent >= 0)
        parts << tr("reading %1%").arg(m_indexPercent);
    if (m_search->isActive()) {
        const qint64 count = m_search->matches().count();
        const qint64 current = m_lines->currentLine();
        const qint64 k = current >= 0 && m_search->matches().contains(current)
                             ? m_search->matches().lowerBound(current) + 1
                             : 0;
        const QString counted =
            k > 0 ? tr("%L1 of %L2").arg(k).arg(count) : tr("%L1 matches").arg(count);
        if (m_search->isRunning())
            m_findCount->setText(counted + tr(" (searching, Esc stops)"));
        else if (m_search->isStopped())
            m_findCount->setText(counted +
                                 tr(" (stopped at line %L1)").arg(m_search->scannedLines()));
        else
            m_findCount->setText(counted);
    } else {
        m_findCount->setText(m_search->errorText());
    }
    if (m_filter->isActive())
        parts << tr("filter: %L1 lines").arg(m_filter->matches().count());
    if (m_lines->unseenLines() > 0)
        parts << tr("%L1 new lines below (End follows)").arg(m_lines->unseenLines());
    if (!m_notice.isEmpty())
        parts << m_notice;
    if (!m_ended.isEmpty())
        parts << m_ended;
    m_status->setText(parts.join(u" · "_s));
}

namespace {

// Feeds a LogView from the provider that runs the sandbox.
void attachLogs(LogView *view, const WorkspaceContext &ctx) {
    SandboxRegistry *registry = ctx.sandboxes;
    const QString id = ctx.sandboxId;
    view->setPrompts(ctx.prompts);
    view->follow([registry, id](QObject *parent) -> LogSource * {
        SandboxProvider *provider = registry->providerOf(id);
        return provider ? provider->openLog(id, parent) : nullptr;
    });
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
