#include "models/logs/logmatcher.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <QCoreApplication>

namespace sbx {

LogMatcher::LogMatcher(const LogQuery &query) {
    const QByteArray pattern = query.pattern.toUtf8();
    uint32_t options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
    options |= query.regex ? PCRE2_MULTILINE : PCRE2_LITERAL;
    if (!query.caseSensitive)
        options |= PCRE2_CASELESS;
    int errorCode = 0;
    PCRE2_SIZE errorOffset = 0;
    pcre2_code *code =
        pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.constData()), size_t(pattern.size()),
                      options, &errorCode, &errorOffset, nullptr);
    if (!code) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(errorCode, message, sizeof message);
        m_error = QCoreApplication::translate("sbx::LogSearch", "%1 (at character %2)")
                      .arg(QString::fromUtf8(reinterpret_cast<const char *>(message)))
                      .arg(qint64(errorOffset) + 1);
        return;
    }
    m_jit = pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    m_code = code;
    m_matchData = pcre2_match_data_create_from_pattern(code, nullptr);
}

LogMatcher::~LogMatcher() {
    pcre2_match_data_free(static_cast<pcre2_match_data *>(m_matchData));
    pcre2_code_free(static_cast<pcre2_code *>(m_code));
}

qint64 LogMatcher::find(QByteArrayView text, qint64 from) const {
    if (!m_code || from > text.size())
        return -1;
    auto *code = static_cast<pcre2_code *>(m_code);
    auto *data = static_cast<pcre2_match_data *>(m_matchData);
    const auto *subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    const int rc =
        m_jit ? pcre2_jit_match(code, subject, size_t(text.size()), size_t(from), 0, data, nullptr)
              : pcre2_match(code, subject, size_t(text.size()), size_t(from), 0, data, nullptr);
    if (rc < 0)
        return -1;
    return qint64(pcre2_get_ovector_pointer(data)[0]);
}

bool LogMatcher::matches(QByteArrayView text) const {
    return find(text, 0) >= 0;
}

} // namespace sbx
