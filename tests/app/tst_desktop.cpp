// The desktop side of the real window: Help menu, shortcuts list, About, colours, toolbar style,
// the icon theme and accessible names.
#include "app/appearance.h"
#include "app/consolecontext.h"
#include "app/credits.h"
#include "app/mainwindow.h"
#include "client/providers/sandboxregistry.h"
#include "client/providers/savedendpoints.h"
#include "tests/support/accessibility.h"
#include "tests/support/modal.h"
#include "widgets/common/icons.h"
#include "widgets/dialogs/aboutdialog.h"
#include "widgets/dialogs/newsandboxdialog.h"
#include "widgets/dialogs/preferencesdialog.h"
#include "widgets/dialogs/sandboxdialog.h"
#include "widgets/dialogs/shortcutsdialog.h"
#include "widgets/logs/logwindow.h"
#include "widgets/workspace/sandboxworkspace.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QShortcut>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include <functional>
#include <memory>
#include <vector>

using namespace sbx;
using namespace sbxtest;
using namespace Qt::StringLiterals;

namespace {

bool lists(const QList<ShortcutEntry> &entries, const QString &keys, const QString &area) {
    return std::any_of(entries.cbegin(), entries.cend(), [&](const ShortcutEntry &e) {
        return e.keys == keys && (area.isEmpty() || e.area == area);
    });
}

QString native(const char *keys) {
    return QKeySequence(QString::fromLatin1(keys)).toString(QKeySequence::NativeText);
}

} // namespace

class TestDesktop final : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ConsoleContext::Paths paths(const QString &name) const {
        return {m_dir.filePath(name + u".conf"_s), m_dir.filePath(name + u"-data"_s),
                QStringLiteral(SBX_SERVER_BINARY), false};
    }
    // A saved sandbox nobody answers for: its workspace and tabs exist without a server.
    static QString addOffline(ConsoleContext &context, MainWindow &window) {
        const QString id = context.saved()->add({QString(),
                                                 u"Desk"_s,
                                                 {QUrl(u"http://127.0.0.1:9"_s), {}},
                                                 {},
                                                 SandboxState::Online,
                                                 {}});
        window.selectSandbox(id);
        return id;
    }

private Q_SLOTS:
    void helpMenuListsShortcutsAndAbout();
    void shortcutsCoverWindowTabsAndTerminal();
    void shortcutsFilter();
    void aboutNamesTheLibraries();
    void darkColoursApplyAndPersist();
    void toolBarIconsOnly();
    void themeIconsWithOwnFallback();
    void controlsHaveAccessibleNames();
    void earlierFoldersMoveOnce();
};

void TestDesktop::helpMenuListsShortcutsAndAbout() {
    ConsoleContext context(paths(u"help"_s));
    MainWindow window(&context);
    QStringList menus;
    QMenu *help = nullptr;
    for (QAction *action : window.menuBar()->actions()) {
        menus << action->text();
        if (action->text() == u"&Help"_s)
            help = action->menu();
    }
    QVERIFY2(help, qPrintable(menus.join(u", "_s)));
    QStringList names;
    for (const QAction *action : help->actions())
        names << action->objectName();
    QCOMPARE(names, QStringList({u"showShortcuts"_s, u"showAbout"_s}));
    for (const QAction *action : help->actions())
        QVERIFY2(!action->icon().isNull(), qPrintable(action->text()));
    // Ctrl+/ opens the list from anywhere in the window.
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    bool opened = false;
    onModal<ShortcutsDialog>([&opened](ShortcutsDialog *dialog) {
        opened = dialog->visibleRows() > 10;
        dialog->reject();
    });
    QTest::keyClick(&window, Qt::Key_Slash, Qt::ControlModifier);
    QTRY_VERIFY(opened);
}

