#pragma once

#include <QApplication>
#include <QTimer>
#include <QtTest>

#include <functional>

namespace sbxtest {

// Runs fn on the next modal dialog of type T once it is shown, while the caller's exec() blocks.
template <typename T> void onModal(std::function<void(T *)> fn) {
    QTimer::singleShot(0, qApp, [fn] {
        T *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = qobject_cast<T *>(QApplication::activeModalWidget())) != nullptr, 5000);
        fn(dialog);
    });
}

} // namespace sbxtest
