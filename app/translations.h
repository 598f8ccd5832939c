#pragma once

#include <QLocale>
#include <QString>

namespace sbx {

// Installs the console's translation (compiled into the resources under :/i18n) and Qt's own
// (qtbase, from Qt's translations folder) for the language chosen in Preferences: empty follows
// the system locale, "en" is the source text, otherwise a locale name such as "zh_CN". Call once,
// after the application object exists and before any window is built. Returns the locale whose
// translation was installed, or QLocale::c() when the source text is used.
QLocale installTranslations(const QString &language);

} // namespace sbx