void TestDesktop::shortcutsCoverWindowTabsAndTerminal() {
    ConsoleContext context(paths(u"keys"_s));
    MainWindow window(&context);
    addOffline(context, window);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // What Help > Keyboard Shortcuts lists, tabs never shown (so not built yet) included.
    QList<ShortcutEntry> entries;
    onModal<ShortcutsDialog>([&entries](ShortcutsDialog *dialog) {
        entries = dialog->entries();
        dialog->reject();
    });
    QTest::keyClick(&window, Qt::Key_Slash, Qt::ControlModifier);
    QTRY_VERIFY(!entries.isEmpty());
    // The window's own actions, a tab's shortcut under the tab's title, the sandbox list's keys,
    // the log window's and the keys the terminal view handles itself.
    QVERIFY(lists(entries, native("Ctrl+Shift+I"), window.windowTitle()));
    QVERIFY(lists(entries, native("Ctrl+Shift+T"), u"Terminal"_s));
    QVERIFY(lists(entries, native("F7"), u"Files"_s));
    QVERIFY(lists(entries, native("Ctrl+Shift+Return"), u"Code"_s));
    QVERIFY(lists(entries, native("Ctrl+O"), {})); // the log window's Open
    QVERIFY(lists(entries, native("Del"), u"Sandbox list"_s));
    QVERIFY(lists(entries, native("Ctrl+W"), {}));
    QVERIFY(lists(entries, native("Ctrl+Shift+C"), u"Terminal"_s));
    // Every QShortcut of the window tells what it does: none is left out for want of a text.
    for (QWidget *root :
         {static_cast<QWidget *>(&window), static_cast<QWidget *>(window.logWindow())}) {
        for (const QShortcut *shortcut : root->findChildren<QShortcut *>())
            QVERIFY2(!shortcut->whatsThis().isEmpty(), qPrintable(shortcut->key().toString()));
    }
    for (const ShortcutEntry &entry : entries) {
        QVERIFY(!entry.description.contains(u'&'));
        QVERIFY(!entry.area.isEmpty());
    }
}

void TestDesktop::shortcutsFilter() {
    const QList<ShortcutEntry> entries{{u"Files"_s, u"F7"_s, u"New folder"_s},
                                       {u"Terminal"_s, u"Ctrl+Shift+T"_s, u"New terminal"_s},
                                       {u"Logs"_s, u"Ctrl+G"_s, u"Go to a line"_s}};
    ShortcutsDialog dialog(entries);
    QCOMPARE(dialog.visibleRows(), 3);
    dialog.filterField()->setText(u"new"_s); // by description, any case
    QCOMPARE(dialog.visibleRows(), 2);
    dialog.filterField()->setText(u"ctrl+g"_s); // by keys
    QCOMPARE(dialog.visibleRows(), 1);
    dialog.filterField()->setText(u"terminal"_s); // by place
    QCOMPARE(dialog.visibleRows(), 1);
    dialog.filterField()->setText(u"nothing like it"_s);
    QCOMPARE(dialog.visibleRows(), 0);
}

void TestDesktop::aboutNamesTheLibraries() {
    ConsoleContext context(paths(u"about"_s));
    MainWindow window(&context);
    QString version;
    QStringList libraries;
    onModal<AboutDialog>([&](AboutDialog *dialog) {
        for (const QLabel *label : dialog->findChildren<QLabel *>())
            version += label->text();
        auto *list = dialog->findChild<QTreeWidget *>(u"libraries"_s);
        for (int i = 0; list && i < list->topLevelItemCount(); ++i)
            libraries << list->topLevelItem(i)->text(0) + u' ' + list->topLevelItem(i)->text(2);
        dialog->reject();
    });
    window.showAbout();
    QVERIFY2(version.contains(QCoreApplication::applicationVersion()), qPrintable(version));
    const QString all = libraries.join(u'\n');
    for (const QString &expected :
         {u"Qt LGPL-3.0-only"_s, u"libvterm MIT"_s, u"OpenSSL Apache-2.0"_s})
        QVERIFY2(all.contains(expected), qPrintable(all));
}

