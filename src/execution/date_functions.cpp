#include "execution/date_functions.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "execution/date_format.hpp"
#include "execution/vector_loops.hpp"

#include <cctype>
#include <cmath>
#include <string>

namespace sluice {

namespace {

// The civil fields of a day number, with ISO day-of-week (Monday = 1) and day-of-year.
struct CivilDate {
    int64_t year;
    int32_t month;
    int32_t day;
};

CivilDate ToCivil(int32_t days) {
    CivilDate civil{};
    date::ToCivil(days, civil.year, civil.month, civil.day);
    return civil;
}

int64_t IsoDayOfWeek(int32_t days) {
    int64_t dow = (static_cast<int64_t>(days) + 3) % 7; // 1970-01-01 was a Thursday: 3 + 1
    return (dow < 0 ? dow + 7 : dow) + 1;
}

// ISO 8601 weeks: Monday to Sunday, week 1 the one with the year's first Thursday; the
// ISO year is the Thursday's.
struct IsoYearWeek {
    int64_t year;
    int64_t week;
};

IsoYearWeek IsoWeek(int32_t days) {
    int64_t thursday = static_cast<int64_t>(days) - (IsoDayOfWeek(days) - 4);
    int64_t year = ToCivil(static_cast<int32_t>(thursday)).year;
    int64_t day_of_year = thursday - date::FromCivil(year, 1, 1);
    return {year, day_of_year / 7 + 1};
}

std::optional<int64_t (*)(int32_t)> DatePartOfDays(const std::string& part) {
    if (part == "year" || part == "years" || part == "y") {
        return +[](int32_t days) { return ToCivil(days).year; };
    }
    if (part == "month" || part == "months" || part == "mon") {
        return +[](int32_t days) { return static_cast<int64_t>(ToCivil(days).month); };
    }
    if (part == "day" || part == "days" || part == "d" || part == "dayofmonth") {
        return +[](int32_t days) { return static_cast<int64_t>(ToCivil(days).day); };
    }
    if (part == "quarter") {
        return +[](int32_t days) {
            return static_cast<int64_t>((ToCivil(days).month - 1) / 3 + 1);
        };
    }
    if (part == "dow" || part == "dayofweek") { // Sunday = 0
        return +[](int32_t days) {
            int64_t dow = (static_cast<int64_t>(days) + 4) % 7; // 1970-01-01 was a Thursday
            return dow < 0 ? dow + 7 : dow;
        };
    }
    if (part == "doy" || part == "dayofyear") {
        return +[](int32_t days) {
            return static_cast<int64_t>(days) - date::FromCivil(ToCivil(days).year, 1, 1) + 1;
        };
    }
    if (part == "isodow") { // Monday = 1 ... Sunday = 7
        return +[](int32_t days) { return IsoDayOfWeek(days); };
    }
    if (part == "week" || part == "weeks" || part == "weekofyear" || part == "w") {
        return +[](int32_t days) { return IsoWeek(days).week; };
    }
    if (part == "isoyear") {
        return +[](int32_t days) { return IsoWeek(days).year; };
    }
    if (part == "yearweek") {
        return +[](int32_t days) {
            IsoYearWeek iso = IsoWeek(days);
            return iso.year * 100 + iso.week;
        };
    }
    if (part == "weekday") {
        return DatePartOfDays("dow");
    }
    if (part == "century" || part == "centuries") {
        return +[](int32_t days) {
            int64_t year = ToCivil(days).year;
            return year > 0 ? (year - 1) / 100 + 1 : year / 100 - 1;
        };
    }
    if (part == "millennium" || part == "millennia") {
        return +[](int32_t days) {
            int64_t year = ToCivil(days).year;
            return year > 0 ? (year - 1) / 1000 + 1 : year / 1000 - 1;
        };
    }
    if (part == "era") {
        return +[](int32_t days) { return static_cast<int64_t>(ToCivil(days).year > 0 ? 1 : 0); };
    }
    if (part == "decade") {
        return +[](int32_t days) {
            int64_t year = ToCivil(days).year;
            return year >= 0 ? year / 10 : (year - 9) / 10;
        };
    }
    return std::nullopt;
}

} // namespace

std::optional<BoundFunction> BindDatePart(const std::string& part, const LogicalType& type) {
    LogicalTypeId id = type.id();
    bool is_date = id == LogicalTypeId::DATE;
    bool is_timestamp = id == LogicalTypeId::TIMESTAMP || id == LogicalTypeId::TIMESTAMP_TZ;
    if (!is_date && !is_timestamp) {
        return std::nullopt;
    }
    LogicalType bigint = LogicalTypeId::BIGINT;
    if (auto of_days = DatePartOfDays(part)) {
        auto extract = *of_days;
        ScalarFunctionBody body = [extract, is_date](const std::vector<const Vector*>& args,
                                                     idx_t count, Vector& result) {
            if (is_date) {
                UnaryLoop<int32_t, int64_t>(*args[0], count, result, [&](int32_t d, int64_t& out) {
                    if (d == date::kInfinity || d == date::kNegativeInfinity) {
                        return false;
                    }
                    out = extract(d);
                    return true;
                });
            } else {
                UnaryLoop<int64_t, int64_t>(*args[0], count, result, [&](int64_t t, int64_t& out) {
                    if (t == timestamp::kInfinity || t == timestamp::kNegativeInfinity) {
                        return false;
                    }
                    out = extract(timestamp::ToDate(t));
                    return true;
                });
            }
        };
        return BoundFunction{{type}, bigint, body};
    }
    if (part == "epoch" || (part == "julian" && is_date)) {
        // Seconds since 1970 (fractions kept), or the Julian day number, as DOUBLE.
        bool julian = part == "julian";
        ScalarFunctionBody body = [is_date, julian](const std::vector<const Vector*>& args,
                                                    idx_t count, Vector& result) {
            if (is_date) {
                UnaryLoop<int32_t, double>(*args[0], count, result, [&](int32_t d, double& out) {
                    out = julian ? static_cast<double>(d) + 2440588.0
                                 : static_cast<double>(timestamp::FromDate(d)) /
                                       dtime::kMicrosPerSecond;
                    return true;
                });
            } else {
                UnaryLoop<int64_t, double>(*args[0], count, result, [&](int64_t t, double& out) {
                    out = static_cast<double>(t) / dtime::kMicrosPerSecond;
                    return true;
                });
            }
        };
        return BoundFunction{{type}, LogicalTypeId::DOUBLE, body};
    }
    if (part == "timezone" || part == "timezone_hour" || part == "timezone_minute") {
        if (id != LogicalTypeId::TIMESTAMP_TZ) {
            return std::nullopt;
        }
        // Instants are shown in UTC: no offset.
        return BoundFunction{
            {type},
            bigint,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                UnaryLoop<int64_t, int64_t>(*args[0], count, result, [](int64_t, int64_t& out) {
                    out = 0;
                    return true;
                });
            }};
    }
    int64_t divisor = 0, modulus = 0;
    if (part == "millisecond" || part == "milliseconds" || part == "ms" || part == "msec" ||
        part == "msecs") {
        divisor = 1000; // the seconds of the minute, in milliseconds
        modulus = 60 * 1000;
    } else if (part == "microsecond" || part == "microseconds" || part == "us" || part == "usec" ||
               part == "usecs") {
        divisor = 1;
        modulus = 60 * dtime::kMicrosPerSecond;
    } else if (part == "hour" || part == "hours" || part == "h") {
        divisor = 3600 * dtime::kMicrosPerSecond;
        modulus = 24;
    } else if (part == "minute" || part == "minutes" || part == "m") {
        divisor = 60 * dtime::kMicrosPerSecond;
        modulus = 60;
    } else if (part == "second" || part == "seconds" || part == "s") {
        divisor = dtime::kMicrosPerSecond;
        modulus = 60;
    } else {
        return std::nullopt;
    }
    ScalarFunctionBody body = [divisor, modulus, is_date](const std::vector<const Vector*>& args,
                                                          idx_t count, Vector& result) {
        auto of_micros = [&](int64_t micros) {
            int64_t whole = micros >= 0 ? micros / divisor : -((-micros + divisor - 1) / divisor);
            if (modulus == 0) {
                return whole;
            }
            int64_t part = whole % modulus;
            return part < 0 ? part + modulus : part;
        };
        if (is_date) {
            UnaryLoop<int32_t, int64_t>(*args[0], count, result, [&](int32_t d, int64_t& out) {
                out = of_micros(timestamp::FromDate(d));
                return true;
            });
        } else {
            UnaryLoop<int64_t, int64_t>(*args[0], count, result, [&](int64_t t, int64_t& out) {
                out = of_micros(t);
                return true;
            });
        }
    };
    return BoundFunction{{type}, bigint, body};
}

