#include "widgets/mcp/mcpformview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <functional>

namespace sbx {

using namespace Qt::StringLiterals;

using Edited = std::function<void()>;

// The editor of one field: shows a FormValue and reads it back.
class FieldEditor : public QWidget {
public:
    FieldEditor(FormField field, Edited edited, QWidget *parent)
        : QWidget(parent)
        , m_field(std::move(field))
        , m_edited(std::move(edited)) {}

    virtual FormValue value() const = 0;
    virtual void setValue(const FormValue &value) = 0;
    // Names the inputs after the field's path (objectName), for tests and accessibility.
    virtual void setPath(const QString &path) = 0;

protected:
    QString tooltip() const {
        QString text = m_field.description;
        if (!m_field.jsonReason.isEmpty())
            text += (text.isEmpty() ? QString() : u"\n\n"_s) +
                    McpFormView::tr("A JSON field: %1.").arg(m_field.jsonReason);
        return text;
    }
    static QHBoxLayout *bareLayout(QWidget *owner) {
        auto *layout = new QHBoxLayout(owner);
        layout->setContentsMargins(0, 0, 0, 0);
        return layout;
    }

    FormField m_field;
    Edited m_edited;
};

namespace {

FieldEditor *makeEditor(const FormField &field, const Edited &edited, QWidget *parent);

QString labelText(const FormField &field) {
    const QString label = field.label.isEmpty() ? McpFormView::tr("value") : field.label;
    return field.required ? label + u" *"_s : label;
}

// String, Number and Integer: one line of text, the model parses it.
class LineEditor final : public FieldEditor {
public:
    LineEditor(const FormField &field, const Edited &edited, QWidget *parent)
        : FieldEditor(field, edited, parent)
        , m_edit(new QLineEdit(this)) {
        bareLayout(this)->addWidget(m_edit);
        m_edit->setPlaceholderText(m_field.hint());
        m_edit->setToolTip(tooltip());
        m_edit->setClearButtonEnabled(m_field.kind == FormKind::String);
        connect(m_edit, &QLineEdit::textEdited, this, [this] { m_edited(); });
    }
    FormValue value() const override { return {m_edit->text(), -1, {}}; }
    void setValue(const FormValue &value) override { m_edit->setText(value.text); }
    void setPath(const QString &path) override { m_edit->setObjectName(path); }

private:
    QLineEdit *m_edit;
};

class JsonEditor final : public FieldEditor {
public:
    JsonEditor(const FormField &field, const Edited &edited, QWidget *parent)
        : FieldEditor(field, edited, parent)
        , m_edit(new QPlainTextEdit(this)) {
        bareLayout(this)->addWidget(m_edit);
        m_edit->setPlaceholderText(McpFormView::tr("JSON"));
        m_edit->setToolTip(tooltip());
        m_edit->setTabChangesFocus(true);
        m_edit->setFixedHeight(m_edit->fontMetrics().lineSpacing() * 4 + 12);
        connect(m_edit, &QPlainTextEdit::textChanged, this, [this] { m_edited(); });
    }
    FormValue value() const override { return {m_edit->toPlainText(), -1, {}}; }
    void setValue(const FormValue &value) override { m_edit->setPlainText(value.text); }
    void setPath(const QString &path) override {
        m_edit->setObjectName(path.isEmpty() ? u"arguments"_s : path);
    }

private:
    QPlainTextEdit *m_edit;
};

// Boolean and Enum. A field that may be left out has a first entry that sends nothing;
// a boolean that is always sent (required, or with a default) is a check box.
class ChoiceEditor final : public FieldEditor {
public:
    ChoiceEditor(const FormField &field, const Edited &edited, QWidget *parent)
        : FieldEditor(field, edited, parent) {
        auto *layout = bareLayout(this);
        const bool boolean = m_field.kind == FormKind::Boolean;
        if (boolean && (m_field.required || m_field.hasDefault)) {
            m_check = new QCheckBox(this);
            m_check->setToolTip(tooltip());
            layout->addWidget(m_check);
            layout->addStretch();
            connect(m_check, &QCheckBox::toggled, this, [this] { m_edited(); });
            return;
        }
        m_combo = new QComboBox(this);
        m_combo->setToolTip(tooltip());
        m_unset = !(m_field.required && m_field.hasDefault);
        if (m_unset)
            m_combo->addItem(m_field.required ? McpFormView::tr("(choose)")
                                              : McpFormView::tr("(not set)"));
        if (boolean) {
            m_combo->addItem(u"false"_s);
            m_combo->addItem(u"true"_s);
        } else {
            for (const McpJson &v : m_field.enumValues)
                m_combo->addItem(FormField::choiceText(v));
        }
        layout->addWidget(m_combo, 1);
        connect(m_combo, &QComboBox::activated, this, [this] { m_edited(); });
    }
    FormValue value() const override {
        if (m_check)
            return {{}, m_check->isChecked() ? 1 : 0, {}};
        return {{}, m_combo->currentIndex() - (m_unset ? 1 : 0), {}};
    }
    void setValue(const FormValue &value) override {
        if (m_check)
            m_check->setChecked(value.choice == 1);
        else
            m_combo->setCurrentIndex(m_unset ? value.choice + 1 : qMax(0, value.choice));
    }
    void setPath(const QString &path) override {
        (m_check ? static_cast<QWidget *>(m_check) : m_combo)->setObjectName(path);
    }

private:
    QCheckBox *m_check = nullptr;
    QComboBox *m_combo = nullptr;
    bool m_unset = false;
};

class ObjectEditor final : public FieldEditor {
public:
    ObjectEditor(const FormField &field, const Edited &edited, QWidget *parent)
        : FieldEditor(field, edited, parent) {
        auto *layout = new QFormLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        if (m_field.fields.empty()) {
            auto *none = new QLabel(McpFormView::tr("This tool takes no arguments."), this);
            none->setEnabled(false);
            layout->addRow(none);
        }
        for (const FormField &child : m_field.fields) {
            FieldEditor *editor = nullptr;
            if (child.kind == FormKind::Object || child.kind == FormKind::Array) {
                auto *group = new QGroupBox(labelText(child), this);
                group->setToolTip(child.description);
                auto *inner = new QVBoxLayout(group);
                editor = makeEditor(child, m_edited, group);
                inner->addWidget(editor);
                layout->addRow(group);
            } else {
                auto *label = new QLabel(labelText(child), this);
                label->setToolTip(child.description);
                editor = makeEditor(child, m_edited, this);
                label->setBuddy(editor);
                layout->addRow(label, editor);
            }
            m_children.append(editor);
        }
    }
    FormValue value() const override {
        FormValue v;
        for (const FieldEditor *child : m_children)
            v.children.push_back(child->value());
        return v;
    }
    void setValue(const FormValue &value) override {
        for (qsizetype i = 0; i < m_children.size(); ++i)
            m_children[i]->setValue(std::size_t(i) < value.children.size()
                                        ? value.children[std::size_t(i)]
                                        : FormValue());
    }
    void setPath(const QString &path) override {
        setObjectName(path.isEmpty() ? u"arguments"_s : path);
        for (qsizetype i = 0; i < m_children.size(); ++i)
            m_children[i]->setPath(childPath(path, m_field.fields[std::size_t(i)].key));
    }

private:
    QList<FieldEditor *> m_children;
};

// Rows of one item field, each with its Remove button, and Add below.
class ArrayEditor final : public FieldEditor {
public:
    ArrayEditor(const FormField &field, const Edited &edited, QWidget *parent)
        : FieldEditor(field, edited, parent)
        , m_rows(new QVBoxLayout) {
        auto *layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addLayout(m_rows);
        m_add = new QPushButton(McpFormView::tr("Add"), this);
        m_add->setToolTip(McpFormView::tr("Add an item to %1")
                              .arg(m_field.label.isEmpty() ? m_field.key : m_field.label));
        auto *addRow = new QHBoxLayout;
        addRow->addWidget(m_add);
        addRow->addStretch();
        layout->addLayout(addRow);
        connect(m_add, &QPushButton::clicked, this, [this] {
            addItem(initialValue(*m_field.item()));
            renumber();
            m_edited();
        });
    }
    FormValue value() const override {
        FormValue v;
        for (const Row &row : m_items)
            v.children.push_back(row.editor->value());
        return v;
    }
    void setValue(const FormValue &value) override {
        while (!m_items.isEmpty())
            removeItem(m_items.size() - 1);
        for (const FormValue &item : value.children)
            addItem(item);
        renumber();
    }
    void setPath(const QString &path) override {
        m_path = path;
        setObjectName(path);
        m_add->setObjectName(path + u":add"_s);
        renumber();
    }

private:
    struct Row {
        QWidget *frame;
        FieldEditor *editor;
        QPushButton *remove;
    };

