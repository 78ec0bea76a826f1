#include "common/date_time.hpp"
#include "common/string_util.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sluice {

namespace {

// Proleptic Gregorian calendar arithmetic on 400-year eras (146097 days each), counting from
// March 1st so that the leap day falls at the end of the computational year.
constexpr int64_t kDaysPerEra = 146097;
constexpr int64_t kEpochShift = 719468; // days from 0000-03-01 to 1970-01-01

int64_t FloorDiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool IsLeapYear(int64_t year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int32_t DaysInMonth(int64_t year, int32_t month) {
    static const int32_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

void AppendPadded(std::string& out, int64_t value, int width) {
    std::string digits = std::to_string(value);
    for (int i = static_cast<int>(digits.size()); i < width; i++) {
        out += '0';
    }
    out += digits;
}

// Reads 1..max_digits digits; returns false if there are none.
bool ReadNumber(std::string_view text, size_t& pos, int64_t& value, size_t max_digits) {
    size_t start = pos;
    value = 0;
    while (pos < text.size() && pos - start < max_digits &&
           std::isdigit((unsigned char)text[pos])) {
        value = value * 10 + (text[pos] - '0');
        pos++;
    }
    return pos > start;
}

// Parses the date part at the start of `text`, advancing `pos`.
bool ParseDatePart(std::string_view text, size_t& pos, int32_t& result) {
    bool negative = false;
    if (pos < text.size() && text[pos] == '-') {
        negative = true;
        pos++;
    }
    // The separator is '-', '/' or ' ', the same twice (2004/02/29), as DuckDB reads dates.
    int64_t year, month, day;
    auto separator = [](char c) { return c == '-' || c == '/' || c == ' '; };
    if (!ReadNumber(text, pos, year, 9) || pos >= text.size() || !separator(text[pos])) {
        return false;
    }
    char written = text[pos];
    pos++;
    if (!ReadNumber(text, pos, month, 2) || pos >= text.size() || text[pos] != written) {
        return false;
    }
    pos++;
    if (!ReadNumber(text, pos, day, 2)) {
        return false;
    }
    std::string_view rest = text.substr(pos);
    auto bc = [](std::string_view marker) { // " (BC)", in any case
        return marker.size() == 5 && marker.substr(0, 2) == " (" && marker[4] == ')' &&
               (marker[2] == 'B' || marker[2] == 'b') && (marker[3] == 'C' || marker[3] == 'c');
    };
    if (rest.size() >= 5 && bc(rest.substr(0, 5))) {
        if (negative || year == 0) {
            return false;
        }
        year = 1 - year;
        pos += 5;
    } else if (negative) {
        year = -year;
    }
    if (!date::IsValidCivil(year, static_cast<int32_t>(month), static_cast<int32_t>(day))) {
        return false;
    }
    result = date::FromCivil(year, static_cast<int32_t>(month), static_cast<int32_t>(day));
    return true;
}

// How a time may be written: as a CSV sniffer takes it (HH:MM[:SS[.f]], two-digit minutes and
// seconds) or as DuckDB's cast does, which lets the text end after a separator ("11:" is
// 11:00:00, "11:11:11." 11:11:11) and minutes and seconds have one digit.
enum class TimeSyntax : uint8_t { Strict, Lenient };

// Reads the minutes, seconds or fraction after a separator (0 where the lenient syntax lets
// them be missing); `digits` is how many the strict syntax wants (0: any up to `max_digits`).
bool ReadTimeField(std::string_view text, size_t& pos, int64_t& value, size_t max_digits,
                   size_t digits, TimeSyntax syntax) {
    size_t start = pos;
    if (!ReadNumber(text, pos, value, max_digits)) {
        value = 0;
        return syntax == TimeSyntax::Lenient;
    }
    return syntax == TimeSyntax::Lenient || digits == 0 || pos - start == digits;
}

// Parses a time of day into units of 10^-digits seconds (6: micros, 9: nanos).
bool ParseTimePart(std::string_view text, size_t& pos, int64_t& ticks, int digits_per_second = 6,
                   TimeSyntax syntax = TimeSyntax::Lenient) {
    int64_t hour, minute, second = 0, fraction = 0;
    if (!ReadNumber(text, pos, hour, 2) || pos >= text.size() || text[pos] != ':') {
        return false;
    }
    pos++;
    if (!ReadTimeField(text, pos, minute, 2, 2, syntax)) {
        return false;
    }
    if (pos < text.size() && text[pos] == ':') {
        pos++;
        if (!ReadTimeField(text, pos, second, 2, 2, syntax)) {
            return false;
        }
        if (pos < text.size() && text[pos] == '.') {
            pos++;
            size_t start = pos;
            if (!ReadTimeField(text, pos, fraction, static_cast<size_t>(digits_per_second), 0,
                               syntax)) {
                return false;
            }
            for (size_t i = pos - start; i < static_cast<size_t>(digits_per_second); i++) {
                fraction *= 10;
            }
            // Digits beyond microseconds are accepted and truncated.
            while (pos < text.size() && std::isdigit((unsigned char)text[pos])) {
                pos++;
            }
        }
    }
    // 24:00:00 is allowed as the end of a day, as in DuckDB and PostgreSQL.
    bool end_of_day = hour == 24 && minute == 0 && second == 0 && fraction == 0;
    if ((hour > 23 && !end_of_day) || minute > 59 || second > 59) {
        return false;
    }
    int64_t ticks_per_second = digits_per_second == 9 ? 1000000000 : dtime::kMicrosPerSecond;
    ticks = ((hour * 60 + minute) * 60 + second) * ticks_per_second + fraction;
    return true;
}

void AppendTime(std::string& out, int64_t micros) {
    int64_t seconds = micros / dtime::kMicrosPerSecond;
    int64_t fraction = micros % dtime::kMicrosPerSecond;
    AppendPadded(out, seconds / 3600, 2);
    out += ':';
    AppendPadded(out, seconds / 60 % 60, 2);
    out += ':';
    AppendPadded(out, seconds % 60, 2);
    if (fraction != 0) {
        std::string digits;
        AppendPadded(digits, fraction, 6);
        while (digits.back() == '0') {
            digits.pop_back();
        }
        out += '.';
        out += digits;
    }
}

} // namespace

namespace date {

namespace {

// Days since 1970-01-01, not limited to a DATE's range.
int64_t CivilDays(int64_t year, int32_t month, int32_t day) {
    int64_t y = month <= 2 ? year - 1 : year;
    int64_t era = FloorDiv(y, 400);
    int64_t year_of_era = y - era * 400;
    int64_t shifted_month = month > 2 ? month - 3 : month + 9;
    int64_t day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * kDaysPerEra + day_of_era - kEpochShift;
}

} // namespace

int32_t FromCivil(int64_t year, int32_t month, int32_t day) {
    return static_cast<int32_t>(CivilDays(year, month, day));
}

void ToCivil(int32_t days, int64_t& year, int32_t& month, int32_t& day) {
    int64_t z = static_cast<int64_t>(days) + kEpochShift;
    int64_t era = FloorDiv(z, kDaysPerEra);
    int64_t day_of_era = z - era * kDaysPerEra;
    int64_t year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t shifted_month = (5 * day_of_year + 2) / 153;
    day = static_cast<int32_t>(day_of_year - (153 * shifted_month + 2) / 5 + 1);
    month = static_cast<int32_t>(shifted_month < 10 ? shifted_month + 3 : shifted_month - 9);
    year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
}

bool IsValidCivil(int64_t year, int32_t month, int32_t day) {
    // DuckDB's range: 5877642-06-25 (BC) to 5881580-07-10, the infinities just outside.
    if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month) || year < -5877641 ||
        year > 5881580) {
        return false;
    }
    int64_t days = CivilDays(year, month, day);
    return days > kNegativeInfinity && days < kInfinity;
}

bool TryParse(std::string_view text, int32_t& result) {
    text = Trim(text);
    if (EqualsIgnoreCase(text, "infinity")) {
        result = kInfinity;
        return true;
    }
    if (EqualsIgnoreCase(text, "-infinity")) {
        result = kNegativeInfinity;
        return true;
    }
    size_t pos = 0;
    return ParseDatePart(text, pos, result) && pos == text.size();
}

std::string ToString(int32_t days) {
    if (days == kInfinity) {
        return "infinity";
    }
    if (days == kNegativeInfinity) {
        return "-infinity";
    }
    int64_t year;
    int32_t month, day;
    ToCivil(days, year, month, day);
    bool before_christ = year <= 0;
    std::string out;
    AppendPadded(out, before_christ ? 1 - year : year, 4);
    out += '-';
    AppendPadded(out, month, 2);
    out += '-';
    AppendPadded(out, day, 2);
    if (before_christ) {
        out += " (BC)";
    }
    return out;
}

} // namespace date

