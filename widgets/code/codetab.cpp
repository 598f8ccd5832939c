#include "widgets/code/codetab.h"

#include "client/sandboxclient.h"
#include "models/code/notebookmodel.h"
#include "models/code/notebookrunner.h"
#include "models/code/notebookstore.h"
#include "models/palette.h"
#include "widgets/code/cellwidget.h"
#include "widgets/code/codeeditor.h"
#include "widgets/common/userprompts.h"
#include "widgets/common/widgethelpers.h"
#include "widgets/workspace/tabregistry.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QPushButton *button(const QString &text, const QString &tip, QWidget *parent) {
    auto *b = new QPushButton(text, parent);
    b->setToolTip(tip);
    b->setFocusPolicy(Qt::TabFocus);
    return b;
}

QString withSuffix(const QString &path) {
    return path.endsWith(u".ipynb"_s, Qt::CaseInsensitive) ? path : path + u".ipynb"_s;
}

} // namespace

CodeTab::CodeTab(SandboxClient *client, QWidget *parent)
    : QWidget(parent)
    , m_client(client)
    , m_model(new NotebookModel(this))
    , m_runner(new NotebookRunner(client, m_model, this))
    , m_store(new NotebookStore(client, m_model, this))
    , m_notice(new QLabel(this))
    , m_noJupyter(makeErrorBox(this))
    , m_scroll(new QScrollArea(this))
    , m_cellsHost(new QWidget(m_scroll))
    , m_cells(new QVBoxLayout(m_cellsHost)) {
    m_notice->setWordWrap(true);
    m_notice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->hide();
    m_cells->setContentsMargins(8, 8, 8, 8);
    m_cells->setSpacing(6);
    m_cells->addStretch(1);
    m_scroll->setWidget(m_cellsHost);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(makeToolBar());
    layout->addWidget(m_noJupyter);
    layout->addWidget(m_notice);
    layout->addWidget(m_scroll, 1);

    connect(m_model, &QAbstractItemModel::modelReset, this, &CodeTab::rebuildCells);
    connect(m_model, &QAbstractItemModel::rowsInserted, this,
            [this](const QModelIndex &, int first, int last) {
                for (int row = first; row <= last; ++row)
                    insertCellWidget(row);
            });
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, [this] {
        QSet<QString> ids;
        for (int row = 0; row < m_model->rowCount(); ++row)
            ids.insert(m_model->cell(row)->id);
        for (auto it = m_widgets.begin(); it != m_widgets.end();) {
            if (!ids.contains(it.key())) {
                it.value()->deleteLater();
                it = m_widgets.erase(it);
            } else {
                ++it;
            }
        }
    });
    connect(m_model, &QAbstractItemModel::rowsMoved, this, [this] {
        for (int row = 0; row < m_model->rowCount(); ++row) {
            CellWidget *widget = m_widgets.value(m_model->cell(row)->id);
            m_cells->removeWidget(widget);
            m_cells->insertWidget(row, widget);
        }
    });
    connect(m_model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &top, const QModelIndex &bottom, const QList<int> &roles) {
                for (int row = top.row(); row <= bottom.row(); ++row) {
                    if (CellWidget *widget = cellWidget(row))
                        widget->refresh(roles);
                }
                if (roles.isEmpty() || roles.contains(NotebookModel::KindRole) ||
                    roles.contains(NotebookModel::LanguageRole))
                    updateButtons();
            });
    connect(m_model, &NotebookModel::modifiedChanged, this, &CodeTab::updateTitle);
    connect(m_runner, &NotebookRunner::infoChanged, this, &CodeTab::onInfoChanged);
    connect(m_runner, &NotebookRunner::busyChanged, this, &CodeTab::updateButtons);
    connect(m_runner, &NotebookRunner::sessionChanged, this, &CodeTab::updateButtons);
    connect(m_runner, &NotebookRunner::notice, this,
            [this](const QString &text) { showNotice(text); });
    connect(m_runner, &NotebookRunner::interruptUnavailable, this, [this](const QString &text) {
        if (prompts()->confirm(this, tr("Interrupt the cell"), text, tr("Restart kernel")))
            m_runner->restart();
    });
    connect(m_store, &NotebookStore::opened, this, [this](const NotebookLocation &location) {
        // The kernel's variables belong to the notebook that was open.
        if (!m_runner->sessionId().isEmpty())
            m_runner->restart();
        showNotice(tr("Opened %1.").arg(location.path));
        updateTitle();
    });
    connect(m_store, &NotebookStore::saved, this, [this](const NotebookLocation &location) {
        showNotice(tr("Saved %1.").arg(location.path));
        updateTitle();
    });
    connect(m_store, &NotebookStore::failed, this,
            [this](const QString &message) { showNotice(message, true); });

    addLocalShortcut(this, QKeySequence::Save, tr("Save the notebook"), [this] { save(); });
    addLocalShortcut(this, QKeySequence(u"Ctrl+Shift+Return"_s), tr("Run every cell"),
                     [this] { runAll(); });
    addLocalShortcut(this, QKeySequence(u"Ctrl+."_s), tr("Interrupt the kernel"),
                     [this] { interrupt(); });
    rebuildCells();
    updateTitle();
}

