#include "widgets/mcp/mcpresultview.h"

#include "models/mcp/jsontreemodel.h"
#include "models/palette.h"
#include "widgets/common/userprompts.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxImageSide = 1024; // larger images are scaled down to fit, never up
constexpr int kMaxTextLines = 18;   // a text part grows to this many lines, then scrolls

QLabel *headingLabel(const QString &text, QWidget *parent) {
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setStyleSheet(Palette::textStyle(Palette::Role::TextMuted));
    label->setWordWrap(true);
    return label;
}

} // namespace

McpResultView::McpResultView(QWidget *parent)
    : QWidget(parent)
    , m_banner(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_content(new QWidget)
    , m_parts(new QVBoxLayout(m_content))
    , m_structured(new JsonTreeModel(this))
    , m_tree(new QTreeView(this))
    , m_structuredBox(new QWidget(this)) {
    m_banner->setObjectName(u"toolErrorBanner"_s);
    m_banner->setStyleSheet(Palette::bannerStyle(u"toolErrorBanner"_s, true) +
                            u" #toolErrorBanner { padding: 6px; }"_s);
    m_banner->setText(
        tr("The tool reported an error (isError). Its content says what went wrong."));
    m_banner->setWordWrap(true);
    m_banner->hide();
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);

    m_parts->setContentsMargins(4, 4, 4, 4);
    m_parts->addStretch();
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_content);
    scroll->setFrameShape(QFrame::StyledPanel);

    m_tree->setModel(m_structured);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setSectionResizeMode(JsonTreeModel::KeyColumn, QHeaderView::ResizeToContents);
    auto *structuredLayout = new QVBoxLayout(m_structuredBox);
    structuredLayout->setContentsMargins(0, 0, 0, 0);
    structuredLayout->addWidget(new QLabel(tr("<b>Structured content</b>"), m_structuredBox));
    structuredLayout->addWidget(m_tree, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(scroll);
    splitter->addWidget(m_structuredBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({300, 200}); // a scroll area's own hint is small: the content comes first

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_banner);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    clear();
}

void McpResultView::clear() {
    while (m_parts->count() > 1) {
        QLayoutItem *item = m_parts->takeAt(0);
        delete item->widget();
        delete item;
    }
    m_banner->hide();
    m_summary->setText(tr("Fill in the form and press Call (Ctrl+Enter). The result shows here."));
    m_summary->setStyleSheet({});
    m_structured->clear();
    m_structuredBox->hide();
}

void McpResultView::showMessage(const QString &text) {
    clear();
    m_summary->setText(text);
}

void McpResultView::showCall(const McpCall &call) {
    clear();
    const QString head = call.server + u" / "_s + call.tool + u" · "_s;
    switch (call.outcome) {
    case McpCall::Outcome::Running:
        m_summary->setText(head + tr("calling…"));
        return;
    case McpCall::Outcome::Failed:
        m_summary->setText(head + tr("The call failed: %1").arg(call.error));
        m_summary->setStyleSheet(Palette::textStyle(Palette::Role::TextError));
        return;
    case McpCall::Outcome::Cancelled:
        m_summary->setText(head + tr("Cancelled: no result."));
        return;
    case McpCall::Outcome::Ok:
    case McpCall::Outcome::ToolError:
        break;
    }
    m_summary->setText(head + resultSummary(call.result) +
                       (call.elapsedMs >= 0 ? tr(" · %1 ms").arg(call.elapsedMs) : QString()));
    m_banner->setVisible(call.result.isError);
    for (const ResultPart &part : resultParts(call.result))
        addPart(part);
    if (!call.result.structuredContent.is_null()) {
        m_structured->setJson(call.result.structuredContent);
        m_tree->expandToDepth(1);
        m_structuredBox->show();
    }
}

void McpResultView::addPart(const ResultPart &part) {
    auto *box = new QWidget(m_content);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 6);
    if (!part.heading.isEmpty() || !part.data.isEmpty()) {
        auto *headRow = new QHBoxLayout;
        headRow->addWidget(headingLabel(part.heading, box), 1);
        if (!part.data.isEmpty()) {
            auto *saveButton = new QPushButton(tr("Save…"), box);
            saveButton->setToolTip(tr("Save this content to a file"));
            connect(saveButton, &QPushButton::clicked, this, [this, part] { save(part); });
            headRow->addWidget(saveButton, 0, Qt::AlignTop);
        }
        layout->addLayout(headRow);
    }
    if (part.kind == ResultPart::Kind::Image) {
        auto *image = new QLabel(box);
        image->setObjectName(u"resultImage"_s);
        QPixmap pixmap = QPixmap::fromImage(part.image);
        if (pixmap.width() > kMaxImageSide || pixmap.height() > kMaxImageSide)
            pixmap = pixmap.scaled(kMaxImageSide, kMaxImageSide, Qt::KeepAspectRatio,
                                   Qt::SmoothTransformation);
        image->setPixmap(pixmap);
        image->setToolTip(part.heading);
        layout->addWidget(image, 0, Qt::AlignLeft);
    }
    if (part.kind == ResultPart::Kind::Link) {
        auto *link = new QLabel(box);
        link->setObjectName(u"resultLink"_s);
        const bool web = part.uri.startsWith("http://"_L1) || part.uri.startsWith("https://"_L1);
        link->setTextFormat(web ? Qt::RichText : Qt::PlainText);
        link->setText(web ? u"<a href=\"%1\">%1</a>"_s.arg(part.uri.toHtmlEscaped()) : part.uri);
        link->setOpenExternalLinks(web);
        link->setTextInteractionFlags(Qt::TextBrowserInteraction);
        layout->addWidget(link);
    }
    if (!part.text.isEmpty()) {
        auto *text = new QPlainTextEdit(box);
        text->setObjectName(u"resultText"_s);
        text->setReadOnly(true);
        text->setPlainText(part.text);
        text->setFrameShape(QFrame::NoFrame);
        text->setBackgroundRole(QPalette::Base);
        const int lines = qBound(1, int(part.text.count(u'\n')) + 1, kMaxTextLines);
        text->setFixedHeight(text->fontMetrics().lineSpacing() * lines +
                             2 * int(text->document()->documentMargin()) + 4);
        layout->addWidget(text);
    }
    m_parts->insertWidget(m_parts->count() - 1, box);
}

void McpResultView::save(const ResultPart &part) {
    UserPrompts *prompts = m_prompts ? m_prompts : dialogPrompts();
    const auto path = prompts->askSaveFile(this, tr("Save the result"), part.suggestedName);
    if (!path)
        return;
    QSaveFile file(*path);
    if (!file.open(QIODevice::WriteOnly) || file.write(part.data) != part.data.size() ||
        !file.commit())
        m_summary->setText(tr("Could not write %1.").arg(*path));
}

bool McpResultView::showsToolError() const {
    return !m_banner->isHidden();
}

QString McpResultView::summaryText() const {
    return m_summary->text();
}

QString McpResultView::contentText() const {
    QStringList texts;
    for (const QPlainTextEdit *edit : m_content->findChildren<QPlainTextEdit *>())
        texts << edit->toPlainText();
    return texts.join(u'\n');
}

QList<QLabel *> McpResultView::imageLabels() const {
    return m_content->findChildren<QLabel *>(u"resultImage"_s);
}

} // namespace sbx
