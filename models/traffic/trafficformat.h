#pragma once

#include "client/traffic/trafficentry.h"

#include <QString>

namespace sbx {

// How the traffic inspector shows an entry: the list's cells and the details pane's texts.
namespace TrafficFormat {

QString size(qint64 bytes);
QString duration(qint64 ms);
// The Status column: "200", "101", "…" in flight, "failed".
QString status(const TrafficEntry &entry);
// The Path column: the path, and for socket messages their direction and type ("↓ session_id")
// or, for summaries, "↓ output: 57 frames, 12.3 KiB in 1 s".
QString path(const TrafficEntry &entry);
// One line above the details: what, where, the outcome and how long it took.
QString summary(const TrafficEntry &entry);
// Request and response headers, one per line.
QString headers(const TrafficEntry &entry);
// A body as a person reads it: JSON pretty-printed, text as it is, binary as its size and a hex
// dump of its first bytes; with what was not kept said plainly.
QString body(const TrafficEntry &entry, TrafficDirection which);

} // namespace TrafficFormat

} // namespace sbx