CodeTab::~CodeTab() = default;

QWidget *CodeTab::makeToolBar() {
    auto *bar = new QWidget(this);
    auto *rows = new QVBoxLayout(bar);
    rows->setContentsMargins(0, 0, 0, 0);

    auto *file = new QHBoxLayout;
    auto *open = new QToolButton(bar);
    open->setText(tr("Open"));
    open->setPopupMode(QToolButton::InstantPopup);
    auto *openMenu = new QMenu(open);
    openMenu->addAction(tr("From this computer…"), this, &CodeTab::openLocal);
    openMenu->addAction(tr("From the sandbox…"), this, &CodeTab::openRemote);
    open->setMenu(openMenu);
    auto *saveNow = new QToolButton(bar);
    saveNow->setText(tr("Save"));
    saveNow->setToolTip(tr("Save where the notebook came from (Ctrl+S)"));
    connect(saveNow, &QToolButton::clicked, this, &CodeTab::save);
    auto *saveAs = new QToolButton(bar);
    saveAs->setText(tr("Save as"));
    saveAs->setPopupMode(QToolButton::InstantPopup);
    auto *saveMenu = new QMenu(saveAs);
    saveMenu->addAction(tr("On this computer…"), this, &CodeTab::saveLocalAs);
    saveMenu->addAction(tr("In the sandbox…"), this, &CodeTab::saveRemoteAs);
    saveAs->setMenu(saveMenu);
    m_title = new QLabel(bar);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kernel = new QComboBox(bar);
    m_kernel->setToolTip(tr("The kernel Python cells run in (GET /v1/jupyter/info)"));
    m_kernel->setMinimumContentsLength(12);
    m_kernel->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_timeout = new QSpinBox(bar);
    m_kernel->setAccessibleName(tr("Kernel"));
    m_timeout->setAccessibleName(tr("Timeout"));
    m_timeout->setRange(1, 300);
    m_timeout->setValue(m_runner->timeoutSeconds());
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setToolTip(tr("A cell stops at this timeout (the sandbox allows 1 to 300 s)"));
    m_kernelState = new QLabel(bar);
    m_kernelState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    file->addWidget(open);
    file->addWidget(saveNow);
    file->addWidget(saveAs);
    file->addSpacing(8);
    file->addWidget(m_title, 1);
    file->addWidget(new QLabel(tr("Kernel:"), bar));
    file->addWidget(m_kernel);
    file->addWidget(new QLabel(tr("Timeout:"), bar));
    file->addWidget(m_timeout);
    file->addWidget(m_kernelState);
    rows->addLayout(file);

    auto *cells = new QHBoxLayout;
    auto *addCode = button(tr("+ Code"), tr("Add a code cell below the current one"), bar);
    auto *addText = button(tr("+ Markdown"), tr("Add a markdown cell below the current one"), bar);
    m_language = new QComboBox(bar);
    m_language->setAccessibleName(tr("Language"));
    m_language->addItem(tr("Python"), u"python"_s);
    m_language->addItem(tr("JavaScript"), u"javascript"_s);
    m_language->addItem(tr("Markdown"), u"markdown"_s);
    m_language->setToolTip(
        tr("The current cell's kind: Python runs in the kernel, JavaScript in node (a fresh "
           "process each run: no state is kept between JavaScript cells)"));
    auto *up = button(tr("Move up"), tr("Move the current cell up"), bar);
    auto *down = button(tr("Move down"), tr("Move the current cell down"), bar);
    auto *remove = button(tr("Delete"), tr("Delete the current cell"), bar);
    m_runButton = button(tr("Run"),
                         tr("Run the current cell (Ctrl+Enter; Shift+Enter runs "
                            "and moves to the next)"),
                         bar);
    auto *all = button(tr("Run all"), tr("Run every cell in order (Ctrl+Shift+Enter)"), bar);
    m_interrupt = button(tr("Interrupt"), tr("Stop the running cell (Ctrl+.)"), bar);
    auto *restart = button(tr("Restart"), tr("Start a new kernel: variables are lost"), bar);
    auto *clear = button(tr("Clear outputs"), tr("Clear every cell's outputs"), bar);
    for (QWidget *w :
         std::initializer_list<QWidget *>{addCode, addText, m_language, up, down, remove})
        cells->addWidget(w);
    cells->addStretch(1);
    for (QWidget *w :
         std::initializer_list<QWidget *>{m_runButton, all, m_interrupt, restart, clear})
        cells->addWidget(w);
    rows->addLayout(cells);

    connect(addCode, &QPushButton::clicked, this, [this] { addCell(false); });
    connect(addText, &QPushButton::clicked, this, [this] { addCell(true); });
    connect(m_language, &QComboBox::activated, this,
            [this](int index) { setCurrentLanguage(m_language->itemData(index).toString()); });
    connect(up, &QPushButton::clicked, this, [this] { moveCurrent(-1); });
    connect(down, &QPushButton::clicked, this, [this] { moveCurrent(1); });
    connect(remove, &QPushButton::clicked, this, &CodeTab::deleteCurrent);
    connect(m_runButton, &QPushButton::clicked, this, [this] { runCurrent(false); });
    connect(all, &QPushButton::clicked, this, &CodeTab::runAll);
    connect(m_interrupt, &QPushButton::clicked, this, &CodeTab::interrupt);
    connect(restart, &QPushButton::clicked, this, &CodeTab::restartKernel);
    connect(clear, &QPushButton::clicked, this, &CodeTab::clearOutputs);
    connect(m_kernel, &QComboBox::activated, this, &CodeTab::onKernelChosen);
    connect(m_timeout, &QSpinBox::valueChanged, this,
            [this](int seconds) { m_runner->setTimeoutSeconds(seconds); });
    return bar;
}

