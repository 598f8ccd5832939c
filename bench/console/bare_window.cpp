// The peer of bench-console-startup: a bare Qt Widgets program that shows a QMainWindow and
// reports as sandbox-console does (SBX_REPORT_STARTUP), so that the console's start-up can be
// set beside what Qt alone costs on the same machine and platform plugin.
#include <QApplication>
#include <QElapsedTimer>
#include <QMainWindow>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv) {
    QElapsedTimer clock;
    clock.start();
    QApplication app(argc, argv);
    QMainWindow window;
    window.resize(1200, 800);
    window.show();
    QTimer::singleShot(0, &window, [&clock] {
        std::fprintf(stderr, "startup: window shown %lld ms\n",
                     static_cast<long long>(clock.elapsed()));
        std::fprintf(stderr, "startup: sandbox online %lld ms\n",
                     static_cast<long long>(clock.elapsed()));
        QCoreApplication::quit();
    });
    return QApplication::exec();
}