namespace dtime {

namespace {

// A UTC offset after a time ("Z", "+02", "-05:30"), which a TIME ignores as DuckDB's does.
void SkipOffset(std::string_view text, size_t& pos) {
    if (pos < text.size() && text[pos] == 'Z') {
        pos++;
        return;
    }
    if (pos >= text.size() || (text[pos] != '+' && text[pos] != '-')) {
        return;
    }
    size_t after = pos + 1;
    int64_t hours, minutes;
    if (!ReadNumber(text, after, hours, 2)) {
        return;
    }
    if (after < text.size() && text[after] == ':') {
        after++;
        if (!ReadNumber(text, after, minutes, 2)) {
            return;
        }
    }
    pos = after;
}

} // namespace

bool TryParseTimeOfDay(std::string_view text, int64_t& micros) {
    text = Trim(text);
    size_t pos = 0;
    return ParseTimePart(text, pos, micros, 6, TimeSyntax::Strict) && pos == text.size();
}

bool TryParse(std::string_view text, int64_t& micros) {
    text = Trim(text);
    size_t pos = 0;
    if (ParseTimePart(text, pos, micros)) {
        SkipOffset(text, pos);
        if (pos == text.size()) {
            return true;
        }
    }
    pos = 0;
    // A timestamp's text gives its time of day ('2000-01-01 10:00' is 10:00:00, a date alone
    // midnight), as DuckDB casts it.
    int32_t days;
    if (!ParseDatePart(text, pos, days)) {
        return false;
    }
    micros = 0;
    if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T')) {
        pos++;
        if (!ParseTimePart(text, pos, micros)) {
            return false;
        }
        SkipOffset(text, pos);
    }
    return pos == text.size();
}

