#include "sql/lexer.hpp"

#include "common/exception.hpp"
#include "common/utf8.hpp"

#include <cctype>

namespace sluice {

namespace {

bool IsIdentifierStart(char c) {
    return std::isalpha((unsigned char)c) || c == '_' || (c & 0x80);
}
bool IsIdentifierChar(char c) {
    return IsIdentifierStart(c) || std::isdigit((unsigned char)c) || c == '$';
}

// Masks the values of secret settings (SET s3_secret_access_key = '...') in a line of SQL that
// an error message quotes, character for character so the caret still points right.
std::string MaskSecrets(std::string line) {
    std::string lower = line;
    for (char& c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (const char* name : {"s3_secret_access_key", "s3_session_token"}) {
        size_t at = 0;
        while ((at = lower.find(name, at)) != std::string::npos) {
            size_t open = line.find('\'', at);
            size_t close = open == std::string::npos ? open : line.find('\'', open + 1);
            if (close == std::string::npos) {
                break;
            }
            for (size_t i = open + 1; i < close; i++) {
                line[i] = '*';
            }
            at = close;
        }
    }
    return line;
}

} // namespace

std::string DescribeLocation(std::string_view text, SourceLocation location) {
    size_t line_start = location.offset;
    while (line_start > 0 && text[line_start - 1] != '\n') {
        line_start--;
    }
    size_t line_end = text.find('\n', location.offset);
    if (line_end == std::string_view::npos) {
        line_end = text.size();
    }
    std::string prefix = "LINE " + std::to_string(location.line) + ": ";
    std::string out =
        "\n\n" + prefix + MaskSecrets(std::string(text.substr(line_start, line_end - line_start)));
    out += "\n" + std::string(prefix.size() + (location.offset - line_start), ' ') + "^";
    return out;
}

void Lexer::Fail(const std::string& message, SourceLocation location) const {
    throw Exception(ErrorKind::Parser, message + " at line " + std::to_string(location.line) +
                                           ", column " + std::to_string(location.column) +
                                           DescribeLocation(text_, location));
}

void Lexer::Advance(size_t count) {
    for (size_t i = 0; i < count && pos_ < text_.size(); i++) {
        if (text_[pos_] == '\n') {
            location_.line++;
            location_.column = 1;
        } else if ((static_cast<unsigned char>(text_[pos_]) & 0xC0) != 0x80) {
            location_.column++; // count UTF-8 characters, not bytes
        }
        pos_++;
        location_.offset = static_cast<uint32_t>(pos_);
    }
}

void Lexer::SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
        char c = text_[pos_];
        if (std::isspace((unsigned char)c)) {
            Advance();
        } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {
            while (pos_ < text_.size() && text_[pos_] != '\n') {
                Advance();
            }
        } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
            SourceLocation start = location_;
            Advance(2);
            while (pos_ + 1 < text_.size() && !(text_[pos_] == '*' && text_[pos_ + 1] == '/')) {
                Advance();
            }
            if (pos_ + 1 >= text_.size()) {
                Fail("unterminated /* comment", start);
            }
            Advance(2);
        } else {
            return;
        }
    }
}

std::vector<Token> Lexer::Tokenize() {
    std::vector<Token> tokens;
    while (true) {
        Token token = Next();
        // Text values are UTF-8 everywhere in the engine; a literal must not bring in others.
        if (!IsValidUtf8(token.text)) {
            Fail("invalid UTF-8 in the statement", token.location);
        }
        bool end = token.type == TokenType::EndOfInput;
        tokens.push_back(std::move(token));
        if (end) {
            return tokens;
        }
    }
}

