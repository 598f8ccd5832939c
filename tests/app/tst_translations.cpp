// The console's translations: every source string translated, with its placeholders, mnemonic and
// markup kept; the .qm compiled into the resources; the language chosen in Preferences installed.
#include "app/consolecontext.h"
#include "app/mainwindow.h"
#include "app/translations.h"
#include "widgets/dialogs/preferencesdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QLibraryInfo>
#include <QPushButton>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QToolBar>
#include <QToolButton>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>

using namespace sbx;
using namespace Qt::StringLiterals;

namespace {

// How many missing or broken messages a failure names; the rest are counted.
constexpr int kNamed = 15;

struct Message {
    QString file;
    QString context;
    QString source;
    QString comment;
    bool unfinished = false;
    QStringList translations; // one per plural form; one entry for a plain message
};

QList<Message> readTs(const QString &path, QString *error) {
    QList<Message> messages;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"cannot open "_s + path;
        return messages;
    }
    QXmlStreamReader xml(&file);
    QString context;
    Message current;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == u"context"_s) {
            context.clear();
        } else if (name == u"name"_s) {
            context = xml.readElementText();
        } else if (name == u"message"_s) {
            current = {QFileInfo(path).fileName(), context, {}, {}, false, {}};
        } else if (name == u"source"_s) {
            current.source = xml.readElementText();
        } else if (name == u"comment"_s) {
            current.comment = xml.readElementText();
        } else if (name == u"translation"_s) {
            const auto type = xml.attributes().value(u"type"_s);
            // lupdate -no-obsolete drops these; were one left, it would not count as missing.
            const bool gone = type == u"vanished"_s || type == u"obsolete"_s;
            current.unfinished = type == u"unfinished"_s;
            QString text;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isCharacters())
                    text += xml.text();
                else if (xml.isStartElement() && xml.name() == u"numerusform"_s)
                    current.translations << xml.readElementText();
                else if (xml.isEndElement() && xml.name() == u"translation"_s)
                    break;
            }
            if (current.translations.isEmpty())
                current.translations << text;
            if (!gone)
                messages << current;
        }
    }
    if (xml.hasError())
        *error = u"%1: %2 at line %3"_s.arg(path, xml.errorString()).arg(xml.lineNumber());
    return messages;
}

QList<Message> allMessages() {
    QList<Message> all;
    const QDir dir(QStringLiteral(SBX_SOURCE_DIR) + u"/resources/translations"_s);
    const QStringList files = dir.entryList({u"*.ts"_s}, QDir::Files);
    for (const QString &name : files) {
        QString error;
        all += readTs(dir.filePath(name), &error);
        if (!error.isEmpty())
            qFatal("%s", qPrintable(error));
    }
    return all;
}

QString describe(const Message &m) {
    QString source = m.source;
    source.replace(u'\n', u"\\n"_s);
    QString line = u"  %1 [%2] \"%3\""_s.arg(m.file, m.context, source);
    if (!m.comment.isEmpty())
        line += u" (comment: %1)"_s.arg(m.comment);
    return line;
}

// The failure text: the count, then the first kNamed offenders with their context, one a line.
QString report(const QList<QString> &lines, int total, const QString &what, const QString &fix) {
    QString text = u"%1 of %2 messages %3. %4"_s.arg(lines.size()).arg(total).arg(what, fix);
    for (qsizetype i = 0; i < lines.size() && i < kNamed; ++i)
        text += u"\n"_s + lines.at(i);
    if (lines.size() > kNamed)
        text += u"\n  … and %1 more"_s.arg(lines.size() - kNamed);
    return text;
}

QStringList sorted(QStringList list) {
    list.sort();
    return list;
}

QStringList matches(const QRegularExpression &re, const QString &text) {
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    return found;
}

// A mnemonic is & before a letter or digit; && is a literal ampersand.
int mnemonics(const QString &text) {
    static const QRegularExpression re(u"&[A-Za-z0-9]"_s);
    return int(matches(re, QString(text).remove(u"&&"_s)).size());
}

