#pragma once

#include <QDialog>
#include <QList>
#include <QString>

namespace sbx {

// A library the console is built on, for Help > About.
struct LibraryCredit {
    QString name;
    QString version; // empty when the library does not tell
    QString licence; // SPDX identifier
    QString url;
};

// Help > About: the program, its version and licence, and the libraries with their licences.
class AboutDialog final : public QDialog {
    Q_OBJECT
public:
    AboutDialog(const QString &version, const QList<LibraryCredit> &libraries,
                QWidget *parent = nullptr);
};

} // namespace sbx
