#pragma once

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTimer;
class QTreeView;

namespace sbx {

class TrafficFilterModel;
class TrafficModel;
class TrafficRecorder;
class UserPrompts;
struct TrafficEntry;

// The traffic inspector: the console's API traffic with every sandbox as it happens, with
// filters, each exchange's headers and bodies, "Copy as curl" and "Export HAR". While it is
// closed the recorder keeps metadata only.
class TrafficDock final : public QDockWidget {
    Q_OBJECT
public:
    explicit TrafficDock(TrafficRecorder *recorder, QWidget *parent = nullptr);
    ~TrafficDock() override;

    void setPrompts(UserPrompts *prompts) { m_prompts = prompts; }

    TrafficModel *model() const { return m_model; }
    TrafficFilterModel *filter() const { return m_filter; }
    QTreeView *view() const { return m_view; }
    QComboBox *sandboxFilter() const { return m_sandbox; }
    QComboBox *methodFilter() const { return m_method; }
    QComboBox *statusFilter() const { return m_status; }
    QLineEdit *textFilter() const { return m_text; }

    // Selects the row of the filtered list; false when there is none.
    bool selectRow(int row);
    // The selected entry, null when none.
    const TrafficEntry *selected() const;
    QString summaryText() const;
    QString headersText() const;
    QString requestText() const;
    QString responseText() const;
    // The selected entry as a curl command, and that command put on the clipboard.
    QString curlText() const;
    void copyCurl();
    // Asks for a file and writes the shown entries there as HAR 1.2; false when not written.
    bool exportHar();
    QString noticeText() const;

private:
    void showSelected();
    void updateCount();

    TrafficRecorder *m_recorder;
    TrafficModel *m_model;
    TrafficFilterModel *m_filter;
    UserPrompts *m_prompts = nullptr;
    QComboBox *m_sandbox;
    QComboBox *m_method;
    QComboBox *m_status;
    QLineEdit *m_text;
    QPushButton *m_curl;
    QPushButton *m_har;
    QPushButton *m_clear;
    QLabel *m_count;
    QTreeView *m_view;
    QLabel *m_summary;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_headers;
    QPlainTextEdit *m_request;
    QPlainTextEdit *m_response;
    QLabel *m_notice;
    QTimer *m_countTimer;
    quint64 m_shown = 0; // serial of the entry in the details pane
    bool m_follow = true;
};

} // namespace sbx