void CodeTab::rebuildCells() {
    for (CellWidget *widget : std::as_const(m_widgets))
        delete widget;
    m_widgets.clear();
    for (int row = 0; row < m_model->rowCount(); ++row)
        insertCellWidget(row);
    if (m_model->rowOfId(m_currentId) < 0)
        m_currentId = m_model->rowCount() > 0 ? m_model->cell(0)->id : QString();
    if (CellWidget *widget = m_widgets.value(m_currentId))
        widget->setCurrent(true);
    updateButtons();
}

void CodeTab::insertCellWidget(int row) {
    const QString id = m_model->cell(row)->id;
    auto *widget = new CellWidget(m_model, id, m_cellsHost);
    m_widgets.insert(id, widget);
    m_cells->insertWidget(row, widget);
    connect(widget, &CellWidget::focused, this,
            [this](const QString &cellId) { setCurrentRow(m_model->rowOfId(cellId), false); });
    connect(widget, &CellWidget::runRequested, this, [this](const QString &cellId, bool advance) {
        setCurrentRow(m_model->rowOfId(cellId), false);
        runCurrent(advance);
    });
    connect(widget, &CellWidget::leaveRequested, this, [this](const QString &cellId, int step) {
        const int next = m_model->rowOfId(cellId) + step;
        if (next >= 0 && next < m_model->rowCount())
            setCurrentRow(next);
    });
}

