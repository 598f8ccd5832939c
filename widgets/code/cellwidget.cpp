#include "widgets/code/cellwidget.h"

#include "models/code/notebookmodel.h"
#include "models/palette.h"
#include "widgets/code/codeeditor.h"
#include "widgets/code/outputview.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QResizeEvent>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kPromptWidthChars = 7;

} // namespace

CellWidget::CellWidget(NotebookModel *model, const QString &cellId, QWidget *parent)
    : QFrame(parent)
    , m_model(model)
    , m_id(cellId)
    , m_prompt(new QLabel(this))
    , m_language(new QLabel(this))
    , m_editor(new CodeEditor(this))
    , m_markdown(new QLabel(this))
    , m_status(new QLabel(this))
    , m_outputs(new OutputView(this)) {
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_prompt->setFont(fixed);
    m_prompt->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_prompt->setMinimumWidth(
        QFontMetrics(fixed).horizontalAdvance(QString(kPromptWidthChars, u'0')));
    m_prompt->setStyleSheet(Palette::textStyle(Palette::Role::SyntaxKeyword));
    m_language->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_language->setStyleSheet(Palette::textStyle(Palette::Role::TextMuted));
    m_markdown->setTextFormat(Qt::MarkdownText);
    m_markdown->setWordWrap(true);
    m_markdown->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    m_markdown->setFocusPolicy(Qt::StrongFocus);
    m_markdown->installEventFilter(this);
    m_markdown->setToolTip(tr("Double-click or press Enter to edit"));
    m_markdown->hide();
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->hide();

    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(6, 6, 8, 6);
    layout->setHorizontalSpacing(8);
    layout->setVerticalSpacing(4);
    auto *side = new QVBoxLayout;
    side->setSpacing(0);
    side->addWidget(m_prompt);
    side->addWidget(m_language);
    side->addStretch();
    layout->addLayout(side, 0, 0, 3, 1);
    m_editor->setAccessibleName(tr("Cell code"));
    layout->addWidget(m_editor, 0, 1);
    layout->addWidget(m_markdown, 0, 1);
    layout->addWidget(m_status, 1, 1);
    layout->addWidget(m_outputs, 2, 1);
    layout->setColumnStretch(1, 1);

    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        if (m_syncing)
            return;
        m_model->setSource(m_model->rowOfId(m_id), m_editor->toPlainText());
    });
    connect(m_editor, &CodeEditor::runRequested, this,
            [this](bool advance) { Q_EMIT runRequested(m_id, advance); });
    connect(m_editor, &CodeEditor::focused, this, [this] { Q_EMIT focused(m_id); });
    connect(m_editor, &CodeEditor::leaveRequested, this,
            [this](int direction) { Q_EMIT leaveRequested(m_id, direction); });
    refresh();
    const NotebookCell *cell = m_model->cell(m_model->rowOfId(m_id));
    if (cell && cell->kind == CellKind::Markdown && !cell->source.isEmpty())
        setRendered(true);
}

QString CellWidget::elapsedText(qint64 ms) {
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    if (ms < 60000)
        return tr("%1 s").arg(QString::number(ms / 1000.0, 'f', 1));
    const qint64 seconds = ms / 1000;
    return u"%1:%2"_s.arg(seconds / 60).arg(seconds % 60, 2, 10, QChar(u'0'));
}

void CellWidget::refresh(const QList<int> &roles) {
    const NotebookCell *cell = m_model->cell(m_model->rowOfId(m_id));
    if (!cell)
        return;
    const auto wants = [&roles](int role) {
        return roles.isEmpty() || roles.contains(role);
    };
    if (wants(NotebookModel::SourceRole) && m_editor->toPlainText() != cell->source) {
        m_syncing = true;
        m_editor->setPlainText(cell->source);
        m_syncing = false;
    }
    if (wants(NotebookModel::SourceRole) || wants(NotebookModel::KindRole))
        m_markdown->setText(cell->source.isEmpty() ? tr("*Empty markdown cell*") : cell->source);
    if (wants(NotebookModel::KindRole) || wants(NotebookModel::LanguageRole)) {
        const bool code = cell->kind == CellKind::Code;
        m_editor->setLanguage(code ? cell->language : u"markdown"_s);
        m_language->setText(!code ? (cell->kind == CellKind::Markdown ? tr("md") : tr("raw"))
                            : cell->language == "javascript"_L1 ? tr("JS")
                                                                : QString());
        if (!code && cell->kind != CellKind::Markdown)
            setRendered(false);
        if (code)
            setRendered(false);
    }
    if (wants(NotebookModel::OutputsRole))
        m_outputs->setOutputs(cell->outputs);
    updateFrame();
    updateStatus();
}

