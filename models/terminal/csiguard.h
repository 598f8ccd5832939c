#pragma once

#include <QByteArray>

namespace sbx {

// Keeps control sequences within what libvterm 0.1.4 (Debian 12) survives: its parser writes
// past its 16 CSI arguments, so `printf '\e[;;;;;;;;;;;;;;;;;x'` in a sandbox crashed the
// console. Separators past the 16th argument are dropped (libvterm reads no more arguments
// anyway); every other byte passes unchanged. State carries across feeds.
class CsiGuard final {
public:
    // The bytes to give libvterm: data itself when nothing is dropped (the common case, no
    // copy), else a filtered copy valid until the next call.
    const QByteArray &filter(const QByteArray &data);
    void reset();

private:
    enum class State { Ground, Escape, Utf8C2, Csi };
    static constexpr int kMaxSeparators = 15;

    State m_state = State::Ground;
    int m_separators = 0;
    QByteArray m_filtered;
};

} // namespace sbx
