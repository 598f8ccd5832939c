#include "client/transport/lazylibrary.h"

#include <QCoreApplication>

namespace sbx {

LazyLibrary::LazyLibrary(const QString &name, int version)
    : m_library(name, version) {
    if (!m_library.load())
        m_loadError = m_library.errorString();
}

QString LazyLibrary::error() const {
    if (!m_loadError.isEmpty())
        return m_loadError;
    if (m_missing.isEmpty())
        return {};
    return QCoreApplication::translate("sbx::LazyLibrary", "%1 lacks %2")
        .arg(m_library.fileName(), m_missing.join(u", "));
}

} // namespace sbx
