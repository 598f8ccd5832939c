#pragma once

#include "widgets/workspace/pendingwork.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QToolButton;
class QVBoxLayout;

namespace sbx {

class CellWidget;
class NotebookModel;
class NotebookRunner;
class NotebookStore;
class SandboxClient;
class TabRegistry;
class UserPrompts;
struct NotebookLocation;

// The Code tab: a notebook on the sandbox's Jupyter kernel. Cells run in order through one
// kernel session (Python) or node (JavaScript); outputs show under their cells; notebooks open
// from and save to .ipynb files on this computer or in the sandbox, so that an agent's notebook
// can be looked at and run again. The notebook, its runs and its files are models/code's.
class CodeTab final : public QWidget, public PendingWorkSource {
    Q_OBJECT
public:
    explicit CodeTab(SandboxClient *client, QWidget *parent = nullptr);
    ~CodeTab() override;

    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }
    PendingWork pendingWork() const override;

    // The cell the buttons act on; focus in a cell makes it current.
    int currentRow() const;
    void setCurrentRow(int row, bool focus = true);
    // Runs the current cell; advance moves to the next one, made at the end when there is none.
    void runCurrent(bool advance);
    void runAll();
    void interrupt();
    void restartKernel();
    void clearOutputs();
    void addCell(bool markdown);
    void deleteCurrent();
    void moveCurrent(int direction);
    void setCurrentLanguage(const QString &language);
    void openLocal();
    void openRemote();
    void save();
    void saveLocalAs();
    void saveRemoteAs();

    NotebookModel *model() const { return m_model; }
    NotebookRunner *runner() const { return m_runner; }
    NotebookStore *store() const { return m_store; }
    int cellCount() const;
    CellWidget *cellWidget(int row) const;
    QComboBox *kernelBox() const { return m_kernel; }
    QPushButton *interruptButton() const { return m_interrupt; }
    QString noticeText() const;
    QString kernelStateText() const;
    bool showsNoJupyterApi() const;
    QString noJupyterText() const;

protected:
    void showEvent(QShowEvent *event) override;

private:
    QWidget *makeToolBar();
    void rebuildCells();
    void insertCellWidget(int row);
    void onInfoChanged();
    void onKernelChosen(int index);
    void showNotice(const QString &text, bool error = false);
    void updateTitle();
    void updateButtons();
    bool confirmDiscard();
    UserPrompts *prompts() const;

    QPointer<SandboxClient> m_client;
    UserPrompts *m_prompts = nullptr;
    NotebookModel *m_model;
    NotebookRunner *m_runner;
    NotebookStore *m_store;
    QComboBox *m_kernel = nullptr;
    QComboBox *m_language = nullptr;
    QSpinBox *m_timeout = nullptr;
    QPushButton *m_interrupt = nullptr;
    QPushButton *m_runButton = nullptr;
    QLabel *m_kernelState = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_notice;
    QLabel *m_noJupyter;
    QScrollArea *m_scroll;
    QWidget *m_cellsHost;
    QVBoxLayout *m_cells;
    QHash<QString, CellWidget *> m_widgets;
    QString m_currentId;
    bool m_infoAsked = false;
    bool m_settingKernel = false;
};

void registerCodeTab(TabRegistry &registry);

} // namespace sbx
