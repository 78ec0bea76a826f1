#pragma once

#include "execution/scalar_functions.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sluice {

// date_part('year', d) and its shorthands year(d), month(d) ...: BIGINT parts of a DATE or
// TIMESTAMP. nullopt for unknown parts or types.
std::optional<BoundFunction> BindDatePart(const std::string& part, const LogicalType& type);
// DATE|TIMESTAMP +/- INTERVAL -> TIMESTAMP, INTERVAL + DATE|TIMESTAMP, INTERVAL +/- INTERVAL.
std::optional<BoundFunction> BindIntervalArithmetic(char op, const LogicalType& left,
                                                    const LogicalType& right);
// to_years(n), to_months(n), to_days(n), to_hours(n) ...: an INTERVAL of n units. `unit` is
// singular: year, quarter, month, week, day, hour, minute, second, millisecond, microsecond.
std::optional<BoundFunction> BindToInterval(const std::string& unit);
// date_trunc(part, d) -> TIMESTAMP, date_diff / datediff(part, a, b) -> BIGINT (boundaries
// crossed), last_day(d) -> DATE, dayname(d), monthname(d), make_date(y, m, d) -> DATE and
// strftime(d, format), over DATE or TIMESTAMP; parts year, quarter, month, week, day.
std::optional<BoundFunction> BindDateFunction(const std::string& name,
                                              const std::vector<LogicalType>& arguments);

} // namespace sluice