std::optional<BoundFunction> BindIntervalArithmetic(char op, const LogicalType& left,
                                                    const LogicalType& right) {
    LogicalTypeId l = left.id(), r = right.id();
    auto is_point = [](LogicalTypeId id) {
        return id == LogicalTypeId::DATE || id == LogicalTypeId::TIMESTAMP ||
               id == LogicalTypeId::TIMESTAMP_TZ;
    };
    LogicalType interval_type = LogicalTypeId::INTERVAL;
    // An instant moves in UTC (the session's only time zone) and stays an instant.
    LogicalType timestamp_type =
        l == LogicalTypeId::TIMESTAMP_TZ || r == LogicalTypeId::TIMESTAMP_TZ
            ? LogicalTypeId::TIMESTAMP_TZ
            : LogicalTypeId::TIMESTAMP;
    if (l == LogicalTypeId::INTERVAL && r == LogicalTypeId::INTERVAL && (op == '+' || op == '-')) {
        ScalarFunctionBody body = [op](const std::vector<const Vector*>& args, idx_t count,
                                       Vector& result) {
            BinaryLoop<interval_t, interval_t, interval_t>(
                *args[0], *args[1], count, result,
                [op](const interval_t& a, const interval_t& b, interval_t& out) {
                    int sign = op == '+' ? 1 : -1;
                    out.months = a.months + sign * b.months;
                    out.days = a.days + sign * b.days;
                    out.micros = a.micros + sign * b.micros;
                    return true;
                });
        };
        return BoundFunction{{interval_type, interval_type}, interval_type, body};
    }
    bool time_left =
        l == LogicalTypeId::TIME && r == LogicalTypeId::INTERVAL && (op == '+' || op == '-');
    if (time_left || (op == '+' && l == LogicalTypeId::INTERVAL && r == LogicalTypeId::TIME)) {
        // As DuckDB: only the interval's time part counts, and the clock wraps at midnight.
        ScalarFunctionBody body = [op, time_left](const std::vector<const Vector*>& args,
                                                  idx_t count, Vector& result) {
            BinaryLoop<int64_t, interval_t, int64_t>(
                *args[time_left ? 0 : 1], *args[time_left ? 1 : 0], count, result,
                [op](int64_t micros, const interval_t& delta, int64_t& out) {
                    constexpr int64_t kDay = 86400 * dtime::kMicrosPerSecond;
                    int64_t shift = delta.micros % kDay;
                    out = ((micros + (op == '-' ? -shift : shift)) % kDay + kDay) % kDay;
                    return true;
                });
        };
        LogicalType time_type = LogicalTypeId::TIME;
        return BoundFunction{time_left ? std::vector<LogicalType>{time_type, interval_type}
                                       : std::vector<LogicalType>{interval_type, time_type},
                             time_type, body};
    }
    bool point_left = is_point(l) && r == LogicalTypeId::INTERVAL && (op == '+' || op == '-');
    bool point_right = op == '+' && l == LogicalTypeId::INTERVAL && is_point(r);
    if (!point_left && !point_right) {
        return std::nullopt;
    }
    // Dates are widened to timestamps by the binder's casts; the result is a TIMESTAMP.
    ScalarFunctionBody body = [op, point_left](const std::vector<const Vector*>& args, idx_t count,
                                               Vector& result) {
        const Vector& points = *args[point_left ? 0 : 1];
        const Vector& intervals = *args[point_left ? 1 : 0];
        BinaryLoop<int64_t, interval_t, int64_t>(
            points, intervals, count, result,
            [op](int64_t micros, const interval_t& delta, int64_t& out) {
                if (micros == timestamp::kInfinity || micros == timestamp::kNegativeInfinity) {
                    out = micros;
                    return true;
                }
                out = interval::AddToTimestamp(micros, delta, op == '-');
                return true;
            });
    };
    return BoundFunction{point_left ? std::vector<LogicalType>{timestamp_type, interval_type}
                                    : std::vector<LogicalType>{interval_type, timestamp_type},
                         timestamp_type, body};
}

