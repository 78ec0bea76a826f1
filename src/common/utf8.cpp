#include "common/utf8.hpp"

#include <clocale>
#include <cstdint>
#include <cstring>
#include <cwctype>
#include <locale.h>

namespace sluice {

bool IsValidUtf8(std::string_view text) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    size_t size = text.size(), i = 0;
    // ASCII, eight bytes at a time: the common case.
    while (i + 8 <= size) {
        uint64_t word;
        std::memcpy(&word, bytes + i, 8);
        if (word & 0x8080808080808080ULL) {
            break;
        }
        i += 8;
    }
    while (i < size) {
        unsigned char c = bytes[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t extra;
        uint32_t code;
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            code = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            code = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            code = c & 0x07;
        } else {
            return false;
        }
        if (i + extra >= size) {
            return false;
        }
        for (size_t k = 1; k <= extra; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80) {
                return false;
            }
            code = (code << 6) | (bytes[i + k] & 0x3F);
        }
        bool overlong = (extra == 1 && code < 0x80) || (extra == 2 && code < 0x800) ||
                        (extra == 3 && code < 0x10000);
        if (overlong || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
            return false;
        }
        i += extra + 1;
    }
    return true;
}

bool IsAscii(std::string_view text) {
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        high |= word;
    }
    for (; i < text.size(); i++) {
        high |= static_cast<unsigned char>(text[i]);
    }
    return (high & 0x8080808080808080ULL) == 0;
}

std::string_view Latin1ToUtf8(std::string_view text, std::string& scratch) {
    size_t high = 0;
    for (char c : text) {
        high += static_cast<unsigned char>(c) >= 0x80 ? 1 : 0;
    }
    if (high == 0) {
        return text;
    }
    scratch.clear();
    scratch.reserve(text.size() + high);
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (byte < 0x80) {
            scratch.push_back(c);
        } else {
            scratch.push_back(static_cast<char>(0xC0 | (byte >> 6)));
            scratch.push_back(static_cast<char>(0x80 | (byte & 0x3F)));
        }
    }
    return scratch;
}

namespace {

// Decodes the character at `at` (advancing past it); false for bytes that are not UTF-8.
bool DecodeUtf8(std::string_view text, size_t& at, char32_t& code) {
    auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    size_t length = Utf8SequenceLength(byte(at));
    if (length == 1 || at + length > text.size()) {
        return false;
    }
    code = byte(at) & (0xFF >> (length + 1));
    for (size_t i = 1; i < length; i++) {
        if ((byte(at + i) & 0xC0) != 0x80) {
            return false;
        }
        code = (code << 6) | (byte(at + i) & 0x3F);
    }
    at += length;
    return true;
}

void EncodeUtf8(char32_t code, std::string& out) {
    if (code < 0x80) {
        out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (code >> 6)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (code >> 12)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (code >> 18)));
        out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
}

// glibc's built-in C.UTF-8 locale: Unicode's case tables, whatever the process's locale is.
locale_t Utf8Locale() {
    static locale_t locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
    return locale;
}

} // namespace

std::string Utf8CaseMapped(std::string_view text, bool upper) {
    std::string out;
    out.reserve(text.size());
    locale_t locale = Utf8Locale();
    for (size_t at = 0; at < text.size();) {
        auto lead = static_cast<unsigned char>(text[at]);
        char32_t code = 0;
        if (lead < 0x80 || !locale) {
            out.push_back(static_cast<char>(upper ? std::toupper(lead) : std::tolower(lead)));
            at++;
        } else if (DecodeUtf8(text, at, code)) {
            auto wide = static_cast<wint_t>(code);
            char32_t mapped =
                static_cast<char32_t>(upper ? towupper_l(wide, locale) : towlower_l(wide, locale));
            // Unicode maps ß's upper case to itself; DuckDB (utf8proc) to capital sharp s.
            EncodeUtf8(upper && code == 0xDF ? 0x1E9E : mapped, out);
        } else {
            out.push_back(text[at++]);
        }
    }
    return out;
}

} // namespace sluice
