#include "app/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace sbx {

using namespace Qt::StringLiterals;

QLocale installTranslations(const QString &language) {
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    if (!language.isEmpty())
        QLocale::setDefault(locale);
    // Tries each of the locale's UI languages (zh-CN, zh-Hans-CN, zh, ...) in order.
    auto *console = new QTranslator(QCoreApplication::instance());
    if (!console->load(locale, u"sandbox-console"_s, u"_"_s, u":/i18n"_s)) {
        delete console;
        return QLocale::c();
    }
    QCoreApplication::installTranslator(console);
    // Qt's own strings (standard buttons, file dialogs, context menus) only with the console's,
    // so that a language the console does not speak gives one English window, not a mixture.
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return QLocale(console->language());
}

} // namespace sbx
