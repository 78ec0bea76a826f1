#include "execution/date_format.hpp"

#include "common/date_time.hpp"

#include <algorithm>
#include <cctype>

namespace sluice {

const char* const kDayNames[7] = {"Monday", "Tuesday",  "Wednesday", "Thursday",
                                  "Friday", "Saturday", "Sunday"};
const char* const kMonthNames[12] = {"January",   "February", "March",    "April",
                                     "May",       "June",     "July",     "August",
                                     "September", "October",  "November", "December"};

int32_t Weekday(int32_t days) {
    return static_cast<int32_t>(((days + 3) % 7 + 7) % 7); // 0 = Monday
}

std::string Strftime(int32_t days, int64_t micros_of_day, std::string_view format) {
    int64_t year;
    int32_t month, day;
    date::ToCivil(days, year, month, day);
    auto two = [](int64_t value) {
        std::string text = std::to_string(value);
        return text.size() < 2 ? "0" + text : text;
    };
    std::string out;
    for (size_t i = 0; i < format.size(); i++) {
        if (format[i] != '%' || i + 1 == format.size()) {
            out += format[i];
            continue;
        }
        char spec = format[++i];
        int64_t seconds = micros_of_day / dtime::kMicrosPerSecond;
        switch (spec) {
        case 'Y':
            out += std::to_string(year);
            break;
        case 'y':
            out += two(((year % 100) + 100) % 100);
            break;
        case 'm':
            out += two(month);
            break;
        case 'd':
            out += two(day);
            break;
        case 'H':
            out += two(seconds / 3600);
            break;
        case 'M':
            out += two(seconds / 60 % 60);
            break;
        case 'S':
            out += two(seconds % 60);
            break;
        case 'j': {
            std::string text = std::to_string(days - date::FromCivil(year, 1, 1) + 1);
            out += std::string(3 - std::min<size_t>(3, text.size()), '0') + text;
            break;
        }
        case 'a':
            out += std::string(kDayNames[Weekday(days)]).substr(0, 3);
            break;
        case 'A':
            out += kDayNames[Weekday(days)];
            break;
        case 'b':
            out += std::string(kMonthNames[month - 1]).substr(0, 3);
            break;
        case 'B':
            out += kMonthNames[month - 1];
            break;
        case '%':
            out += '%';
            break;
        default:
            throw Exception(ErrorKind::InvalidInput, std::string("strftime: format specifier %") +
                                                         spec + " is not supported");
        }
    }
    return out;
}

bool Strptime(std::string_view text, std::string_view format, int64_t& micros, std::string& error,
              ErrorKind& kind) {
    kind = ErrorKind::InvalidInput;
    int64_t year = 1900, month = 1, day = 1, hour = 0, minute = 0, second = 0, fraction = 0;
    int64_t day_of_year = 0;
    size_t at = 0;
    auto fail = [&](const std::string& reason) {
        error = "Could not parse string \"" + std::string(text) +
                "\" according to format specifier \"" + std::string(format) + "\"\n" +
                std::string(text) + "\n" + std::string(at, ' ') + "^\nError: " + reason;
        return false;
    };
    auto number = [&](size_t max_digits, int64_t& out, size_t* digits = nullptr) {
        size_t start = at;
        out = 0;
        while (at < text.size() && at - start < max_digits && std::isdigit(uint8_t(text[at]))) {
            out = out * 10 + (text[at++] - '0');
        }
        if (digits) {
            *digits = at - start;
        }
        return at > start;
    };
    auto name = [&](const char* const* names, size_t count, int64_t& out) {
        for (size_t i = 0; i < count; i++) {
            std::string_view full = names[i];
            for (size_t length : {full.size(), size_t(3)}) {
                std::string_view candidate = full.substr(0, length);
                if (text.size() - at >= length) {
                    std::string_view here = text.substr(at, length);
                    bool equal =
                        std::equal(here.begin(), here.end(), candidate.begin(), [](char a, char b) {
                            return std::tolower(uint8_t(a)) == std::tolower(uint8_t(b));
                        });
                    if (equal) {
                        at += length;
                        out = static_cast<int64_t>(i);
                        return true;
                    }
                }
            }
        }
        return false;
    };
    for (size_t i = 0; i < format.size(); i++) {
        char f = format[i];
        if (std::isspace(uint8_t(f))) {
            while (at < text.size() && std::isspace(uint8_t(text[at]))) {
                at++;
            }
            continue;
        }
        if (f != '%' || i + 1 == format.size()) {
            if (at >= text.size() || text[at] != f) {
                return fail("Literal does not match, expected " + std::string(1, f));
            }
            at++;
            continue;
        }
        char spec = format[++i];
        bool ok = true;
        size_t digits = 0;
        int64_t ignored = 0;
        switch (spec) {
        case 'Y':
            ok = number(4, year);
            break;
        case 'y':
            ok = number(2, year);
            year += year < 69 ? 2000 : 1900; // as POSIX reads two-digit years
            break;
        case 'm':
            ok = number(2, month);
            break;
        case 'd':
            ok = number(2, day);
            break;
        case 'j':
            ok = number(3, day_of_year);
            break;
        case 'H':
            ok = number(2, hour);
            break;
        case 'M':
            ok = number(2, minute);
            break;
        case 'S':
            ok = number(2, second);
            break;
        case 'f':
            ok = number(6, fraction, &digits);
            for (; digits < 6; digits++) {
                fraction *= 10;
            }
            break;
        case 'b':
        case 'B':
            if (!name(kMonthNames, 12, month)) {
                return fail("Expected a month name");
            }
            month++;
            continue;
        case 'a':
        case 'A':
            if (!name(kDayNames, 7, ignored)) {
                return fail("Expected a day name");
            }
            continue;
        case '%':
            ok = at < text.size() && text[at] == '%';
            at += ok ? 1 : 0;
            if (!ok) {
                return fail("Literal does not match, expected %");
            }
            continue;
        default:
            throw Exception(ErrorKind::InvalidInput, std::string("strptime: format specifier %") +
                                                         spec + " is not supported");
        }
        if (!ok) {
            return fail("Expected a number");
        }
    }
    if (at != text.size()) {
        return fail("Full specifier did not match: trailing characters");
    }
    if (month < 1 || month > 12) {
        return fail("Month out of range, expected a value between 1 and 12");
    }
    if (hour > 23 || minute > 59 || second > 59) {
        return fail("Time out of range");
    }
    int32_t days;
    if (day_of_year > 0) {
        days = date::FromCivil(year, 1, 1) + static_cast<int32_t>(day_of_year) - 1;
    } else if (day >= 1 && day <= 31 &&
               date::IsValidCivil(year, static_cast<int32_t>(month), static_cast<int32_t>(day))) {
        days = date::FromCivil(year, static_cast<int32_t>(month), static_cast<int32_t>(day));
    } else if (day >= 1 && day <= 31) {
        kind = ErrorKind::Conversion; // a day the month does not have, as DuckDB reports it
        error = "Date out of range: " + std::to_string(year) + "-" + std::to_string(month) + "-" +
                std::to_string(day);
        return false;
    } else {
        return fail("Day out of range, expected a value between 1 and 31");
    }
    micros = timestamp::FromDate(days) +
             ((hour * 60 + minute) * 60 + second) * dtime::kMicrosPerSecond + fraction;
    return true;
}

} // namespace sluice