Token Lexer::Next() {
    SkipSpaceAndComments();
    Token token;
    token.location = location_;
    if (pos_ >= text_.size()) {
        token.type = TokenType::EndOfInput;
        return token;
    }
    char c = text_[pos_];
    size_t start = pos_;
    if (IsIdentifierStart(c)) {
        while (pos_ < text_.size() && IsIdentifierChar(text_[pos_])) {
            Advance();
        }
        token.type = TokenType::Identifier;
        token.text = std::string(text_.substr(start, pos_ - start));
        return token;
    }
    if (std::isdigit((unsigned char)c) ||
        (c == '.' && pos_ + 1 < text_.size() && std::isdigit((unsigned char)text_[pos_ + 1]))) {
        token.type = TokenType::Integer;
        while (pos_ < text_.size() &&
               (std::isdigit((unsigned char)text_[pos_]) || text_[pos_] == '_')) {
            Advance();
        }
        if (pos_ < text_.size() && text_[pos_] == '.') {
            token.type = TokenType::Decimal;
            Advance();
            while (pos_ < text_.size() && std::isdigit((unsigned char)text_[pos_])) {
                Advance();
            }
        }
        if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
            size_t look = pos_ + 1;
            if (look < text_.size() && (text_[look] == '+' || text_[look] == '-')) {
                look++;
            }
            if (look < text_.size() && std::isdigit((unsigned char)text_[look])) {
                token.type = TokenType::Float;
                Advance(look - pos_);
                while (pos_ < text_.size() && std::isdigit((unsigned char)text_[pos_])) {
                    Advance();
                }
            }
        }
        for (char digit : text_.substr(start, pos_ - start)) {
            if (digit != '_') {
                token.text += digit;
            }
        }
        if (pos_ < text_.size() && IsIdentifierStart(text_[pos_]) && text_[pos_] != 'e' &&
            text_[pos_] != 'E') {
            Fail("syntax error at or near \"" + std::string(text_.substr(start, pos_ - start + 1)) +
                     "\"",
                 token.location);
        }
        return token;
    }
    if (c == '\'' || c == '"') {
        char quote = c;
        Advance();
        while (true) {
            if (pos_ >= text_.size()) {
                Fail(quote == '\'' ? "unterminated quoted string"
                                   : "unterminated quoted identifier",
                     token.location);
            }
            if (text_[pos_] == quote) {
                if (pos_ + 1 < text_.size() && text_[pos_ + 1] == quote) {
                    token.text += quote;
                    Advance(2);
                    continue;
                }
                Advance();
                break;
            }
            token.text += text_[pos_];
            Advance();
        }
        token.type = quote == '\'' ? TokenType::String : TokenType::QuotedIdentifier;
        if (quote == '"' && token.text.empty()) {
            Fail("zero-length delimited identifier", token.location);
        }
        return token;
    }
    // Prepared statement parameters: ? numbered in order, $n by their number.
    if (c == '?' || (c == '$' && pos_ + 1 < text_.size() &&
                     std::isdigit(static_cast<unsigned char>(text_[pos_ + 1])))) {
        token.type = TokenType::Parameter;
        Advance();
        while (c == '$' && pos_ < text_.size() &&
               std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            token.text += text_[pos_];
            Advance();
        }
        return token;
    }
    // Longest first: PostgreSQL's pattern operators (~ regular expression, ~~ LIKE, ~~* ILIKE,
    // each negated by !) and the two-character ones.
    static const char* kLongOperators[] = {"!~~*", "!~~", "~~*", "~~", "!~", "//", "<>", "!=",
                                           "<=",   ">=",  "||",  "::", "==", ":=", "->"};
    for (const char* op : kLongOperators) {
        size_t length = std::char_traits<char>::length(op);
        if (text_.substr(pos_, length) == op) {
            token.type = TokenType::Operator;
            token.text = op;
            Advance(length);
            return token;
        }
    }
    static const std::string kSingle = "+-*/%=<>(),.;[]{}:~";
    if (kSingle.find(c) != std::string::npos) {
        token.type = TokenType::Operator;
        token.text = std::string(1, c);
        Advance();
        return token;
    }
    Fail("syntax error at or near \"" + std::string(1, c) + "\"", token.location);
}

} // namespace sluice
