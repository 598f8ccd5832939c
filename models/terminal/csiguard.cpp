#include "models/terminal/csiguard.h"

namespace sbx {

const QByteArray &CsiGuard::filter(const QByteArray &data) {
    bool dropping = false;
    for (qsizetype i = 0; i < data.size(); ++i) {
        const auto byte = static_cast<unsigned char>(data[i]);
        bool drop = false;
        switch (m_state) {
        case State::Ground:
            if (byte == 0x1b)
                m_state = State::Escape;
            else if (byte == 0xc2)
                m_state = State::Utf8C2;
            break;
        case State::Escape:
            m_state = byte == '[' ? State::Csi : byte == 0x1b ? State::Escape : State::Ground;
            m_separators = 0;
            break;
        case State::Utf8C2: // U+009B, the one-character CSI
            m_state = byte == 0x9b ? State::Csi : byte == 0x1b ? State::Escape : State::Ground;
            m_separators = 0;
            break;
        case State::Csi:
            if (byte == ';' || byte == ':') {
                drop = ++m_separators > kMaxSeparators;
            } else if (byte == 0x1b) {
                m_state = State::Escape;
            } else if (byte == 0x18 || byte == 0x1a || (byte >= 0x40 && byte <= 0x7e)) {
                m_state = State::Ground; // cancelled, or the final byte
            }
            break;
        }
        if (drop && !dropping) {
            dropping = true;
            m_filtered = data.left(i);
        } else if (dropping && !drop) {
            m_filtered.append(static_cast<char>(byte));
        }
    }
    return dropping ? m_filtered : data;
}

void CsiGuard::reset() {
    m_state = State::Ground;
    m_separators = 0;
    m_filtered.clear();
}

} // namespace sbx
