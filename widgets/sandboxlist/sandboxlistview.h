#pragma once

#include <QTreeView>

class SandboxListModel;

// The sandbox list: one row per sandbox with a state dot; its header menu shows or hides columns.
class SandboxListView final : public QTreeView {
    Q_OBJECT
public:
    explicit SandboxListView(SandboxListModel *model, QWidget *parent = nullptr);

    // The id of the selected sandbox, or empty.
    QString selectedId() const;
    void selectId(const QString &id);
};