std::optional<BoundFunction> BindToInterval(const std::string& unit) {
    int32_t months = 0, days = 0;
    int64_t micros = 0;
    if (unit == "year") {
        months = 12;
    } else if (unit == "quarter") {
        months = 3;
    } else if (unit == "month") {
        months = 1;
    } else if (unit == "week") {
        days = 7;
    } else if (unit == "day") {
        days = 1;
    } else if (unit == "hour") {
        micros = 3600 * dtime::kMicrosPerSecond;
    } else if (unit == "minute") {
        micros = 60 * dtime::kMicrosPerSecond;
    } else if (unit == "second") {
        micros = dtime::kMicrosPerSecond;
    } else if (unit == "millisecond") {
        micros = 1000;
    } else if (unit == "microsecond") {
        micros = 1;
    } else {
        return std::nullopt;
    }
    ScalarFunctionBody body = [months, days, micros](const std::vector<const Vector*>& args,
                                                     idx_t count, Vector& result) {
        UnaryLoop<int64_t, interval_t>(*args[0], count, result, [&](int64_t n, interval_t& out) {
            if (std::abs(n) > INT32_MAX / 12) {
                throw Exception(ErrorKind::OutOfRange,
                                "Interval value " + std::to_string(n) + " " + "out of range");
            }
            out.months = static_cast<int32_t>(months * n);
            out.days = static_cast<int32_t>(days * n);
            out.micros = micros * n;
            return true;
        });
    };
    return BoundFunction{{LogicalTypeId::BIGINT}, LogicalTypeId::INTERVAL, body};
}

