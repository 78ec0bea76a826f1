#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {

// DATE is days since 1970-01-01 (int32), TIME is microseconds since midnight (int64), TIMESTAMP is
// microseconds since 1970-01-01 00:00:00 (int64). Years before 1 are written as in DuckDB: year 0
// is "0001 (BC)". The extreme values of DATE and TIMESTAMP stand for +/- infinity.
namespace date {

constexpr int32_t kInfinity = INT32_MAX;
constexpr int32_t kNegativeInfinity = -INT32_MAX;

int32_t FromCivil(int64_t year, int32_t month, int32_t day);
void ToCivil(int32_t days, int64_t& year, int32_t& month, int32_t& day);
bool IsValidCivil(int64_t year, int32_t month, int32_t day);
// Parses 'YYYY-MM-DD' (optionally '-' for negative years, ' (BC)' suffix, 'infinity').
bool TryParse(std::string_view text, int32_t& result);
std::string ToString(int32_t days);

} // namespace date

namespace dtime {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400 * kMicrosPerSecond;

// Parses 'HH:MM[:SS[.ffffff]]', minutes and seconds of two digits (what a CSV sniffer takes).
bool TryParseTimeOfDay(std::string_view text, int64_t& micros);
// A TIME cast's text as DuckDB's: 'HH:[MM[:[SS[.[ffffff]]]]]' and an offset, which is ignored,
// or a timestamp's text, whose time of day it is (a date alone is midnight).
bool TryParse(std::string_view text, int64_t& micros);
std::string ToString(int64_t micros);

} // namespace dtime

namespace timestamp {

constexpr int64_t kInfinity = INT64_MAX;
constexpr int64_t kNegativeInfinity = -INT64_MAX;

// Parses a date, optionally followed by ' ' or 'T' and a time.
bool TryParse(std::string_view text, int64_t& micros);
std::string ToString(int64_t micros);
// TIMESTAMP WITH TIME ZONE: text may end in an offset (+05:30, -08, Z), which is applied to
// give UTC; printed in UTC with "+00".
bool TryParseWithOffset(std::string_view text, int64_t& micros);
std::string ToStringUtc(int64_t micros);
// TIMESTAMP_NS: nanoseconds since 1970-01-01 (years 1677 to 2262).
bool TryParseNanos(std::string_view text, int64_t& nanos);
std::string ToStringNanos(int64_t nanos);
int64_t FromDate(int32_t days);
// As FromDate, false when the date's midnight is past a TIMESTAMP's range.
bool TryFromDate(int32_t days, int64_t& micros);
// Floors to the day (timestamps before 1970 round towards -infinity).
int32_t ToDate(int64_t micros);

} // namespace timestamp

// INTERVAL: months, days and microseconds, kept apart because a month has no fixed length.
struct interval_t {
    int32_t months;
    int32_t days;
    int64_t micros;
};
static_assert(sizeof(interval_t) == 16, "an interval is stored in a 16-byte slot");

namespace interval {

// DuckDB's text form: "1 year 2 months 3 days 04:05:06.5", "00:00:00" for zero.
std::string ToString(interval_t value);
// Parses "3 days", "1 year 2 months", "04:05:06", "1.5 days", "-2 weeks" ...
bool TryParse(std::string_view text, interval_t& result);
// Adds `value` (possibly negated) to a timestamp: months first (clamping the day to the month's
// end, as DuckDB does), then days, then microseconds.
int64_t AddToTimestamp(int64_t micros, interval_t value, bool negate);

} // namespace interval

} // namespace sluice