std::string ToString(int64_t micros) {
    std::string out;
    AppendTime(out, micros);
    return out;
}

} // namespace dtime

namespace timestamp {

bool TryParse(std::string_view text, int64_t& micros) {
    text = Trim(text);
    if (EqualsIgnoreCase(text, "infinity")) {
        micros = kInfinity;
        return true;
    }
    if (EqualsIgnoreCase(text, "-infinity")) {
        micros = kNegativeInfinity;
        return true;
    }
    size_t pos = 0;
    int32_t days;
    if (!ParseDatePart(text, pos, days)) {
        return false;
    }
    // "YYYY-MM-DD (BC) HH:MM:SS" is how negative years print.
    int64_t time_of_day = 0;
    if (pos < text.size()) {
        if (text[pos] != ' ' && text[pos] != 'T') {
            return false;
        }
        pos++;
        if (!ParseTimePart(text, pos, time_of_day)) {
            return false;
        }
        // A trailing UTC designator is accepted; other offsets need time zone support.
        if (pos < text.size() && (text.substr(pos) == "Z" || text.substr(pos) == "+00" ||
                                  text.substr(pos) == "+00:00")) {
            pos = text.size();
        }
    }
    if (pos != text.size()) {
        return false;
    }
    // Past either end of a TIMESTAMP's range (the infinities are written as words).
    int64_t midnight;
    return TryFromDate(days, midnight) && !__builtin_add_overflow(midnight, time_of_day, &micros) &&
           micros > kNegativeInfinity && micros < kInfinity;
}

bool TryParseWithOffset(std::string_view text, int64_t& micros) {
    text = Trim(text);
    if (TryParse(text, micros)) {
        return true;
    }
    // Split off a trailing [+-]HH[:MM] after the time.
    size_t sign = text.find_last_of("+-");
    if (sign == std::string_view::npos || sign < 10) {
        return false;
    }
    std::string_view offset = text.substr(sign + 1);
    int64_t hours = 0, minutes = 0;
    size_t pos = 0;
    if (!ReadNumber(offset, pos, hours, 2)) {
        return false;
    }
    if (pos < offset.size() && offset[pos] == ':') {
        pos++;
        if (!ReadNumber(offset, pos, minutes, 2)) {
            return false;
        }
    }
    if (pos != offset.size() || hours > 23 || minutes > 59) {
        return false;
    }
    if (!TryParse(text.substr(0, sign), micros) || micros == kInfinity ||
        micros == kNegativeInfinity) {
        return false;
    }
    int64_t shift = (hours * 60 + minutes) * 60 * dtime::kMicrosPerSecond;
    micros += text[sign] == '+' ? -shift : shift;
    return true;
}

std::string ToStringUtc(int64_t micros) {
    if (micros == kInfinity || micros == kNegativeInfinity) {
        return ToString(micros);
    }
    return ToString(micros) + "+00";
}

bool TryParseNanos(std::string_view text, int64_t& nanos) {
    text = Trim(text);
    size_t pos = 0;
    int32_t days;
    if (!ParseDatePart(text, pos, days)) {
        return false;
    }
    int64_t time_of_day = 0;
    if (pos < text.size()) {
        if ((text[pos] != ' ' && text[pos] != 'T') || !ParseTimePart(text, ++pos, time_of_day, 9)) {
            return false;
        }
    }
    // Nanoseconds since 1970 reach only the years 1677 to 2262.
    return pos == text.size() &&
           !__builtin_mul_overflow(static_cast<int64_t>(days), int64_t(86400) * 1000000000,
                                   &nanos) &&
           !__builtin_add_overflow(nanos, time_of_day, &nanos);
}

std::string ToStringNanos(int64_t nanos) {
    int64_t micros = FloorDiv(nanos, 1000);
    int64_t below_micros = nanos - micros * 1000;
    std::string out = ToString(micros);
    if (below_micros == 0) {
        return out;
    }
    // Extend the fraction to nine digits, then trim again.
    size_t point = out.find('.', 11);
    std::string fraction = point == std::string::npos ? "000000" : out.substr(point + 1);
    fraction.append(6 - fraction.size(), '0');
    char tail[4];
    std::snprintf(tail, sizeof(tail), "%03d", static_cast<int>(below_micros));
    fraction += tail;
    while (fraction.back() == '0') {
        fraction.pop_back();
    }
    return (point == std::string::npos ? out : out.substr(0, point)) + "." + fraction;
}

int64_t FromDate(int32_t days) {
    if (days == date::kInfinity) {
        return kInfinity;
    }
    if (days == date::kNegativeInfinity) {
        return kNegativeInfinity;
    }
    return static_cast<int64_t>(days) * dtime::kMicrosPerDay;
}

bool TryFromDate(int32_t days, int64_t& micros) {
    if (days == date::kInfinity || days == date::kNegativeInfinity) {
        micros = FromDate(days);
        return true;
    }
    return !__builtin_mul_overflow(static_cast<int64_t>(days), dtime::kMicrosPerDay, &micros) &&
           micros > kNegativeInfinity && micros < kInfinity;
}

int32_t ToDate(int64_t micros) {
    if (micros == kInfinity) {
        return date::kInfinity;
    }
    if (micros == kNegativeInfinity) {
        return date::kNegativeInfinity;
    }
    return static_cast<int32_t>(FloorDiv(micros, dtime::kMicrosPerDay));
}

std::string ToString(int64_t micros) {
    if (micros == kInfinity) {
        return "infinity";
    }
    if (micros == kNegativeInfinity) {
        return "-infinity";
    }
    int32_t days = ToDate(micros);
    int64_t time_of_day = micros - static_cast<int64_t>(days) * dtime::kMicrosPerDay;
    std::string out = date::ToString(days); // "(BC)" stays with the date, as in DuckDB
    out += ' ';
    AppendTime(out, time_of_day);
    return out;
}

} // namespace timestamp

