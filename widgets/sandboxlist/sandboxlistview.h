#pragma once

#include <QTreeView>

namespace sbx {

class SandboxListModel;

// The sandbox list: one row per sandbox with a state dot; its header menu shows or hides columns.
class SandboxListView final : public QTreeView {
    Q_OBJECT
public:
    explicit SandboxListView(SandboxListModel *model, QWidget *parent = nullptr);

    // The id of the current sandbox (the one whose workspace shows), or empty.
    QString selectedId() const;
    // Every selected sandbox, in list order (stop or delete several at once).
    QStringList selectedIds() const;
};

} // namespace sbx
