#pragma once

#include <QLibrary>
#include <QString>
#include <QStringList>

namespace sbx {

// A shared library opened at its first use instead of at start-up, its functions bound by name
// into a table of typed pointers. libcurl and libcrypto bring in some thirty libraries that the
// console's first window does not need; linked, the dynamic loader would relocate them all before
// main(). The library stays loaded for the life of the process.
class LazyLibrary final {
public:
    // The library's base name and major version: ("curl", 4) opens libcurl.so.4.
    LazyLibrary(const QString &name, int version);

    // Binds slot to symbol; a missing symbol is remembered for error().
    template <typename Function> void bind(Function &slot, const char *symbol) {
        slot = reinterpret_cast<Function>(m_library.resolve(symbol));
        if (!slot)
            m_missing << QString::fromLatin1(symbol);
    }

    // Empty when the library loaded and every bound symbol was found; else why not, in words.
    QString error() const;

private:
    QLibrary m_library;
    QString m_loadError;
    QStringList m_missing;
};

} // namespace sbx
