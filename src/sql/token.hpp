#pragma once

#include <cstdint>
#include <string>

namespace sluice {

enum class TokenType : uint8_t {
    Identifier,       // a word; keywords are words the parser recognises in context
    QuotedIdentifier, // "Name" (never a keyword)
    Integer,          // 42
    Decimal,          // 1.5, .5
    Float,            // 1e3, 1.5e-2
    String,           // 'text' with '' unescaped
    Parameter,        // ? (text empty) or $n (text the digits)
    Operator,         // + - * / // % = == <> != < <= > >= || :: ( ) , . ; [ ]
    EndOfInput,
};

struct SourceLocation {
    uint32_t offset = 0; // byte offset into the query text
    uint32_t line = 1;
    uint32_t column = 1;
};

struct Token {
    TokenType type = TokenType::EndOfInput;
    std::string text; // as written (unescaped for strings and quoted identifiers)
    SourceLocation location;
};

} // namespace sluice
