#include "common/number_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace sluice {

namespace {

// Lays out the shortest round-trip digits of a finite value the way Python's repr does:
// positional notation for decimal exponents in [-4, 16), scientific notation otherwise.
template <class T>
std::string FormatShortest(T value) {
    if (std::isnan(value)) {
        return std::signbit(value) ? "-nan" : "nan"; // DuckDB prints the NaN's sign
    }
    if (std::isinf(value)) {
        return value < 0 ? "-inf" : "inf";
    }
    char buffer[64];
    auto [end, ec] =
        std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
    std::string scientific(buffer, end);
    // scientific is "[-]d[.ddd]e[+-]XX"
    bool negative = scientific[0] == '-';
    size_t e_pos = scientific.find('e');
    std::string mantissa = scientific.substr(negative ? 1 : 0, e_pos - (negative ? 1 : 0));
    int exponent = std::stoi(scientific.substr(e_pos + 1));
    std::string digits;
    for (char c : mantissa) {
        if (c != '.') {
            digits += c;
        }
    }
    std::string out = negative ? "-" : "";
    if (exponent >= -4 && exponent < 16) {
        if (exponent < 0) {
            out += "0.";
            out.append(static_cast<size_t>(-exponent - 1), '0');
            out += digits;
        } else if (static_cast<size_t>(exponent) + 1 >= digits.size()) {
            out += digits;
            out.append(static_cast<size_t>(exponent) + 1 - digits.size(), '0');
            out += ".0";
        } else {
            out += digits.substr(0, static_cast<size_t>(exponent) + 1);
            out += '.';
            out += digits.substr(static_cast<size_t>(exponent) + 1);
        }
        return out;
    }
    out += digits[0];
    if (digits.size() > 1) {
        out += '.';
        out += digits.substr(1);
    }
    char exponent_text[16];
    std::snprintf(exponent_text, sizeof(exponent_text), "e%c%02d", exponent < 0 ? '-' : '+',
                  std::abs(exponent));
    return out + exponent_text;
}

} // namespace

std::string FormatDouble(double value) {
    return FormatShortest(value);
}

std::string FormatFloat(float value) {
    return FormatShortest(value);
}

std::string FormatHugeint(hugeint_t value) {
    if (value == 0) {
        return "0";
    }
    bool negative = value < 0;
    // Work on the magnitude as unsigned so that the minimum value does not overflow.
    unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(value + 1)) + 1
                                           : static_cast<unsigned __int128>(value);
    char buffer[48];
    int pos = sizeof(buffer);
    while (magnitude > 0) {
        buffer[--pos] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
        magnitude /= 10;
    }
    if (negative) {
        buffer[--pos] = '-';
    }
    return std::string(buffer + pos, sizeof(buffer) - pos);
}

std::string FormatDecimal(hugeint_t value, uint8_t width, uint8_t scale) {
    if (scale == 0) {
        return FormatHugeint(value);
    }
    bool negative = value < 0;
    std::string digits = FormatHugeint(negative ? -value : value);
    size_t integer_digits = width > scale ? 1 : 0;
    if (digits.size() < scale + integer_digits) {
        digits.insert(0, scale + integer_digits - digits.size(), '0');
    }
    digits.insert(digits.size() - scale, ".");
    return negative ? "-" + digits : digits;
}

std::string FormatBlob(std::string_view bytes) {
    static const char* kHex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : bytes) {
        bool regular = c >= 32 && c <= 126 && c != '\\' && c != '\'' && c != '"';
        if (regular) {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

namespace {
constexpr unsigned __int128 kUuidFlip = static_cast<unsigned __int128>(1) << 127;
} // namespace

std::string FormatUuid(hugeint_t value) {
    static const char* kHex = "0123456789abcdef";
    auto bits = static_cast<unsigned __int128>(value) ^ kUuidFlip;
    std::string out;
    for (int nibble = 31; nibble >= 0; nibble--) {
        out += kHex[static_cast<int>((bits >> (4 * nibble)) & 15)];
        if (nibble == 24 || nibble == 20 || nibble == 16 || nibble == 12) {
            out += '-';
        }
    }
    return out;
}

bool TryParseUuid(std::string_view text, hugeint_t& result) {
    if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
        text = text.substr(1, text.size() - 2);
    }
    unsigned __int128 bits = 0;
    int digits = 0;
    for (char c : text) {
        if (c == '-') {
            continue;
        }
        int value;
        if (c >= '0' && c <= '9') {
            value = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            value = c - 'a' + 10;
        } else if (c >= 'A' && c <= 'F') {
            value = c - 'A' + 10;
        } else {
            return false;
        }
        if (++digits > 32) {
            return false;
        }
        bits = (bits << 4) | static_cast<unsigned>(value);
    }
    if (digits != 32) {
        return false;
    }
    result = static_cast<hugeint_t>(bits ^ kUuidFlip);
    return true;
}

hugeint_t PowerOfTen(int exponent) {
    hugeint_t result = 1;
    for (int i = 0; i < exponent; i++) {
        result *= 10;
    }
    return result;
}

bool TryParseHugeint(std::string_view text, hugeint_t& result) {
    size_t pos = 0;
    bool negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
        negative = text[pos] == '-';
        pos++;
    }
    if (pos == text.size()) {
        return false;
    }
    // The magnitude may reach 2^127 so that the minimum int128 parses.
    const unsigned __int128 kLimit = (static_cast<unsigned __int128>(1) << 127);
    unsigned __int128 magnitude = 0;
    for (; pos < text.size(); pos++) {
        char c = text[pos];
        if (c < '0' || c > '9') {
            return false;
        }
        if (magnitude > (kLimit - (c - '0')) / 10) {
            return false;
        }
        magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
    }
    if (!negative && magnitude == kLimit) {
        return false;
    }
    result =
        negative ? -static_cast<hugeint_t>(magnitude - 1) - 1 : static_cast<hugeint_t>(magnitude);
    return true;
}

} // namespace sluice