    void addItem(const FormValue &value) {
        auto *frame = new QWidget(this);
        auto *line = bareLayout(frame);
        FieldEditor *editor = makeEditor(*m_field.item(), m_edited, frame);
        editor->setValue(value);
        auto *remove = new QPushButton(McpFormView::tr("Remove"), frame);
        line->addWidget(editor, 1);
        line->addWidget(remove, 0, Qt::AlignTop);
        m_rows->addWidget(frame);
        m_items.push_back({frame, editor, remove});
        connect(remove, &QPushButton::clicked, this, [this, frame] {
            for (qsizetype i = 0; i < m_items.size(); ++i) {
                if (m_items[i].frame == frame)
                    removeItem(i);
            }
            renumber();
            m_edited();
        });
    }
    void removeItem(qsizetype i) {
        m_items[i].frame->deleteLater();
        m_items[i].frame->hide();
        m_rows->removeWidget(m_items[i].frame);
        m_items.removeAt(i);
    }
    void renumber() {
        for (qsizetype i = 0; i < m_items.size(); ++i) {
            const QString path = itemPath(m_path, i);
            m_items[i].editor->setPath(path);
            m_items[i].remove->setObjectName(path + u":remove"_s);
            m_items[i].remove->setToolTip(McpFormView::tr("Remove item %1").arg(i + 1));
        }
        if (m_field.maxItems)
            m_add->setEnabled(m_items.size() < *m_field.maxItems);
    }

