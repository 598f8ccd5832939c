#include "widgets/logs/logwindow.h"

#include "models/logs/logdata.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/logs/logview.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace sbx {

using namespace Qt::StringLiterals;

LogWindow::LogWindow(UserPrompts *prompts, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_prompts(prompts)
    , m_tabs(new QTabWidget(this)) {
    setWindowTitle(tr("Logs — Sandbox Console"));
    m_tabs->setTabsClosable(true);
    m_tabs->setDocumentMode(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, [this](int index) {
        QWidget *page = m_tabs->widget(index);
        m_tabs->removeTab(index);
        page->deleteLater();
        if (m_tabs->count() == 0)
            hide();
    });
    addLocalShortcut(this, QKeySequence(Qt::CTRL | Qt::Key_W), tr("Close the log"), [this] {
        if (m_tabs->currentIndex() >= 0)
            Q_EMIT m_tabs->tabCloseRequested(m_tabs->currentIndex());
    });
    addLocalShortcut(this, QKeySequence::Open, tr("Open a log file"), [this] { askOpen(); });
    resize(1100, 700);
}

LogView *LogWindow::view(int index) const {
    return qobject_cast<LogView *>(m_tabs->widget(index));
}

LogView *LogWindow::existing(const QString &key) {
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->widget(i)->property("sbxLogKey").toString() == key) {
            m_tabs->setCurrentIndex(i);
            show();
            raise();
            return view(i);
        }
    }
    return nullptr;
}

LogView *LogWindow::addTab(const QString &key, const QString &title, const QString &tip) {
    auto *log = new LogView(m_tabs);
    log->setPrompts(m_prompts);
    log->setProperty("sbxLogKey", key);
    const int index = m_tabs->addTab(log, title);
    m_tabs->setTabToolTip(index, tip);
    m_tabs->setCurrentIndex(index);
    show();
    raise();
    activateWindow();
    return log;
}

LogView *LogWindow::openFile(const QString &path) {
    const QString canonical = QFileInfo(path).absoluteFilePath();
    if (LogView *open = existing(canonical))
        return open;
    LogView *log = addTab(canonical, QFileInfo(canonical).fileName(), canonical);
    log->openFile(canonical, /*follow=*/true);
    log->setProperty("sbxLogFile", canonical);
    return log;
}

QJsonObject LogWindow::sessionState() const {
    QJsonArray files;
    for (int i = 0; i < m_tabs->count(); ++i) {
        const LogView *log = view(i);
        const QString path = log ? log->property("sbxLogFile").toString() : QString();
        if (!path.isEmpty())
            files.append(QJsonObject{{u"path"_s, path}, {u"line"_s, log->currentLine()}});
    }
    return {{u"files"_s, files}, {u"current"_s, m_tabs->currentIndex()}, {u"open"_s, isVisible()}};
}

void LogWindow::restoreSessionState(const QJsonObject &state) {
    const QJsonArray files = state.value(u"files"_s).toArray();
    for (const QJsonValue &file : files) {
        const QString path = file.toObject().value(u"path"_s).toString();
        if (path.isEmpty() || !QFileInfo(path).isFile())
            continue; // gone since: nothing to show
        if (LogView *log = openFile(path))
            log->restoreLine(qint64(file.toObject().value(u"line"_s).toDouble()));
    }
    if (m_tabs->count() == 0)
        return;
    m_tabs->setCurrentIndex(std::clamp(state.value(u"current"_s).toInt(), 0, m_tabs->count() - 1));
    if (state.value(u"open"_s).toBool())
        show();
}

LogView *LogWindow::openLog(const QString &key, const QString &title,
                            std::function<LogSource *(QObject *parent)> open) {
    if (LogView *shown = existing(key))
        return shown;
    LogView *log = addTab(key, title, key);
    log->follow(std::move(open));
    return log;
}

void LogWindow::askOpen() {
    const auto path = m_prompts->askOpenFile(this, tr("Open a log"),
                                             tr("Logs (*.log *.txt *.out *.err);;All files (*)"));
    if (path)
        openFile(*path);
}

} // namespace sbx