int CodeTab::cellCount() const {
    return m_model->rowCount();
}

CellWidget *CodeTab::cellWidget(int row) const {
    const NotebookCell *cell = m_model->cell(row);
    return cell ? m_widgets.value(cell->id) : nullptr;
}

int CodeTab::currentRow() const {
    return m_model->rowOfId(m_currentId);
}

void CodeTab::setCurrentRow(int row, bool focus) {
    CellWidget *widget = cellWidget(row);
    if (!widget)
        return;
    if (widget->cellId() != m_currentId) {
        if (CellWidget *old = m_widgets.value(m_currentId))
            old->setCurrent(false);
        m_currentId = widget->cellId();
        widget->setCurrent(true);
        updateButtons();
    }
    if (focus) {
        widget->focusEditor();
        // After the layout has placed it: a cell made just now has no geometry yet.
        QTimer::singleShot(0, this, [this, id = widget->cellId()] {
            if (CellWidget *cell = m_widgets.value(id))
                m_scroll->ensureWidgetVisible(cell, 0, 40);
        });
    }
}

void CodeTab::runCurrent(bool advance) {
    const int row = currentRow();
    const NotebookCell *cell = m_model->cell(row);
    if (!cell)
        return;
    if (cell->kind == CellKind::Markdown)
        cellWidget(row)->setRendered(true);
    else if (cell->kind == CellKind::Code)
        m_runner->run(row);
    if (!advance)
        return;
    if (row + 1 >= m_model->rowCount())
        m_model->insertCell(row + 1, CellKind::Code);
    setCurrentRow(row + 1);
}

void CodeTab::runAll() {
    for (int row = 0; row < m_model->rowCount(); ++row) {
        if (m_model->cell(row)->kind == CellKind::Markdown)
            cellWidget(row)->setRendered(true);
    }
    m_runner->runAll();
}

void CodeTab::interrupt() {
    m_runner->interrupt();
}

void CodeTab::restartKernel() {
    if (!m_runner->sessionId().isEmpty() &&
        !prompts()->confirm(this, tr("Restart the kernel"),
                            tr("A new kernel starts at the next run: the variables and imports "
                               "of this one are lost."),
                            tr("Restart")))
        return;
    m_runner->restart();
}

void CodeTab::clearOutputs() {
    m_model->clearAllOutputs();
}

void CodeTab::addCell(bool markdown) {
    const int row = currentRow() + 1;
    const NotebookCell *current = m_model->cell(currentRow());
    // A new code cell is in the language of the one it follows.
    const QString language =
        current && current->kind == CellKind::Code ? current->language : QString();
    const int made = m_model->insertCell(row, markdown ? CellKind::Markdown : CellKind::Code, {},
                                         markdown ? QString() : language);
    setCurrentRow(made);
}

void CodeTab::deleteCurrent() {
    const int row = currentRow();
    if (!m_model->cell(row))
        return;
    m_model->removeCell(row);
    if (m_model->rowCount() == 0)
        m_model->insertCell(0, CellKind::Code);
    setCurrentRow(std::min(row, m_model->rowCount() - 1));
}

void CodeTab::moveCurrent(int direction) {
    const int row = currentRow();
    if (m_model->moveCell(row, row + direction))
        setCurrentRow(row + direction);
}

