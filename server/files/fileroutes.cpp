// Route group "files": AIO's /v1/file/{list,read,write} on the worker pool, and the streamed
// upload and download routes (server/files/uploadroute.h, server/files/downloadroute.h).
#include "server/core/bodyfields.h"
#include "server/core/options.h"
#include "server/core/routegroup.h"
#include "server/core/router.h"
#include "server/core/servercontext.h"
#include "server/core/workpool.h"
#include "server/files/downloadroute.h"
#include "server/files/filelisting.h"
#include "server/files/fileops.h"
#include "server/files/uploadroute.h"

#include <algorithm>
#include <variant>

namespace sbx {

namespace {

using nlohmann::json;

HttpResponse answer(FileOutcome outcome) {
    if (outcome.error)
        return fileErrorResponse(*outcome.error);
    if (!outcome.body.empty()) {
        HttpResponse response;
        response.body = std::move(outcome.body);
        return response;
    }
    return envelopeResponse(200, true, outcome.message, std::move(outcome.data));
}

HttpResponse invalidPath(const std::string &path, const char *operation) {
    return fileErrorResponse(fileError("invalid_path", path, operation,
                                       "Invalid path: it must be a non-empty path without NUL "
                                       "characters",
                                       "ValueError"));
}

std::optional<long long> integer(BodyFields &body, const char *name) {
    if (const auto n = body.number(name, true))
        return static_cast<long long>(*n);
    return std::nullopt;
}

// Reads the parsed body's fields on the I/O thread (cheap) and runs the file work on the pool.
template <typename Parse, typename Work>
AsyncHandler pooled(WorkPool &pool, Parse parse, Work work) {
    return [&pool, parse, work](HttpRequest request, Responder reply) {
        auto parsed = parse(request);
        if (std::holds_alternative<HttpResponse>(parsed)) {
            reply(std::get<HttpResponse>(std::move(parsed)));
            return;
        }
        pool.post([work, value = std::get<0>(std::move(parsed)), reply = std::move(reply)] {
            reply(answer(work(value)));
        });
    };
}

std::variant<ListRequest, HttpResponse> parseList(HttpRequest &request,
                                                  const std::string &workspace) {
    BodyFields body(request);
    ListRequest list;
    const auto path = body.string("path", true);
    list.recursive = body.boolean("recursive").value_or(false);
    list.showHidden = body.boolean("show_hidden").value_or(true);
    list.includeSize = body.boolean("include_size").value_or(true);
    list.includePermissions = body.boolean("include_permissions").value_or(false);
    list.sortDesc = body.boolean("sort_desc").value_or(false);
    if (const auto sortBy = body.string("sort_by")) {
        if (*sortBy != "name" && *sortBy != "size" && *sortBy != "modified" && *sortBy != "type")
            body.fail({"body", "sort_by"}, "literal_error",
                      "Input should be 'name', 'size', 'modified' or 'type'");
        list.sortBy = *sortBy;
    }
    if (const auto depth = integer(body, "max_depth"))
        list.maxDepth = static_cast<int>(std::clamp(*depth, 0LL, 100000LL));
    if (const json *types = body.value("file_types")) {
        if (!types->is_array()) {
            body.fail({"body", "file_types"}, "list_type", "Input should be a valid list");
        } else {
            for (std::size_t i = 0; i < types->size(); ++i) {
                if ((*types)[i].is_string())
                    list.fileTypes.push_back((*types)[i].get<std::string>());
                else
                    body.fail({"body", "file_types", i}, "string_type",
                              "Input should be a valid string");
            }
        }
    }
    if (!body.ok())
        return body.refusal();
    const auto resolved = resolvePath(workspace, *path);
    if (!resolved)
        return invalidPath(*path, "list");
    list.path = *resolved;
    return list;
}

std::variant<ReadRequest, HttpResponse> parseRead(HttpRequest &request,
                                                  const std::string &workspace) {
    BodyFields body(request);
    ReadRequest read;
    const auto file = body.string("file", true);
    read.startLine = integer(body, "start_line");
    read.endLine = integer(body, "end_line");
    read.sudo = body.boolean("sudo").value_or(false);
    if (!body.ok())
        return body.refusal();
    const auto resolved = resolvePath(workspace, *file);
    if (!resolved)
        return invalidPath(*file, "read");
    read.file = *resolved;
    return read;
}

std::variant<WriteRequest, HttpResponse> parseWrite(HttpRequest &request,
                                                    const std::string &workspace) {
    BodyFields body(request);
    WriteRequest write;
    const auto file = body.string("file", true);
    auto content = body.takeString("content", true);
    if (const auto encoding = body.string("encoding")) {
        if (*encoding != "utf-8" && *encoding != "base64" && *encoding != "raw")
            body.fail({"body", "encoding"}, "enum", "Input should be 'utf-8', 'base64' or 'raw'");
        write.encoding = *encoding;
    }
    write.append = body.boolean("append").value_or(false);
    write.leadingNewline = body.boolean("leading_newline").value_or(false);
    write.trailingNewline = body.boolean("trailing_newline").value_or(false);
    write.sudo = body.boolean("sudo").value_or(false);
    if (!body.ok())
        return body.refusal();
    const auto resolved = resolvePath(workspace, *file);
    if (!resolved)
        return invalidPath(*file, "write");
    write.file = *resolved;
    write.content = std::move(*content);
    return write;
}

void install(Router &router, ServerContext &context) {
    const std::string workspace = context.options.workspace;
    WorkPool &pool = context.pool;
    router.addAsync(
        "POST", "/v1/file/list",
        [&pool, workspace](HttpRequest request, Responder reply) {
            auto parsed = parseList(request, workspace);
            if (std::holds_alternative<HttpResponse>(parsed)) {
                reply(std::get<HttpResponse>(std::move(parsed)));
                return;
            }
            pool.post([list = std::get<ListRequest>(std::move(parsed)), reply] {
                if (!listsAsItGoes(list)) {
                    reply(answer(listFiles(list)));
                    return;
                }
                if (auto refused = listFilesStreamed(list, reply))
                    reply(answer(std::move(*refused)));
            });
        },
        {.summary = "list a folder (recursive, show_hidden, include_size, include_permissions, "
                    "sort_by, sort_desc, max_depth, file_types)",
         .body = BodyPolicy::Fields});
    router.addAsync("POST", "/v1/file/read",
                    pooled(
                        pool, [workspace](HttpRequest &r) { return parseRead(r, workspace); },
                        [](const ReadRequest &r) { return readFile(r); }),
                    {.summary = "read a UTF-8 text file, optionally lines [start_line, end_line)",
                     .body = BodyPolicy::Fields});
    router.addAsync(
        "POST", "/v1/file/write",
        pooled(
            pool, [workspace](HttpRequest &r) { return parseWrite(r, workspace); },
            [](const WriteRequest &r) { return writeFile(r); }),
        {.summary = "write a file (encoding utf-8, base64 or raw; append); replaced atomically",
         .body = BodyPolicy::Fields,
         .bodyLimit = 64 * 1024 * 1024});
    installUploadRoute(router, context);
    installDownloadRoutes(router, context);
}

const RouteGroupRegistration registration(
    {.name = "files", .order = 40, .extensions = {"download-range"}, .install = install});

} // namespace

} // namespace sbx
