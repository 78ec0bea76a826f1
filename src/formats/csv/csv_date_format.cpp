#include "formats/csv/csv_date_format.hpp"

#include "common/date_time.hpp"

#include <array>
#include <cctype>

namespace sluice::csv {

namespace {

constexpr std::array<const char*, 12> kMonths = {"january",   "february", "march",    "april",
                                                 "may",       "june",     "july",     "august",
                                                 "september", "october",  "november", "december"};
constexpr std::array<const char*, 7> kWeekdays = {"sunday",   "monday", "tuesday", "wednesday",
                                                  "thursday", "friday", "saturday"};

// Reads 1 to `max_digits` digits at `pos`.
bool ReadNumber(std::string_view text, size_t& pos, size_t max_digits, int64_t& value) {
    size_t start = pos;
    value = 0;
    while (pos < text.size() && pos - start < max_digits &&
           std::isdigit(static_cast<unsigned char>(text[pos]))) {
        value = value * 10 + (text[pos] - '0');
        pos++;
    }
    return pos > start;
}

// A full or three-letter name from `names` at `pos`, case-insensitively; its index.
template <size_t N>
bool ReadName(std::string_view text, size_t& pos, const std::array<const char*, N>& names,
              int32_t& index) {
    for (size_t i = 0; i < N; i++) {
        std::string_view name = names[i];
        for (size_t length : {name.size(), size_t{3}}) {
            if (pos + length > text.size()) {
                continue;
            }
            bool same = true;
            for (size_t k = 0; k < length && same; k++) {
                same = std::tolower(static_cast<unsigned char>(text[pos + k])) == name[k];
            }
            if (same) {
                pos += length;
                index = static_cast<int32_t>(i);
                return true;
            }
        }
    }
    return false;
}

std::vector<CsvDateFormat> Expand(const std::vector<std::string>& templates) {
    std::vector<CsvDateFormat> formats;
    for (const std::string& spec : templates) {
        for (char separator : {'-', '/', '.'}) {
            std::string with = spec;
            for (char& c : with) {
                c = c == '-' ? separator : c;
            }
            std::string error;
            formats.push_back(*CsvDateFormat::Parse(with, error));
        }
    }
    return formats;
}

} // namespace

std::optional<CsvDateFormat> CsvDateFormat::Parse(const std::string& spec, std::string& error) {
    CsvDateFormat format;
    format.spec_ = spec;
    for (size_t i = 0; i < spec.size(); i++) {
        if (spec[i] != '%') {
            format.fields_.push_back({0, spec[i]});
            continue;
        }
        if (++i >= spec.size()) {
            error = "the format '" + spec + "' ends in a lone %";
            return std::nullopt;
        }
        char c = spec[i];
        if (c == '-' && i + 1 < spec.size()) {
            c = spec[++i]; // %-d, %-m: no padding, which parsing accepts anyway
        }
        switch (c) {
        case 'Y':
        case 'y':
        case 'm':
        case 'd':
        case 'b':
        case 'B':
        case 'a':
        case 'A':
            break;
        case 'H':
        case 'I':
        case 'M':
        case 'S':
        case 'f':
        case 'p':
            format.has_time_ = true;
            break;
        case '%':
            format.fields_.push_back({0, '%'});
            continue;
        default:
            error = std::string("the format '") + spec + "' has %" + c +
                    ", which is not supported (%Y %y %m %d %H %I %M %S %f %p %b %B %a %A are)";
            return std::nullopt;
        }
        format.fields_.push_back({c, 0});
    }
    return format;
}

bool CsvDateFormat::Match(std::string_view text, Parts& parts) const {
    size_t pos = 0;
    for (const Field& field : fields_) {
        if (field.specifier == 0) {
            if (pos >= text.size() || text[pos] != field.literal) {
                return false;
            }
            pos++;
            continue;
        }
        int64_t number = 0;
        switch (field.specifier) {
        case 'Y': {
            size_t start = pos;
            if (!ReadNumber(text, pos, 4, parts.year) || pos - start != 4) {
                return false; // four digits: "90" is %y's
            }
            break;
        }
        case 'y':
            if (!ReadNumber(text, pos, 2, number)) {
                return false;
            }
            parts.year = number < 69 ? 2000 + number : 1900 + number; // POSIX's pivot
            break;
        case 'm':
        case 'd':
        case 'H':
        case 'I':
        case 'M':
        case 'S':
            if (!ReadNumber(text, pos, 2, number)) {
                return false;
            }
            (field.specifier == 'm'   ? parts.month
             : field.specifier == 'd' ? parts.day
             : field.specifier == 'M' ? parts.minute
             : field.specifier == 'S' ? parts.second
                                      : parts.hour) = static_cast<int32_t>(number);
            break;
        case 'f': {
            size_t start = pos;
            if (!ReadNumber(text, pos, 6, number)) {
                return false;
            }
            for (size_t digits = pos - start; digits < 6; digits++) {
                number *= 10;
            }
            parts.micros = static_cast<int32_t>(number);
            break;
        }
        case 'p':
            if (pos + 2 > text.size()) {
                return false;
            }
            if ((text[pos] == 'A' || text[pos] == 'a') &&
                (text[pos + 1] == 'M' || text[pos + 1] == 'm')) {
                parts.pm = 0;
            } else if ((text[pos] == 'P' || text[pos] == 'p') &&
                       (text[pos + 1] == 'M' || text[pos + 1] == 'm')) {
                parts.pm = 1;
            } else {
                return false;
            }
            pos += 2;
            break;
        case 'b':
        case 'B': {
            int32_t month;
            if (!ReadName(text, pos, kMonths, month)) {
                return false;
            }
            parts.month = month + 1;
            break;
        }
        case 'a':
        case 'A': {
            int32_t weekday;
            if (!ReadName(text, pos, kWeekdays, weekday)) {
                return false;
            }
            break;
        }
        default:
            return false;
        }
    }
    if (pos != text.size()) {
        return false;
    }
    if (parts.pm >= 0) {
        if (parts.hour < 1 || parts.hour > 12) {
            return false;
        }
        parts.hour = parts.hour % 12 + (parts.pm ? 12 : 0);
    }
    return date::IsValidCivil(parts.year, parts.month, parts.day) && parts.hour < 24 &&
           parts.minute < 60 && parts.second < 60;
}

bool CsvDateFormat::ParseDate(std::string_view text, int32_t& days) const {
    Parts parts;
    if (has_time_ || !Match(text, parts)) {
        return false;
    }
    days = date::FromCivil(parts.year, parts.month, parts.day);
    return true;
}

bool CsvDateFormat::ParseTimestamp(std::string_view text, int64_t& micros) const {
    Parts parts;
    if (!Match(text, parts)) {
        return false;
    }
    micros = timestamp::FromDate(date::FromCivil(parts.year, parts.month, parts.day)) +
             ((int64_t{parts.hour} * 60 + parts.minute) * 60 + parts.second) * 1000000 +
             parts.micros;
    return true;
}

const std::vector<CsvDateFormat>& CsvDateFormat::DateCandidates() {
    static const std::vector<CsvDateFormat> candidates =
        Expand({"%d-%m-%Y", "%d-%m-%y", "%m-%d-%Y", "%m-%d-%y", "%Y-%m-%d", "%y-%m-%d"});
    return candidates;
}

const std::vector<CsvDateFormat>& CsvDateFormat::TimestampCandidates() {
    static const std::vector<CsvDateFormat> candidates = Expand(
        {"%Y-%m-%d %H:%M:%S.%f", "%d-%m-%Y %H:%M:%S", "%d-%m-%y %H:%M:%S", "%m-%d-%Y %I:%M:%S %p",
         "%m-%d-%y %I:%M:%S %p", "%Y-%m-%d %H:%M:%S", "%y-%m-%d %H:%M:%S"});
    return candidates;
}

} // namespace sluice::csv
