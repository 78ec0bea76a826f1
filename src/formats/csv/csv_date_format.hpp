#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::csv {

// A strptime-style format for dates and timestamps in CSV files (dateformat, timestampformat,
// and the sniffer's candidates): %Y %y %m %d %H %I %M %S %f %p %b %B %a %A %% and literal
// characters; numbers other than %Y (four digits) may have fewer digits ("1-2-2020").
class CsvDateFormat {
public:
    // Nullopt, with `error` saying why, for a specifier it does not know.
    static std::optional<CsvDateFormat> Parse(const std::string& spec, std::string& error);

    const std::string& spec() const { return spec_; }
    bool HasTime() const { return has_time_; }
    // The whole of `text` as a date (days since 1970-01-01) or a timestamp (microseconds).
    bool ParseDate(std::string_view text, int32_t& days) const;
    bool ParseTimestamp(std::string_view text, int64_t& micros) const;

    // The sniffer's candidates: day-month-year, month-day-year and year-month-day with four- and
    // two-digit years, separated by '-', '/' or '.' (day first, as DuckDB reads 05/06/2019).
    static const std::vector<CsvDateFormat>& DateCandidates();
    static const std::vector<CsvDateFormat>& TimestampCandidates();

private:
    struct Field {
        char specifier; // 0: a literal
        char literal;
    };
    struct Parts {
        int64_t year = 1970;
        int32_t month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
        int pm = -1; // -1 no %p, 0 AM, 1 PM
    };
    bool Match(std::string_view text, Parts& parts) const;

    std::string spec_;
    std::vector<Field> fields_;
    bool has_time_ = false;
};

} // namespace sluice::csv
