#include "models/logs/logstructure.h"

#include "models/logs/logdata.h"
#include "models/logs/logtext.h"

#include <QDateTime>

#include <nlohmann/json.hpp>

namespace sbx {

namespace {

// How far a prefix may run before the object starts, and how far to look for a line's time.
constexpr qsizetype kMaxPrefix = 80;
constexpr qint64 kTimeLookAhead = 32;

} // namespace

QString prettyJsonLine(QByteArrayView text) {
    while (!text.isEmpty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\t'))
        text.chop(1);
    if (text.isEmpty() || text.back() != '}')
        return {};
    const qsizetype open = text.first(std::min(text.size(), kMaxPrefix)).indexOf('{');
    if (open < 0)
        return {};
    const QByteArrayView object = text.sliced(open);
    const auto json = nlohmann::ordered_json::parse(object.begin(), object.end(), nullptr,
                                                    /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object())
        return {};
    return QString::fromStdString(
        json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::optional<qint64> lineTime(const LogData &data, qint64 line, const LogTimeContext &context) {
    const QByteArray raw = data.line(line, 512);
    return parseLogTime(needsPlainRewrite(raw) ? QByteArrayView(plainLogBytes(raw)) : raw, context);
}

qint64 firstLineAtOrAfter(const LogData &data, qint64 ms, const LogTimeContext &context) {
    const auto timeFrom = [&](qint64 line) -> std::optional<qint64> {
        for (qint64 l = line; l < std::min(data.lineCount(), line + kTimeLookAhead); ++l) {
            if (const auto t = lineTime(data, l, context))
                return t;
        }
        return std::nullopt;
    };
    qint64 lo = 0;
    qint64 hi = data.lineCount();
    while (lo < hi) {
        const qint64 mid = lo + (hi - lo) / 2;
        const auto t = timeFrom(mid);
        // No time within reach: treat it as late, so the search goes on in the earlier half.
        if (t && *t < ms)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

LogTimeContext localTimeContext() {
    const QDateTime now = QDateTime::currentDateTime();
    return {now.date().year(), now.offsetFromUtc()};
}

} // namespace sbx
