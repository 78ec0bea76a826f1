#pragma once

#include <string_view>

namespace sluice {

// Whether `text` is valid UTF-8: no stray continuation bytes, no overlong forms, no surrogates,
// nothing past U+10FFFF. Checks ASCII eight bytes at a time.
bool IsValidUtf8(std::string_view text);

} // namespace sluice
