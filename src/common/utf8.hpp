#pragma once

#include <string>
#include <string_view>

namespace sluice {

// Whether `text` is valid UTF-8: no stray continuation bytes, no overlong forms, no surrogates,
// nothing past U+10FFFF. Checks ASCII eight bytes at a time.
bool IsValidUtf8(std::string_view text);

// The bytes of the UTF-8 character starting with `lead` (1 for a stray continuation byte).
inline size_t Utf8SequenceLength(unsigned char lead) {
    return lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
}

// Whether every byte of `text` is ASCII, eight bytes at a time.
bool IsAscii(std::string_view text);

// `text` in upper or lower case, every character mapped by Unicode's simple case mapping (as
// DuckDB's upper and lower do: 'áaaá' to 'ÁAAÁ'); bytes that are not UTF-8 are kept.
std::string Utf8CaseMapped(std::string_view text, bool upper);

// Latin-1 (ISO-8859-1) text as UTF-8: bytes below 0x80 as they are, the others as two bytes.
// Returns `text` itself when it is ASCII, else the converted text held in `scratch`.
std::string_view Latin1ToUtf8(std::string_view text, std::string& scratch);

} // namespace sluice