void CellWidget::updateFrame() {
    const NotebookCell *cell = m_model->cell(m_model->rowOfId(m_id));
    if (!cell)
        return;
    if (cell->kind != CellKind::Code) {
        m_prompt->clear();
    } else if (cell->state == CellState::Queued || cell->state == CellState::Running) {
        m_prompt->setText(u"[*]:"_s);
    } else {
        m_prompt->setText(cell->executionCount ? u"[%1]:"_s.arg(*cell->executionCount) : u"[ ]:"_s);
    }
    QPalette p = palette();
    const QPalette app = QPalette();
    p.setColor(QPalette::Window, m_current ? Palette::color(Palette::Role::CurrentLine, app)
                                           : app.color(QPalette::Base));
    setPalette(p);
}

void CellWidget::updateStatus() {
    const NotebookCell *cell = m_model->cell(m_model->rowOfId(m_id));
    if (!cell)
        return;
    QString text;
    Palette::Role colour = Palette::Role::TextMuted;
    switch (cell->state) {
    case CellState::Idle:
        break;
    case CellState::Queued:
        text = tr("Queued");
        break;
    case CellState::Running:
        text = tr("Running… %1").arg(elapsedText(std::max<qint64>(0, cell->elapsedMs)));
        colour = Palette::Role::StateBusy;
        break;
    case CellState::Done:
        text =
            cell->elapsedMs >= 0 ? tr("Done in %1").arg(elapsedText(cell->elapsedMs)) : QString();
        break;
    case CellState::Error:
        text = cell->elapsedMs >= 0 ? tr("Failed after %1").arg(elapsedText(cell->elapsedMs))
                                    : tr("Failed");
        colour = Palette::Role::TextError;
        break;
    }
    if (!cell->note.isEmpty())
        text = text.isEmpty() ? cell->note : text + u" · "_s + cell->note;
    m_status->setText(text);
    m_status->setStyleSheet(Palette::textStyle(colour));
    m_status->setVisible(!text.isEmpty());
}

void CellWidget::setCurrent(bool current) {
    if (m_current == current)
        return;
    m_current = current;
    updateFrame();
}

void CellWidget::setRendered(bool rendered) {
    const NotebookCell *cell = m_model->cell(m_model->rowOfId(m_id));
    if (rendered && (!cell || cell->kind != CellKind::Markdown))
        return;
    m_rendered = rendered;
    m_markdown->setVisible(rendered);
    m_editor->setVisible(!rendered);
}

void CellWidget::focusEditor() {
    if (m_rendered)
        m_markdown->setFocus();
    else
        m_editor->setFocus();
}

QString CellWidget::promptText() const {
    return m_prompt->text();
}

QString CellWidget::statusText() const {
    return m_status->isHidden() ? QString() : m_status->text();
}

QString CellWidget::renderedText() const {
    return m_rendered ? m_markdown->text() : QString();
}

void CellWidget::mousePressEvent(QMouseEvent *event) {
    QFrame::mousePressEvent(event);
    Q_EMIT focused(m_id);
}

bool CellWidget::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_markdown) {
        const auto edit = [this] {
            setRendered(false);
            m_editor->setFocus();
        };
        if (event->type() == QEvent::MouseButtonDblClick) {
            edit();
            return true;
        }
        if (event->type() == QEvent::FocusIn)
            Q_EMIT focused(m_id);
        if (event->type() == QEvent::KeyPress) {
            const auto *key = static_cast<QKeyEvent *>(event);
            if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
                if (key->modifiers() & (Qt::ShiftModifier | Qt::ControlModifier)) {
                    Q_EMIT runRequested(m_id, key->modifiers() & Qt::ShiftModifier);
                    return true;
                }
                edit();
                return true;
            }
            if (key->key() == Qt::Key_Up || key->key() == Qt::Key_Down) {
                Q_EMIT leaveRequested(m_id, key->key() == Qt::Key_Up ? -1 : 1);
                return true;
            }
        }
    }
    return QFrame::eventFilter(watched, event);
}

void CellWidget::resizeEvent(QResizeEvent *event) {
    QFrame::resizeEvent(event);
    // What is left beside the prompt column: a wide image is drawn no wider.
    const int room = event->size().width() - m_prompt->minimumWidth() - 40;
    m_outputs->setMaxImageWidth(std::max(100, room));
}

} // namespace sbx