    QVBoxLayout *m_rows;
    QPushButton *m_add = nullptr;
    QList<Row> m_items;
    QString m_path;
};

FieldEditor *makeEditor(const FormField &field, const Edited &edited, QWidget *parent) {
    switch (field.kind) {
    case FormKind::String:
    case FormKind::Number:
    case FormKind::Integer:
        return new LineEditor(field, edited, parent);
    case FormKind::Boolean:
    case FormKind::Enum:
        return new ChoiceEditor(field, edited, parent);
    case FormKind::Object:
        return new ObjectEditor(field, edited, parent);
    case FormKind::Array:
        return new ArrayEditor(field, edited, parent);
    case FormKind::Json:
        break;
    }
    return new JsonEditor(field, edited, parent);
}

} // namespace

McpFormView::McpFormView(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QVBoxLayout(this)) {
    m_layout->setContentsMargins(0, 0, 0, 0);
}

McpFormView::~McpFormView() = default;

void McpFormView::clear() {
    while (QLayoutItem *item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_root = nullptr;
    m_form = {};
}

void McpFormView::setForm(const FormField &form, const FormValue &value) {
    clear();
    m_form = form;
    m_root = makeEditor(
        m_form, [this] { Q_EMIT edited(); }, this);
    m_root->setPath({});
    m_root->setValue(value);
    m_layout->addWidget(m_root);
    m_layout->addStretch();
}

FormValue McpFormView::value() const {
    return m_root ? m_root->value() : FormValue();
}

void McpFormView::setValue(const FormValue &value) {
    if (m_root)
        m_root->setValue(value);
}

QWidget *McpFormView::input(const QString &path) const {
    return m_root ? m_root->findChild<QWidget *>(path.isEmpty() ? u"arguments"_s : path) : nullptr;
}

} // namespace sbx
