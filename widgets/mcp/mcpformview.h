#pragma once

#include "models/mcp/toolform.h"

#include <QWidget>

class QVBoxLayout;

namespace sbx {

class FieldEditor;

// The form generated from a tool's schema (models/mcp/toolform), laid out: a form layout of
// labelled fields, nested objects as groups, arrays as rows with Add and Remove, required fields
// marked with *, descriptions as tooltips. It only shows and reads FormValue; what the values
// mean is the model's. Each input's objectName is its field's path ("count", "edits[0].oldText").
class McpFormView final : public QWidget {
    Q_OBJECT
public:
    explicit McpFormView(QWidget *parent = nullptr);
    ~McpFormView() override;

    void setForm(const FormField &form, const FormValue &value);
    // No form (no tool chosen).
    void clear();
    const FormField &form() const { return m_form; }
    FormValue value() const;
    void setValue(const FormValue &value);
    // The input of the field at this path, or null.
    QWidget *input(const QString &path) const;

Q_SIGNALS:
    void edited();

private:
    FormField m_form;
    FieldEditor *m_root = nullptr;
    QVBoxLayout *m_layout;
};

} // namespace sbx
