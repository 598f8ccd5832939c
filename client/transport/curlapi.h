#pragma once

#include <curl/curl.h>

#include <QString>

namespace sbx {

// The libcurl functions the console calls, resolved from libcurl.so.4 at the first transfer that
// needs them (uploads and container engines) rather than at start-up.
struct CurlApi {
    decltype(&curl_easy_init) easyInit = nullptr;
    decltype(&curl_easy_setopt) easySetopt = nullptr;
    decltype(&curl_easy_perform) easyPerform = nullptr;
    decltype(&curl_easy_getinfo) easyGetinfo = nullptr;
    decltype(&curl_easy_cleanup) easyCleanup = nullptr;
    decltype(&curl_easy_strerror) easyStrerror = nullptr;
    decltype(&curl_slist_append) slistAppend = nullptr;
    decltype(&curl_slist_free_all) slistFreeAll = nullptr;
    decltype(&curl_mime_init) mimeInit = nullptr;
    decltype(&curl_mime_addpart) mimeAddpart = nullptr;
    decltype(&curl_mime_name) mimeName = nullptr;
    decltype(&curl_mime_filename) mimeFilename = nullptr;
    decltype(&curl_mime_type) mimeType = nullptr;
    decltype(&curl_mime_data) mimeData = nullptr;
    decltype(&curl_mime_data_cb) mimeDataCb = nullptr;
    decltype(&curl_mime_free) mimeFree = nullptr;
};

// libcurl loaded and globally initialised on the first call (thread-safe); null when it cannot be
// loaded, with why set to the reason.
const CurlApi *curlApi(QString *why = nullptr);

} // namespace sbx