// Chinese for the slots that need it, whichever runs first (a slot may be run on its own).
QLocale chinese() {
    static const QLocale installed = installTranslations(u"zh_CN"_s);
    return installed;
}

} // namespace

class TestTranslations final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyMessageIsTranslated();
    void placeholdersAreKept();
    void mnemonicsAreKept();
    void markupIsKept();
    void compiledIntoResources();
    void englishInstallsNothing();
    void chosenLanguageIsInstalled();
    void qtOwnStringsFollow();
    void toolBarShowsNoMnemonicSuffix();
    void preferencesOfferLanguages();
};

void TestTranslations::everyMessageIsTranslated() {
    const QList<Message> all = allMessages();
    QVERIFY2(!all.isEmpty(), "no message in resources/translations/*.ts");
    QStringList missing;
    for (const Message &m : all) {
        const bool empty = std::any_of(m.translations.cbegin(), m.translations.cend(),
                                       [](const QString &t) { return t.trimmed().isEmpty(); });
        if (m.unfinished || empty)
            missing << describe(m);
    }
    QVERIFY2(missing.isEmpty(),
             qPrintable(report(missing, int(all.size()), u"have no translation"_s,
                               u"Translate them in resources/translations (Qt Linguist, or by "
                               "hand: write the text and drop type=\"unfinished\"):"_s)));
}

void TestTranslations::placeholdersAreKept() {
    static const QRegularExpression re(u"%L?[1-9]|%n"_s);
    const QList<Message> all = allMessages();
    QStringList broken;
    for (const Message &m : all) {
        const QStringList wanted = sorted(matches(re, m.source));
        for (const QString &t : m.translations) {
            if (!t.isEmpty() && sorted(matches(re, t)) != wanted)
                broken << describe(m) + u" -> \"%1\""_s.arg(t);
        }
    }
    QVERIFY2(broken.isEmpty(),
             qPrintable(report(broken, int(all.size()), u"lose or add a placeholder"_s,
                               u"Keep %1, %L1 and %n as in the source:"_s)));
}

void TestTranslations::mnemonicsAreKept() {
    static const QRegularExpression suffix(u"\\(&[A-Za-z0-9]\\)"_s);
    const QList<Message> all = allMessages();
    QStringList broken;
    for (const Message &m : all) {
        const int wanted = mnemonics(m.source);
        for (const QString &t : m.translations) {
            // Chinese text has no letter to underline: the mnemonic is a "(&F)" suffix.
            const bool cjk = m.file.contains(u"_zh"_s);
            if (!t.isEmpty() &&
                (mnemonics(t) != wanted || (cjk && wanted > 0 && !t.contains(suffix))))
                broken << describe(m) + u" -> \"%1\""_s.arg(t);
        }
    }
    QVERIFY2(broken.isEmpty(),
             qPrintable(report(broken, int(all.size()), u"lose or add a mnemonic"_s,
                               u"One & per string where the source has one; in Chinese as a "
                               "\"(&F)\" suffix, e.g. 文件(&F):"_s)));
}

void TestTranslations::markupIsKept() {
    static const QRegularExpression re(u"</?[a-zA-Z]+[^>]*>"_s);
    const QList<Message> all = allMessages();
    QStringList broken;
    for (const Message &m : all) {
        const QStringList wanted = sorted(matches(re, m.source));
        for (const QString &t : m.translations) {
            if (!t.isEmpty() && sorted(matches(re, t)) != wanted)
                broken << describe(m) + u" -> \"%1\""_s.arg(t);
        }
    }
    QVERIFY2(broken.isEmpty(),
             qPrintable(report(broken, int(all.size()), u"lose or add an HTML tag"_s,
                               u"Keep the source's tags:"_s)));
}