namespace {

enum class DatePart : uint8_t { Year, Quarter, Month, Week, Day };

std::optional<DatePart> ParseDatePart(std::string_view name) {
    std::string part(name);
    for (char& c : part) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (part == "year" || part == "years" || part == "y" || part == "yr" || part == "yrs") {
        return DatePart::Year;
    }
    if (part == "quarter" || part == "quarters") {
        return DatePart::Quarter;
    }
    if (part == "month" || part == "months" || part == "mon") {
        return DatePart::Month;
    }
    if (part == "week" || part == "weeks" || part == "w") {
        return DatePart::Week;
    }
    if (part == "day" || part == "days" || part == "d") {
        return DatePart::Day;
    }
    return std::nullopt;
}

[[noreturn]] void UnknownPart(std::string_view part) {
    throw Exception(ErrorKind::InvalidInput,
                    "extract specifier \"" + std::string(part) +
                        "\" not recognized (supported: year, quarter, month, week, day)");
}

// The date part named at row `index` of `parts`; an error for names it does not know.
DatePart PartAt(const Vector& parts, idx_t index) {
    std::string_view text = parts.data<string_t>()[index].view();
    auto part = ParseDatePart(text);
    if (!part) {
        UnknownPart(text);
    }
    return *part;
}

// Days since 1970-01-01 of the first day of `part` holding `days`.
int32_t TruncateDays(int32_t days, DatePart part) {
    int64_t year;
    int32_t month, day;
    date::ToCivil(days, year, month, day);
    switch (part) {
    case DatePart::Year:
        return date::FromCivil(year, 1, 1);
    case DatePart::Quarter:
        return date::FromCivil(year, (month - 1) / 3 * 3 + 1, 1);
    case DatePart::Month:
        return date::FromCivil(year, month, 1);
    case DatePart::Week: {
        // ISO weeks start on Monday; 1970-01-01 was a Thursday.
        int32_t weekday = static_cast<int32_t>(((days + 3) % 7 + 7) % 7); // 0 = Monday
        return days - weekday;
    }
    case DatePart::Day:
        return days;
    }
    return days;
}

// How many `part` boundaries lie between two days (DuckDB's date_diff).
int64_t DifferenceInParts(int32_t start, int32_t end, DatePart part) {
    int64_t y1, y2;
    int32_t m1, m2, d1, d2;
    date::ToCivil(start, y1, m1, d1);
    date::ToCivil(end, y2, m2, d2);
    switch (part) {
    case DatePart::Year:
        return y2 - y1;
    case DatePart::Quarter:
        return (y2 * 4 + (m2 - 1) / 3) - (y1 * 4 + (m1 - 1) / 3);
    case DatePart::Month:
        return (y2 * 12 + m2) - (y1 * 12 + m1);
    case DatePart::Week:
        return (static_cast<int64_t>(end) - start) / 7;
    case DatePart::Day:
        return static_cast<int64_t>(end) - start;
    }
    return 0;
}

bool IsDateOrTimestamp(const LogicalType& type) {
    return type.id() == LogicalTypeId::DATE || type.id() == LogicalTypeId::TIMESTAMP;
}

// The day a DATE or TIMESTAMP value falls on; false for infinities.
bool DayOf(const Vector& vector, idx_t index, bool is_date, int32_t& days) {
    if (is_date) {
        days = vector.data<int32_t>()[index];
        return days != date::kInfinity && days != date::kNegativeInfinity;
    }
    int64_t micros = vector.data<int64_t>()[index];
    if (micros == timestamp::kInfinity || micros == timestamp::kNegativeInfinity) {
        return false;
    }
    days = timestamp::ToDate(micros);
    return true;
}

} // namespace