void CodeTab::setCurrentLanguage(const QString &language) {
    const int row = currentRow();
    if (!m_model->cell(row))
        return;
    if (language == "markdown"_L1) {
        m_model->setKind(row, CellKind::Markdown);
    } else {
        m_model->setKind(row, CellKind::Code);
        m_model->setLanguage(row, language);
    }
    setCurrentRow(row);
}

bool CodeTab::confirmDiscard() {
    if (!m_model->isModified())
        return true;
    return prompts()->confirm(this, tr("Open another notebook"),
                              tr("This notebook has changes that are not saved. Open another "
                                 "one and lose them?"),
                              tr("Discard changes"));
}

void CodeTab::openLocal() {
    if (!confirmDiscard())
        return;
    const auto path = prompts()->askOpenFile(this, tr("Open a notebook"),
                                             tr("Jupyter notebooks (*.ipynb);;All files (*)"));
    if (path)
        m_store->openLocal(*path);
}

void CodeTab::openRemote() {
    if (!confirmDiscard())
        return;
    const NotebookLocation &at = m_store->location();
    const QString initial = at.kind == NotebookLocation::Kind::Sandbox ? at.path
                            : m_runner->homeDir().isEmpty()            ? QString()
                                                                       : m_runner->homeDir() + u'/';
    const auto path = prompts()->askText(this, tr("Open a notebook in the sandbox"),
                                         tr("Path of the .ipynb file in the sandbox:"), initial);
    if (path && !path->trimmed().isEmpty())
        m_store->openRemote(path->trimmed());
}

void CodeTab::save() {
    if (!m_store->save())
        saveLocalAs();
}

void CodeTab::saveLocalAs() {
    const NotebookLocation &at = m_store->location();
    const QString suggested = at.kind == NotebookLocation::Kind::None
                                  ? u"Untitled.ipynb"_s
                                  : QFileInfo(at.path).fileName();
    const auto path = prompts()->askSaveFile(this, tr("Save the notebook"), suggested);
    if (path)
        m_store->saveLocal(withSuffix(*path));
}

void CodeTab::saveRemoteAs() {
    const NotebookLocation &at = m_store->location();
    QString initial = at.kind == NotebookLocation::Kind::Sandbox ? at.path : QString();
    if (initial.isEmpty()) {
        const QString name = at.kind == NotebookLocation::Kind::None
                                 ? u"Untitled.ipynb"_s
                                 : QFileInfo(at.path).fileName();
        initial = m_runner->homeDir().isEmpty() ? name : m_runner->homeDir() + u'/' + name;
    }
    const auto path = prompts()->askText(this, tr("Save the notebook in the sandbox"),
                                         tr("Path in the sandbox:"), initial);
    if (path && !path->trimmed().isEmpty())
        m_store->saveRemote(withSuffix(path->trimmed()));
}

void CodeTab::onInfoChanged() {
    const JupyterInfo &info = m_runner->info();
    m_settingKernel = true;
    m_kernel->clear();
    for (const QString &name : info.availableKernels) {
        QString label = name;
        for (const JupyterKernelInfo &kernel : info.kernels) {
            if (kernel.name == name && !kernel.pythonVersion.isEmpty() &&
                !name.contains(kernel.pythonVersion))
                label = tr("%1 (Python %2)").arg(name, kernel.pythonVersion);
        }
        m_kernel->addItem(label, name);
    }
    m_kernel->setCurrentIndex(m_kernel->findData(m_runner->kernelName()));
    m_kernel->setEnabled(m_kernel->count() > 1);
    m_settingKernel = false;

    QString missing;
    if (m_runner->noJupyterApi()) {
        missing = tr("This sandbox has no Jupyter API (/v1/jupyter): Python cells cannot run "
                     "here.");
        missing += m_runner->javascriptAvailable()
                       ? tr(" JavaScript cells run through /v1/code.")
                       : tr(" It has no /v1/code either, so no cell can run.");
    } else if (m_runner->infoLoaded() && info.availableKernels.isEmpty() &&
               m_runner->infoError().isEmpty()) {
        missing = tr("The sandbox has no Jupyter kernel: %1")
                      .arg(info.problem.isEmpty() ? info.description : info.problem);
    }
    m_noJupyter->setText(missing);
    m_noJupyter->setVisible(!missing.isEmpty());
    if (!m_runner->infoError().isEmpty())
        showNotice(tr("Could not ask the sandbox for its kernels: %1").arg(m_runner->infoError()),
                   true);
    updateButtons();
}

