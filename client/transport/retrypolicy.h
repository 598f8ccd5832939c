#pragma once

#include "client/transport/status.h"

#include <array>

namespace sbx {

// The one retry table: idempotent calls only, and only for network and timeout failures.
struct RetryPolicy {
    // Delay before attempt 2, 3, ...; its length bounds the number of retries.
    static constexpr std::array<int, 2> kBackoffMs{300, 1200};

    static bool shouldRetry(bool idempotent, const Status &status, int attemptsDone) {
        return idempotent && status.transient() &&
               attemptsDone <= static_cast<int>(kBackoffMs.size());
    }
    static int delayBeforeAttempt(int attemptsDone) {
        return kBackoffMs[static_cast<std::size_t>(attemptsDone - 1)];
    }
};

} // namespace sbx
