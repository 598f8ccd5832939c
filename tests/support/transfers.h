#pragma once

#include "models/files/transferqueuemodel.h"

namespace sbxtest {

// True when every row of the queue has finished well (an empty queue included).
inline bool allTransfersDone(const sbx::TransferQueueModel *queue) {
    for (int row = 0; row < queue->rowCount(); ++row) {
        if (queue->state(row) != sbx::TransferQueueModel::State::Done)
            return false;
    }
    return true;
}

} // namespace sbxtest
