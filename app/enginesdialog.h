#pragma once

#include <QDialog>

class QLabel;
class QPushButton;
class QTableView;
class QTimer;

namespace sbx {

class EngineConnections;
class EngineListModel;
class UserPrompts;

// "Container engines": the engines the console can list sandboxes from (this machine, the Docker
// CLI's contexts, engines added here), each turned on or off, with its state and round trip;
// adding one, trusting an SSH host key after its fingerprint, connecting again.
class EnginesDialog final : public QDialog {
    Q_OBJECT
public:
    EnginesDialog(EngineConnections *engines, UserPrompts *prompts, QWidget *parent = nullptr);

private:
    int currentRow() const;
    void updateButtons();
    void addEngine();
    void removeEngine();
    void trustHostKey();
    void connectAgain();

    EngineConnections *m_engines;
    UserPrompts *m_prompts;
    EngineListModel *m_model;
    QTableView *m_view;
    QLabel *m_detail;
    QPushButton *m_remove;
    QPushButton *m_trust;
    QPushButton *m_again;
    QTimer *m_tick;
};

} // namespace sbx
