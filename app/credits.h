#pragma once

#include "widgets/dialogs/aboutdialog.h"

#include <QList>

namespace sbx {

// The libraries sandbox-console and sandbox-server are built on, with the versions they were
// built against (Qt's at run time) and their licences, for Help > About.
QList<LibraryCredit> libraryCredits();

} // namespace sbx
