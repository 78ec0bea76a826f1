#pragma once

#include "common/exception.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {

// The text forms of dates and timestamps that strftime writes and strptime reads, with
// DuckDB's specifiers: %Y %y %m %d %j %H %M %S %a %A %b %B %% (and %f, microseconds, when
// reading).

// English day and month names, Monday and January first.
extern const char* const kDayNames[7];
extern const char* const kMonthNames[12];
// 0 = Monday, for days since 1970-01-01 (a Thursday).
int32_t Weekday(int32_t days);

// `days` since 1970 and the microseconds into that day, written by `format`.
std::string Strftime(int32_t days, int64_t micros_of_day, std::string_view format);
// Reads `text` by `format` into microseconds since 1970. Numbers take as many digits as their
// field can have; a space in the format matches any run of white space. Returns false with
// `error` (DuckDB's message, with a caret under the place) and its `kind` when the text does
// not fit.
bool Strptime(std::string_view text, std::string_view format, int64_t& micros, std::string& error,
              ErrorKind& kind);

} // namespace sluice