void CodeTab::onKernelChosen(int index) {
    if (m_settingKernel)
        return;
    const QString name = m_kernel->itemData(index).toString();
    if (name == m_runner->kernelName())
        return;
    if (!m_runner->sessionId().isEmpty() &&
        !prompts()->confirm(this, tr("Change the kernel"),
                            tr("Python cells will run in %1, a new kernel: the variables of this "
                               "one are lost.")
                                .arg(name),
                            tr("Change kernel"))) {
        m_kernel->setCurrentIndex(m_kernel->findData(m_runner->kernelName()));
        return;
    }
    m_runner->setKernelName(name);
    m_model->setKernelSpec(name, m_kernel->itemText(index));
    if (!m_runner->sessionId().isEmpty())
        m_runner->restart();
    updateButtons();
}

void CodeTab::showNotice(const QString &text, bool error) {
    m_notice->setText(text);
    m_notice->setStyleSheet(
        Palette::textStyle(error ? Palette::Role::TextError : Palette::Role::TextMuted));
    m_notice->setVisible(!text.isEmpty());
}

void CodeTab::updateTitle() {
    QString title = u"<b>%1</b>"_s.arg(m_store->location().displayName().toHtmlEscaped());
    if (m_model->isModified())
        title += tr(" (modified)");
    m_title->setText(title);
}

void CodeTab::updateButtons() {
    const bool busy = m_runner->busy();
    m_interrupt->setEnabled(busy);
    QString state;
    if (!m_runner->infoLoaded())
        state = tr("kernel: …");
    else if (m_runner->sessionId().isEmpty())
        state = busy ? tr("kernel starting") : tr("no kernel yet");
    else
        state = busy ? tr("kernel busy") : tr("kernel idle");
    m_kernelState->setText(state);
    m_kernelState->setToolTip(m_runner->sessionId().isEmpty()
                                  ? tr("A kernel starts at the first Python cell run")
                                  : tr("Jupyter session %1").arg(m_runner->sessionId()));
    m_kernelState->setStyleSheet(
        Palette::textStyle(busy ? Palette::Role::StateBusy : Palette::Role::TextMuted));
    if (const NotebookCell *cell = m_model->cell(currentRow())) {
        const QString kind = cell->kind == CellKind::Markdown ? u"markdown"_s : cell->language;
        m_language->setCurrentIndex(std::max(0, m_language->findData(kind)));
    }
}

QString CodeTab::noticeText() const {
    return m_notice->isHidden() ? QString() : m_notice->text();
}

QString CodeTab::kernelStateText() const {
    return m_kernelState->text();
}

bool CodeTab::showsNoJupyterApi() const {
    return !m_noJupyter->isHidden();
}

QString CodeTab::noJupyterText() const {
    return m_noJupyter->text();
}

PendingWork CodeTab::pendingWork() const {
    PendingWork work;
    work.unsavedFiles = m_model->isModified() ? 1 : 0;
    return work;
}

UserPrompts *CodeTab::prompts() const {
    return m_prompts ? m_prompts : dialogPrompts();
}

void CodeTab::showEvent(QShowEvent *event) {
    QWidget::showEvent(event);
    // Asked once the tab is looked at: a workspace's hidden tabs do not call the sandbox.
    if (!m_infoAsked) {
        m_infoAsked = true;
        m_runner->loadInfo();
    }
}

void registerCodeTab(TabRegistry &registry) {
    registry.add(clientTab<CodeTab>(u"code"_s, QCoreApplication::translate("sbx::CodeTab", "Code"),
                                    40, u"code"_s));
}

} // namespace sbx
