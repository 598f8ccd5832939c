#pragma once

#include "client/providers/secretstore.h"
#include "client/transport/jwtkeys.h"

#include <QObject>
#include <QString>

#include <functional>

namespace sbx {

// Keys and key pairs for the sandboxes the console creates, and where their secrets are kept:
// the same for every provider.

// 256 random bits as 64 hex digits: safe in an environment variable, a header and a shell.
QString generateApiKey();

// The keychain entry of a sandbox's secret: "sandbox/<id>".
QString sandboxSecretKey(const QString &sandboxId);

// Reads the sandbox's secret. A secret still stored under legacyKey (a name an older console
// used) is found there once, moved to sandboxSecretKey() and removed from the old name.
void readSandboxSecret(SecretStore *store, const QString &sandboxId, QObject *context,
                       SecretStore::ReadCallback done, const QString &legacyKey = {});

// Makes an RSA pair on a worker thread (it takes a noticeable moment) and calls done with it
// on context's thread; a null pair means OpenSSL failed.
void generateKeyPairLater(QObject *context, std::function<void(const JwtKeyPair &keys)> done);

} // namespace sbx
