#include "common/memory_size.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace sluice {

uint64_t SystemMemoryBytes() {
    long pages = sysconf(_SC_PHYS_PAGES);
    long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) {
        return uint64_t(8) << 30;
    }
    return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
}

std::optional<uint64_t> ParseMemorySize(std::string_view text) {
    while (!text.empty() && std::isspace((unsigned char)text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && std::isspace((unsigned char)text.back())) {
        text.remove_suffix(1);
    }
    size_t pos = 0;
    double number = 0;
    bool any_digit = false, seen_point = false;
    double fraction_scale = 1;
    for (; pos < text.size(); pos++) {
        char c = text[pos];
        if (std::isdigit((unsigned char)c)) {
            any_digit = true;
            if (seen_point) {
                fraction_scale /= 10;
                number += (c - '0') * fraction_scale;
            } else {
                number = number * 10 + (c - '0');
            }
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (!any_digit) {
        return std::nullopt;
    }
    while (pos < text.size() && text[pos] == ' ') {
        pos++;
    }
    std::string unit;
    for (; pos < text.size(); pos++) {
        unit += static_cast<char>(std::tolower((unsigned char)text[pos]));
    }
    double multiplier;
    if (unit == "%") {
        if (number > 100) {
            return std::nullopt;
        }
        return static_cast<uint64_t>(std::floor(SystemMemoryBytes() * number / 100));
    }
    if (unit == "b" || unit == "byte" || unit == "bytes") {
        multiplier = 1;
    } else if (unit == "kb" || unit == "k") {
        multiplier = 1e3;
    } else if (unit == "mb" || unit == "m") {
        multiplier = 1e6;
    } else if (unit == "gb" || unit == "g") {
        multiplier = 1e9;
    } else if (unit == "tb" || unit == "t") {
        multiplier = 1e12;
    } else if (unit == "kib") {
        multiplier = 1024.0;
    } else if (unit == "mib") {
        multiplier = 1024.0 * 1024;
    } else if (unit == "gib") {
        multiplier = 1024.0 * 1024 * 1024;
    } else if (unit == "tib") {
        multiplier = 1024.0 * 1024 * 1024 * 1024;
    } else {
        return std::nullopt;
    }
    double bytes = number * multiplier;
    if (bytes >= 1.8e19) {
        return std::nullopt;
    }
    return static_cast<uint64_t>(bytes);
}

std::string FormatMemorySize(uint64_t bytes) {
    static const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024) {
        return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    }
    double value = static_cast<double>(bytes) / 1024;
    int unit = 0;
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        unit++;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.1f %s", value, kUnits[unit]);
    return buffer;
}

} // namespace sluice