std::optional<BoundFunction> BindDateFunction(const std::string& name,
                                              const std::vector<LogicalType>& arguments) {
    LogicalType varchar = LogicalTypeId::VARCHAR;
    if (name == "date_trunc" || name == "datetrunc") {
        if (arguments.size() != 2 || !IsDateOrTimestamp(arguments[1])) {
            return std::nullopt;
        }
        bool is_date = arguments[1].id() == LogicalTypeId::DATE;
        return BoundFunction{
            {varchar, arguments[1]},
            LogicalTypeId::TIMESTAMP,
            [is_date](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                for (idx_t row = 0; row < count; row++) {
                    idx_t p = args[0]->RowIndex(row), v = args[1]->RowIndex(row);
                    int32_t days;
                    if (!args[0]->validity().RowIsValid(p) || !args[1]->validity().RowIsValid(v) ||
                        !DayOf(*args[1], v, is_date, days)) {
                        result.SetNull(row);
                        continue;
                    }
                    result.data<int64_t>()[row] =
                        timestamp::FromDate(TruncateDays(days, PartAt(*args[0], p)));
                }
            }};
    }
    if (name == "date_diff" || name == "datediff") {
        if (arguments.size() != 3 || !IsDateOrTimestamp(arguments[1]) ||
            !IsDateOrTimestamp(arguments[2])) {
            return std::nullopt;
        }
        bool start_date = arguments[1].id() == LogicalTypeId::DATE;
        bool end_date = arguments[2].id() == LogicalTypeId::DATE;
        return BoundFunction{{varchar, arguments[1], arguments[2]},
                             LogicalTypeId::BIGINT,
                             [start_date, end_date](const std::vector<const Vector*>& args,
                                                    idx_t count, Vector& result) {
                                 for (idx_t row = 0; row < count; row++) {
                                     idx_t p = args[0]->RowIndex(row), a = args[1]->RowIndex(row),
                                           b = args[2]->RowIndex(row);
                                     int32_t start, end;
                                     if (!args[0]->validity().RowIsValid(p) ||
                                         !args[1]->validity().RowIsValid(a) ||
                                         !args[2]->validity().RowIsValid(b) ||
                                         !DayOf(*args[1], a, start_date, start) ||
                                         !DayOf(*args[2], b, end_date, end)) {
                                         result.SetNull(row);
                                         continue;
                                     }
                                     result.data<int64_t>()[row] =
                                         DifferenceInParts(start, end, PartAt(*args[0], p));
                                 }
                             }};
    }
    if ((name == "last_day" || name == "dayname" || name == "monthname") && arguments.size() == 1 &&
        IsDateOrTimestamp(arguments[0])) {
        bool is_date = arguments[0].id() == LogicalTypeId::DATE;
        std::string which = name;
        LogicalType type = which == "last_day" ? LogicalType(LogicalTypeId::DATE) : varchar;
        return BoundFunction{
            {arguments[0]},
            type,
            [is_date, which](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                for (idx_t row = 0; row < count; row++) {
                    idx_t v = args[0]->RowIndex(row);
                    int32_t days;
                    if (!args[0]->validity().RowIsValid(v) || !DayOf(*args[0], v, is_date, days)) {
                        result.SetNull(row);
                        continue;
                    }
                    int64_t year;
                    int32_t month, day;
                    date::ToCivil(days, year, month, day);
                    if (which == "last_day") {
                        int64_t next_year = month == 12 ? year + 1 : year;
                        int32_t next_month = month == 12 ? 1 : month + 1;
                        result.data<int32_t>()[row] = date::FromCivil(next_year, next_month, 1) - 1;
                    } else if (which == "dayname") {
                        result.data<string_t>()[row] = result.AddString(kDayNames[Weekday(days)]);
                    } else {
                        result.data<string_t>()[row] = result.AddString(kMonthNames[month - 1]);
                    }
                }
            }};
    }
    if (name == "make_date" && arguments.size() == 3) {
        LogicalType bigint = LogicalTypeId::BIGINT;
        return BoundFunction{
            {bigint, bigint, bigint},
            LogicalTypeId::DATE,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                for (idx_t row = 0; row < count; row++) {
                    idx_t y = args[0]->RowIndex(row), m = args[1]->RowIndex(row),
                          d = args[2]->RowIndex(row);
                    if (!args[0]->validity().RowIsValid(y) || !args[1]->validity().RowIsValid(m) ||
                        !args[2]->validity().RowIsValid(d)) {
                        result.SetNull(row);
                        continue;
                    }
                    int64_t year = args[0]->data<int64_t>()[y];
                    int64_t month = args[1]->data<int64_t>()[m], day = args[2]->data<int64_t>()[d];
                    if (month < 1 || month > 12 || day < 1 || day > 31 ||
                        !date::IsValidCivil(year, static_cast<int32_t>(month),
                                            static_cast<int32_t>(day))) {
                        throw Exception(ErrorKind::OutOfRange,
                                        "Date out of range: " + std::to_string(year) + "-" +
                                            std::to_string(month) + "-" + std::to_string(day));
                    }
                    result.data<int32_t>()[row] = date::FromCivil(year, static_cast<int32_t>(month),
                                                                  static_cast<int32_t>(day));
                }
            }};
    }
    if ((name == "strptime" || name == "try_strptime") && arguments.size() == 2) {
        bool lenient = name == "try_strptime";
        return BoundFunction{
            {varchar, varchar},
            LogicalTypeId::TIMESTAMP,
            [lenient](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                std::string error;
                ErrorKind kind;
                for (idx_t row = 0; row < count; row++) {
                    idx_t t = args[0]->RowIndex(row), f = args[1]->RowIndex(row);
                    if (!args[0]->validity().RowIsValid(t) || !args[1]->validity().RowIsValid(f)) {
                        result.SetNull(row);
                        continue;
                    }
                    int64_t micros;
                    if (Strptime(args[0]->data<string_t>()[t].view(),
                                 args[1]->data<string_t>()[f].view(), micros, error, kind)) {
                        result.data<int64_t>()[row] = micros;
                    } else if (lenient) {
                        result.SetNull(row);
                    } else {
                        throw Exception(kind, error);
                    }
                }
            }};
    }
    if (name == "to_timestamp" && arguments.size() == 1 &&
        (arguments[0].IsNumeric() || arguments[0].id() == LogicalTypeId::SQLNULL)) {
        // Seconds since 1970 -> TIMESTAMP WITH TIME ZONE, to the microsecond.
        return BoundFunction{
            {LogicalTypeId::DOUBLE},
            LogicalTypeId::TIMESTAMP_TZ,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                UnaryLoop<double, int64_t>(
                    *args[0], count, result, [](double seconds, int64_t& out) {
                        double micros = std::round(seconds * dtime::kMicrosPerSecond);
                        if (!(std::fabs(micros) < 9.2e18)) {
                            throw Exception(ErrorKind::OutOfRange,
                                            "Could not convert epoch seconds " +
                                                std::to_string(seconds) +
                                                " to TIMESTAMP WITH TIME ZONE");
                        }
                        out = static_cast<int64_t>(micros);
                        return true;
                    });
            }};
    }
    if (name == "epoch" && arguments.size() == 1 && IsDateOrTimestamp(arguments[0])) {
        return BindDatePart("epoch", arguments[0]); // seconds since 1970, a DOUBLE
    }
    if (name == "epoch_ms" && arguments.size() == 1 && IsDateOrTimestamp(arguments[0])) {
        return BoundFunction{
            {LogicalTypeId::TIMESTAMP},
            LogicalTypeId::BIGINT,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                UnaryLoop<int64_t, int64_t>(
                    *args[0], count, result, [](int64_t micros, int64_t& out) {
                        out = micros / 1000; // whole milliseconds, toward zero, as DuckDB
                        return true;
                    });
            }};
    }
    if ((name == "date_add" || name == "date_sub") && arguments.size() == 2 &&
        arguments[1].id() == LogicalTypeId::INTERVAL) {
        return BindIntervalArithmetic(name == "date_add" ? '+' : '-', arguments[0], arguments[1]);
    }
    if (name == "strftime" && arguments.size() == 2 && IsDateOrTimestamp(arguments[0])) {
        bool is_date = arguments[0].id() == LogicalTypeId::DATE;
        return BoundFunction{
            {arguments[0], varchar},
            varchar,
            [is_date](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                for (idx_t row = 0; row < count; row++) {
                    idx_t v = args[0]->RowIndex(row), f = args[1]->RowIndex(row);
                    int32_t days;
                    if (!args[0]->validity().RowIsValid(v) || !args[1]->validity().RowIsValid(f) ||
                        !DayOf(*args[0], v, is_date, days)) {
                        result.SetNull(row);
                        continue;
                    }
                    int64_t micros_of_day =
                        is_date ? 0 : args[0]->data<int64_t>()[v] - timestamp::FromDate(days);
                    result.data<string_t>()[row] = result.AddString(
                        Strftime(days, micros_of_day, args[1]->data<string_t>()[f].view()));
                }
            }};
    }
    return std::nullopt;
}

} // namespace sluice
