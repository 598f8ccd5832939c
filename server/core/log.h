#pragma once

#include <string_view>

// Process-wide logger: one line per call on stderr, so stdout keeps only the listening line.
namespace sbx::log {

enum class Level { Debug, Info, Warning, Error };

void setVerbose(bool verbose);
bool verbose();
void write(Level level, std::string_view message);

inline void debug(std::string_view message) {
    write(Level::Debug, message);
}
inline void info(std::string_view message) {
    write(Level::Info, message);
}
inline void warning(std::string_view message) {
    write(Level::Warning, message);
}
inline void error(std::string_view message) {
    write(Level::Error, message);
}

} // namespace sbx::log
