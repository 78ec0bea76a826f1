#include "execution/date_functions.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "execution/vector_loops.hpp"

#include <cmath>

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
    int64_t divisor = 0, modulus = 0;
    if (part == "hour" || part == "hours" || part == "h") {
        divisor = 3600 * dtime::kMicrosPerSecond;
        modulus = 24;
    } else if (part == "minute" || part == "minutes" || part == "m") {
        divisor = 60 * dtime::kMicrosPerSecond;
        modulus = 60;
    } else if (part == "second" || part == "seconds" || part == "s") {
        divisor = dtime::kMicrosPerSecond;
        modulus = 60;
    } else if (part == "epoch") {
        divisor = dtime::kMicrosPerSecond;
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
        return id == LogicalTypeId::DATE || id == LogicalTypeId::TIMESTAMP;
    };
    LogicalType interval_type = LogicalTypeId::INTERVAL;
    LogicalType timestamp_type = LogicalTypeId::TIMESTAMP;
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

} // namespace sluice
