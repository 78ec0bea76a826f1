#include "common/utf8.hpp"

#include <cstdint>
#include <cstring>

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

} // namespace sluice