void TestDesktop::darkColoursApplyAndPersist() {
    const QColor lightWindow = QApplication::palette().color(QPalette::Window);
    {
        ConsoleContext context(paths(u"dark"_s));
        MainWindow window(&context);
        onModal<PreferencesDialog>([](PreferencesDialog *dialog) {
            auto *colours = dialog->findChild<QComboBox *>(u"colours"_s);
            QVERIFY(colours);
            colours->setCurrentIndex(colours->findData(u"dark"_s));
            dialog->accept();
        });
        window.showPreferences();
        QCOMPARE(context.preferences().colours, u"dark"_s);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        QTRY_COMPARE(window.palette().color(QPalette::Window),
                     darkPalette().color(QPalette::Window));
        // The icons follow: the dark variant of the theme, or our own drawn light on dark.
        if (!Icons::themeNameFor(u"start"_s).isEmpty())
            QVERIFY2(QIcon::themeName().contains(u"dark"_s, Qt::CaseInsensitive) ||
                         QIcon::themeName() == u"Adwaita"_s,
                     qPrintable(QIcon::themeName()));
    }
    ConsoleContext again(paths(u"dark"_s));
    QCOMPARE(again.preferences().colours, u"dark"_s);
    applyAppearance(QString()); // back to the desktop's
    QCOMPARE(QApplication::palette().color(QPalette::Window), lightWindow);
}

void TestDesktop::toolBarIconsOnly() {
    ConsoleContext context(paths(u"toolbar"_s));
    MainWindow window(&context);
    auto *toolbar = window.findChild<QToolBar *>(u"sandboxToolbar"_s);
    QVERIFY(toolbar);
    QCOMPARE(toolbar->toolButtonStyle(), Qt::ToolButtonTextBesideIcon); // icon + text by default
    Preferences p = context.preferences();
    p.toolBarIconsOnly = true;
    context.setPreferences(p);
    QCOMPARE(toolbar->toolButtonStyle(), Qt::ToolButtonIconOnly);
    ConsoleContext again(paths(u"toolbar"_s));
    QVERIFY(again.preferences().toolBarIconsOnly);
}

void TestDesktop::themeIconsWithOwnFallback() {
    const QString theme = Icons::setupTheme(QApplication::palette());
    if (theme.isEmpty())
        QSKIP("no icon theme installed (install-deps installs breeze-icon-theme)");
    // A theme answers the standard names; what it lacks (and the states) is our own.
    QCOMPARE(Icons::themeNameFor(u"start"_s), u"media-playback-start"_s);
    QCOMPARE(Icons::icon(u"start"_s).name(), u"media-playback-start"_s);
    QVERIFY(Icons::themeNameFor(u"hooks"_s).isEmpty());
    QVERIFY(!Icons::icon(u"hooks"_s).isNull());
    QVERIFY(!Icons::stateIcon(u"paused"_s, Qt::red).pixmap(16).isNull());
    // Without the theme every name still has an icon: the fallback when none is installed.
    Icons::setThemeEnabled(false);
    for (const QString &name : Icons::names()) {
        QVERIFY2(Icons::themeNameFor(name).isEmpty(), qPrintable(name));
        QVERIFY2(!Icons::icon(name).pixmap(16).isNull(), qPrintable(name));
    }
    Icons::setThemeEnabled(true);
}