namespace interval {

namespace {

std::string Plural(int64_t count, const char* unit) {
    return std::to_string(count) + " " + unit + (count == 1 || count == -1 ? "" : "s");
}

} // namespace

std::string ToString(interval_t value) {
    std::string out;
    auto add = [&](std::string part) { out += (out.empty() ? "" : " ") + part; };
    int32_t years = value.months / 12, months = value.months % 12;
    if (years != 0) {
        add(Plural(years, "year"));
    }
    if (months != 0) {
        add(Plural(months, "month"));
    }
    if (value.days != 0) {
        add(Plural(value.days, "day"));
    }
    if (value.micros != 0 || out.empty()) {
        int64_t micros = value.micros;
        std::string sign = micros < 0 ? "-" : "";
        uint64_t magnitude = micros < 0 ? 0 - static_cast<uint64_t>(micros) : micros;
        uint64_t hours = magnitude / (3600ULL * dtime::kMicrosPerSecond);
        magnitude %= 3600ULL * dtime::kMicrosPerSecond;
        char buffer[64];
        std::snprintf(buffer, sizeof(buffer), "%02llu:", static_cast<unsigned long long>(hours));
        std::string clock = buffer;
        // The minutes and seconds print as a TIME does.
        std::string rest = dtime::ToString(static_cast<int64_t>(magnitude));
        add(sign + clock + rest.substr(3));
    }
    return out;
}

bool TryParse(std::string_view text, interval_t& result) {
    result = interval_t{};
    size_t pos = 0;
    auto skip_space = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) {
            pos++;
        }
    };
    bool any = false;
    while (true) {
        skip_space();
        if (pos >= text.size()) {
            return any;
        }
        size_t start = pos;
        if (text[pos] == '-' || text[pos] == '+') {
            pos++;
        }
        while (pos < text.size() &&
               (std::isdigit(static_cast<unsigned char>(text[pos])) || text[pos] == '.')) {
            pos++;
        }
        std::string number(text.substr(start, pos - start));
        if (number.empty() || number == "-" || number == "+") {
            return false;
        }
        if (pos < text.size() && text[pos] == ':') {
            // hh:mm[:ss[.ffffff]]
            bool negative = number[0] == '-';
            size_t clock_start = negative || number[0] == '+' ? start + 1 : start;
            size_t end = clock_start;
            while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) {
                end++;
            }
            std::string_view clock = text.substr(clock_start, end - clock_start);
            size_t colon = clock.find(':');
            int64_t hours = 0;
            for (char c : clock.substr(0, colon)) {
                if (!std::isdigit(static_cast<unsigned char>(c))) {
                    return false;
                }
                hours = hours * 10 + (c - '0');
                if (hours > 100000000) {
                    return false;
                }
            }
            int64_t micros = 0;
            std::string rest = "00:" + std::string(clock.substr(colon + 1));
            if (!dtime::TryParse(rest, micros)) {
                return false;
            }
            micros += hours * 3600 * dtime::kMicrosPerSecond;
            result.micros += negative ? -micros : micros;
            pos = end;
            any = true;
            continue;
        }
        skip_space();
        size_t unit_start = pos;
        while (pos < text.size() && std::isalpha(static_cast<unsigned char>(text[pos]))) {
            pos++;
        }
        std::string unit(text.substr(unit_start, pos - unit_start));
        for (char& c : unit) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (unit.size() > 1 && unit.back() == 's') {
            unit.pop_back();
        }
        char* end = nullptr;
        double amount = std::strtod(number.c_str(), &end);
        if (end == number.c_str() || std::abs(amount) > 1e12) {
            return false;
        }
        auto whole = static_cast<int64_t>(amount);
        double fraction = amount - static_cast<double>(whole);
        if (unit == "year" || unit == "y" || unit == "yr") {
            result.months += static_cast<int32_t>(whole * 12 + std::llround(fraction * 12));
        } else if (unit == "month" || unit == "mon") {
            result.months += static_cast<int32_t>(whole);
            result.days += static_cast<int32_t>(std::llround(fraction * 30));
        } else if (unit == "week" || unit == "w") {
            result.days += static_cast<int32_t>(whole * 7);
            result.micros += std::llround(fraction * 7 * dtime::kMicrosPerDay);
        } else if (unit == "day" || unit == "d") {
            result.days += static_cast<int32_t>(whole);
            result.micros += std::llround(fraction * dtime::kMicrosPerDay);
        } else if (unit == "hour" || unit == "h" || unit == "hr") {
            result.micros += std::llround(amount * 3600 * dtime::kMicrosPerSecond);
        } else if (unit == "minute" || unit == "m" || unit == "min") {
            result.micros += std::llround(amount * 60 * dtime::kMicrosPerSecond);
        } else if (unit == "second" || unit == "s" || unit == "sec") {
            result.micros += std::llround(amount * dtime::kMicrosPerSecond);
        } else if (unit == "millisecond" || unit == "ms") {
            result.micros += std::llround(amount * 1000);
        } else if (unit == "microsecond" || unit == "us") {
            result.micros += std::llround(amount);
        } else {
            return false;
        }
        any = true;
    }
}

int64_t AddToTimestamp(int64_t micros, interval_t value, bool negate) {
    int64_t sign = negate ? -1 : 1;
    if (value.months != 0) {
        int32_t days = timestamp::ToDate(micros);
        int64_t time_of_day = micros - timestamp::FromDate(days);
        int64_t year;
        int32_t month, day;
        date::ToCivil(days, year, month, day);
        int64_t total = year * 12 + (month - 1) + sign * value.months;
        year = total >= 0 ? total / 12 : (total - 11) / 12;
        month = static_cast<int32_t>(total - year * 12) + 1;
        static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        int32_t last = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
        day = std::min(day, last);
        micros = timestamp::FromDate(date::FromCivil(year, month, day)) + time_of_day;
    }
    micros += sign * (static_cast<int64_t>(value.days) * dtime::kMicrosPerDay + value.micros);
    return micros;
}

} // namespace interval

} // namespace sluice
