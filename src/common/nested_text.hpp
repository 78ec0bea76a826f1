#pragma once

#include "common/value.hpp"

#include <string>
#include <string_view>

namespace sluice {

// Parses the text form of a LIST, STRUCT or MAP value, as DuckDB casts VARCHAR to them:
// "[1, 2, NULL]", "{'a': 1, b: x}", "{k=v}". Elements are parsed as their own types; they may
// be quoted with single quotes (backslash escapes the next character), an unquoted NULL is
// NULL, and struct fields not named are NULL. False when the text is not such a value.
// `failed`, when given, names the element text that did not parse and its type (empty when the
// nesting itself is malformed).
struct NestedTextFailure {
    std::string element;
    LogicalType type;
};
bool ParseNestedText(std::string_view text, const LogicalType& type, Value& result,
                     NestedTextFailure* failed = nullptr);

} // namespace sluice
