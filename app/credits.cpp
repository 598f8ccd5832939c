#include "app/credits.h"

#include <QString>
#include <QtGlobal>

#include <boost/version.hpp>
#include <curl/curlver.h>
#include <nlohmann/json.hpp>
#include <openssl/opensslv.h>
#include <vterm.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace sbx {

using namespace Qt::StringLiterals;

namespace {

QString dotted(int major, int minor, int patch = -1) {
    return patch < 0 ? u"%1.%2"_s.arg(major).arg(minor)
                     : u"%1.%2.%3"_s.arg(major).arg(minor).arg(patch);
}

} // namespace

QList<LibraryCredit> libraryCredits() {
    return {
        {u"Qt"_s, QString::fromLatin1(qVersion()), u"LGPL-3.0-only"_s, u"https://www.qt.io"_s},
        {u"QtKeychain"_s, {}, u"BSD-3-Clause"_s, u"https://github.com/frankosterfeld/qtkeychain"_s},
        {u"libvterm"_s, dotted(VTERM_VERSION_MAJOR, VTERM_VERSION_MINOR), u"MIT"_s,
         u"https://www.leonerd.org.uk/code/libvterm/"_s},
        {u"PCRE2"_s, dotted(PCRE2_MAJOR, PCRE2_MINOR), u"BSD-3-Clause WITH PCRE2-exception"_s,
         u"https://github.com/PCRE2Project/pcre2"_s},
        {u"JSON for Modern C++"_s,
         dotted(NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
                NLOHMANN_JSON_VERSION_PATCH),
         u"MIT"_s, u"https://github.com/nlohmann/json"_s},
        {u"libcurl"_s, QString::fromLatin1(LIBCURL_VERSION), u"curl"_s, u"https://curl.se"_s},
        {u"OpenSSL"_s, dotted(OPENSSL_VERSION_MAJOR, OPENSSL_VERSION_MINOR, OPENSSL_VERSION_PATCH),
         u"Apache-2.0"_s, u"https://www.openssl.org"_s},
        {u"libjwt"_s, {}, u"MPL-2.0"_s, u"https://github.com/benmcollins/libjwt"_s},
        {u"Boost (Asio, Beast)"_s,
         dotted(BOOST_VERSION / 100000, BOOST_VERSION / 100 % 1000, BOOST_VERSION % 100),
         u"BSL-1.0"_s, u"https://www.boost.org"_s},
        {u"ZeroMQ, cppzmq"_s, {}, u"MPL-2.0, MIT"_s, u"https://zeromq.org"_s},
        {u"libsodium"_s, {}, u"ISC"_s, u"https://libsodium.org"_s},
        {u"Breeze icons"_s,
         {},
         u"LGPL-3.0-or-later"_s,
         u"https://invent.kde.org/frameworks/breeze-icons"_s},
    };
}

} // namespace sbx
