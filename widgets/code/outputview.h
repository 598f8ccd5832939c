#pragma once

#include "client/api/jupyterjobs.h"

#include <QImage>
#include <QList>
#include <QWidget>

class QVBoxLayout;

namespace sbx {

// A code cell's outputs, one widget each, in order: text with ANSI colours, HTML as rich text,
// markdown, PNG / JPEG / SVG images inline, errors with their coloured traceback. Wide images
// are scaled down to the width given; the images as decoded stay readable for tests.
class OutputView final : public QWidget {
    Q_OBJECT
public:
    explicit OutputView(QWidget *parent = nullptr);

    void setOutputs(const QList<CodeOutput> &outputs);
    int outputCount() const { return static_cast<int>(m_outputs.size()); }
    // The images shown, at their own size, in output order.
    QList<QImage> images() const { return m_images; }
    // What the outputs show, as plain text (no colours), for tests and copying.
    QString plainText() const;
    // Widest an image is drawn.
    void setMaxImageWidth(int width);

private:
    QWidget *makeOutput(const CodeOutput &output);
    QWidget *makeText(const QString &html, bool stderrStream, bool error);
    QWidget *makeImage(const QImage &image);
    void rescaleImages();

    QVBoxLayout *m_layout;
    QList<CodeOutput> m_outputs;
    QList<QImage> m_images;
    int m_maxImageWidth = 900;
};

} // namespace sbx
