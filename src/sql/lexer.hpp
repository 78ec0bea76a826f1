#pragma once

#include "sql/token.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace sluice {

// Splits SQL text into tokens, tracking line and column for error messages. Comments
// (-- to end of line, /* ... */) and whitespace are skipped.
class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}
    std::vector<Token> Tokenize();

private:
    Token Next();
    void SkipSpaceAndComments();
    void Advance(size_t count = 1);
    [[noreturn]] void Fail(const std::string& message, SourceLocation location) const;

    std::string_view text_;
    size_t pos_ = 0;
    SourceLocation location_;
};

// Formats "<message>\n\nLINE n: <line text>\n        ^" the way DuckDB points at errors.
std::string DescribeLocation(std::string_view text, SourceLocation location);

} // namespace sluice
