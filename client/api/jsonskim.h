#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

#include <initializer_list>
#include <string_view>

namespace sbx {

// Takes the values of the named string fields (at any depth, first occurrence of each) out of a
// JSON text, decoded to UTF-8 bytes, and returns the text with those values emptied ("") for a
// JSON parser to read the rest. nlohmann's lexer goes a character at a time, about 60 MB/s;
// this copies runs between escapes, at memory speed: /v1/bash/output carries up to 4 MiB per
// stream. values gets one entry per name (empty when absent). False when the text is cut off
// inside a string or holds a bad escape: then parse it the slow way.
bool skimJsonStrings(QByteArrayView json, std::initializer_list<std::string_view> names,
                     QList<QByteArray> &values, QByteArray &rest);

} // namespace sbx
