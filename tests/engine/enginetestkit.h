#pragma once

#include "client/providers/sandboxprovider.h"
#include "client/transport/status.h"

#include <optional>

namespace sbx {
struct SandboxContext;
}

namespace sbxtest {

// How long a sandbox container may take to start on a slow machine.
constexpr int kStartBoundMs = 90000;

std::optional<sbx::SandboxEntry> findEntry(const sbx::SandboxProvider &provider, const QString &id);
// Unreachable when the provider does not list the id.
sbx::SandboxState stateOf(const sbx::SandboxProvider &provider, const QString &id);
// Creates a sandbox and waits (bounded) until the provider shows it Online; its id, or empty
// with why.
QString createOnline(sbx::SandboxProvider &provider, const sbx::SandboxCreateOptions &options,
                     QString *why);
// GET /v1/sandbox through a client built from the entry, as the console's views do. The server
// needs a moment after the container starts: transient failures are retried within 30 s.
sbx::Status readContext(const sbx::SandboxEntry &entry, sbx::SandboxContext *context = nullptr);

} // namespace sbxtest
