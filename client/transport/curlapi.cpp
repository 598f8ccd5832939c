#include "client/transport/curlapi.h"

#include "client/transport/lazylibrary.h"

namespace sbx {

namespace {

struct LoadedCurl {
    CurlApi api;
    QString error;
};

LoadedCurl loadCurl() {
    LoadedCurl loaded;
    LazyLibrary library(QStringLiteral("curl"), 4);
    CurlApi &api = loaded.api;
    decltype(&curl_global_init) globalInit = nullptr;
    library.bind(globalInit, "curl_global_init");
    library.bind(api.easyInit, "curl_easy_init");
    library.bind(api.easySetopt, "curl_easy_setopt");
    library.bind(api.easyPerform, "curl_easy_perform");
    library.bind(api.easyGetinfo, "curl_easy_getinfo");
    library.bind(api.easyCleanup, "curl_easy_cleanup");
    library.bind(api.easyStrerror, "curl_easy_strerror");
    library.bind(api.slistAppend, "curl_slist_append");
    library.bind(api.slistFreeAll, "curl_slist_free_all");
    library.bind(api.mimeInit, "curl_mime_init");
    library.bind(api.mimeAddpart, "curl_mime_addpart");
    library.bind(api.mimeName, "curl_mime_name");
    library.bind(api.mimeFilename, "curl_mime_filename");
    library.bind(api.mimeType, "curl_mime_type");
    library.bind(api.mimeData, "curl_mime_data");
    library.bind(api.mimeDataCb, "curl_mime_data_cb");
    library.bind(api.mimeFree, "curl_mime_free");
    loaded.error = library.error();
    if (loaded.error.isEmpty() && globalInit(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        loaded.error = QStringLiteral("curl_global_init failed");
    return loaded;
}

} // namespace

const CurlApi *curlApi(QString *why) {
    static const LoadedCurl loaded = loadCurl();
    if (!loaded.error.isEmpty()) {
        if (why)
            *why = loaded.error;
        return nullptr;
    }
    return &loaded.api;
}

} // namespace sbx
