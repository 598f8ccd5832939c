#pragma once

#include <QEvent>
#include <QObject>

namespace sbxtest {

// Counts the paint events of the widget it is installed on (as an event filter).
class PaintCounter final : public QObject {
public:
    int paints = 0;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override {
        if (event->type() == QEvent::Paint)
            ++paints;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace sbxtest