void TestTranslations::compiledIntoResources() {
    QVERIFY(QFile::exists(u":/i18n/sandbox-console_zh_CN.qm"_s));
    QTranslator translator;
    QVERIFY(translator.load(QLocale(QLocale::Chinese, QLocale::China), u"sandbox-console"_s, u"_"_s,
                            u":/i18n"_s));
    QCOMPARE(translator.translate("sbx::MainWindow", "Sandbox Console"), u"沙箱控制台"_s);
    // Plural forms survive lrelease: Chinese has one, used for every count.
    const QString plural = translator.translate(
        "sbx::MainWindow", "%n transfer(s) have not finished. Quitting cancels them.", nullptr, 3);
    QVERIFY2(plural.contains(u"%n"_s) && plural.contains(u"传输"_s), qPrintable(plural));
}

void TestTranslations::englishInstallsNothing() {
    const auto translators = [] {
        return qApp->findChildren<QTranslator *>().size();
    };
    const auto before = translators();
    QCOMPARE(installTranslations(u"en"_s), QLocale::c());
    QCOMPARE(translators(), before);
}

void TestTranslations::chosenLanguageIsInstalled() {
    QCOMPARE(chinese().name(), u"zh_CN"_s);
    QCOMPARE(QCoreApplication::translate("sbx::MainWindow", "&Quit"), u"退出(&Q)"_s);
    QCOMPARE(QCoreApplication::translate("sbx::FilesTab", "Upload…"), u"上传…"_s);
}

void TestTranslations::qtOwnStringsFollow() {
    const QString qm = QLibraryInfo::path(QLibraryInfo::TranslationsPath) + u"/qtbase_zh_CN.qm"_s;
    if (!QFile::exists(qm))
        QSKIP(qPrintable(qm + u" is missing: install qt6-translations-l10n "
                              "(packaging/install-deps.sh)"_s));
    chinese();
    QDialogButtonBox buttons(QDialogButtonBox::Cancel);
    QCOMPARE(buttons.button(QDialogButtonBox::Cancel)->text(), u"取消"_s);
}

void TestTranslations::toolBarShowsNoMnemonicSuffix() {
    // Menus show 启动(T); the toolbar button of the same action reads 启动, as in Chinese UIs.
    chinese();
    QTemporaryDir dir;
    ConsoleContext context({dir.filePath(u"console.conf"_s), dir.filePath(u"data"_s),
                            QStringLiteral(SBX_SERVER_BINARY), false});
    MainWindow window(&context);
    auto *toolbar = window.findChild<QToolBar *>(u"sandboxToolbar"_s);
    QVERIFY(toolbar);
    QStringList texts;
    const QList<QAction *> actions = toolbar->actions();
    for (QAction *action : actions) {
        if (auto *button = qobject_cast<QToolButton *>(toolbar->widgetForAction(action)))
            texts << button->text();
    }
    QVERIFY2(texts.contains(u"启动"_s), qPrintable(texts.join(u", "_s)));
    for (const QString &text : std::as_const(texts))
        QVERIFY2(!text.contains(u'('), qPrintable(text));
}

void TestTranslations::preferencesOfferLanguages() {
    Preferences chosen;
    chosen.language = u"zh_CN"_s;
    PreferencesDialog dialog(chosen);
    QComboBox *box = dialog.languageBox();
    QCOMPARE(box->count(), 3);
    QCOMPARE(box->currentText(), u"简体中文"_s);
    box->setCurrentIndex(box->findData(u"en"_s));
    QCOMPARE(dialog.preferences().language, u"en"_s);
    box->setCurrentIndex(0);
    QCOMPARE(dialog.preferences().language, QString());

    // Saved with the other preferences, and read back before any context exists at start-up.
    QTemporaryDir dir;
    const ConsoleContext::Paths paths{dir.filePath(u"console.conf"_s), dir.filePath(u"data"_s),
                                      QStringLiteral(SBX_SERVER_BINARY), false};
    {
        ConsoleContext context(paths);
        QCOMPARE(context.preferences().language, QString());
        context.setPreferences(chosen);
    }
    QCOMPARE(ConsoleContext::savedLanguage(paths.settingsFile), u"zh_CN"_s);
    ConsoleContext again(paths);
    QCOMPARE(again.preferences().language, u"zh_CN"_s);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