void TestDesktop::controlsHaveAccessibleNames() {
    ConsoleContext context(paths(u"a11y"_s));
    MainWindow window(&context);
    window.show();
    const QString id = addOffline(context, window);
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // What a screen reader is told: every control of the window, of each workspace tab and of
    // each dialog has a name.
    QStringList blank = unnamedControls(&window);
    auto *tabs = window.workspace(id)->findChild<QTabWidget *>();
    QVERIFY(tabs);
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        for (const QString &control : unnamedControls(tabs->widget(i)))
            blank << tabs->tabText(i) + u": "_s + control;
    }
    window.logWindow()->show();
    for (const QString &control : unnamedControls(window.logWindow()))
        blank << u"Log window: "_s + control;
    std::vector<std::unique_ptr<QDialog>> dialogs;
    dialogs.emplace_back(new PreferencesDialog(context.preferences()));
    dialogs.emplace_back(new ShortcutsDialog(collectShortcuts({&window})));
    dialogs.emplace_back(new AboutDialog(u"1.0"_s, libraryCredits()));
    dialogs.emplace_back(new SandboxDialog());
    dialogs.emplace_back(new NewSandboxDialog(u"Box"_s, context.registry()->providers()));
    for (const auto &dialog : dialogs) {
        dialog->show();
        for (const QString &control : unnamedControls(dialog.get()))
            blank << QString::fromLatin1(dialog->metaObject()->className()) + u": "_s + control;
    }
    for (const QString &control : blank)
        qWarning("no accessible name: %s", qPrintable(control));
    QVERIFY2(blank.isEmpty(), qPrintable(u"%1 controls without a name"_s.arg(blank.size())));
}

void TestDesktop::earlierFoldersMoveOnce() {
    QTemporaryDir home;
    const QByteArray config = home.filePath(u"config"_s).toLocal8Bit();
    const QByteArray data = home.filePath(u"data"_s).toLocal8Bit();
    qputenv("XDG_CONFIG_HOME", config);
    qputenv("XDG_DATA_HOME", data);
    const QString organisation = QCoreApplication::organizationName();
    const QString application = QCoreApplication::applicationName();
    QCoreApplication::setOrganizationName(u"SandboxConsole"_s);
    QCoreApplication::setApplicationName(u"sandbox-console"_s);
    // The layout of the first versions: the organisation and the program, one inside the other.
    const QString oldData = home.filePath(u"data/SandboxConsole/sandbox-console"_s);
    const QString oldWorkspace = oldData + u"/sandboxes/abc/workspace"_s;
    QVERIFY(QDir().mkpath(oldWorkspace));
    QFile file(oldWorkspace + u"/notes.txt"_s);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("mine");
    file.close();
    QVERIFY(QDir().mkpath(home.filePath(u"config/SandboxConsole/sandbox-console"_s)));
    {
        QSettings old(
            home.filePath(u"config/SandboxConsole/sandbox-console/sandbox-console.conf"_s),
            QSettings::IniFormat);
        old.setValue(u"local/abc/workspace"_s, oldWorkspace);
        old.setValue(u"preferences/pollIntervalMs"_s, 7000);
    }
    const ConsoleContext::Paths paths = ConsoleContext::defaultPaths();
    QCoreApplication::setOrganizationName(organisation);
    QCoreApplication::setApplicationName(application);
    qunsetenv("XDG_CONFIG_HOME");
    qunsetenv("XDG_DATA_HOME");
    QCOMPARE(paths.settingsFile, home.filePath(u"config/sandbox-console/sandbox-console.conf"_s));
    QCOMPARE(paths.dataDir, home.filePath(u"data/sandbox-console"_s));
    QVERIFY(!QFileInfo::exists(home.filePath(u"data/SandboxConsole"_s)));
    const QString newWorkspace = paths.dataDir + u"/sandboxes/abc/workspace"_s;
    QFile moved(newWorkspace + u"/notes.txt"_s);
    QVERIFY(moved.open(QIODevice::ReadOnly));
    QCOMPARE(moved.readAll(), QByteArray("mine"));
    QSettings now(paths.settingsFile, QSettings::IniFormat);
    QCOMPARE(now.value(u"local/abc/workspace"_s).toString(), newWorkspace);
    QCOMPARE(now.value(u"preferences/pollIntervalMs"_s).toInt(), 7000);
}

QTEST_MAIN(TestDesktop)
#include "tst_desktop.moc"
