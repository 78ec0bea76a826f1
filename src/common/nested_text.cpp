#include "common/nested_text.hpp"

#include "common/cast.hpp"
#include "common/string_util.hpp"

#include <cctype>

namespace sluice {

namespace {

// A cursor over nested text. Each Parse* consumes one value and the white space around it.
class NestedTextParser {
public:
    NestedTextParser(std::string_view text, NestedTextFailure* failed)
        : text_(text), failed_(failed) {}

    bool AtEnd() {
        SkipSpace();
        return position_ == text_.size();
    }

    bool ParseValue(const LogicalType& type, const char* terminators, Value& result) {
        SkipSpace();
        switch (type.id()) {
        case LogicalTypeId::LIST:
            return StartsNested('[') ? ParseList(type, result) : ParseNull(type, result);
        case LogicalTypeId::STRUCT:
            return StartsNested('{') ? ParseStruct(type, result) : ParseNull(type, result);
        case LogicalTypeId::MAP:
            return StartsNested('{') ? ParseMap(type, result) : ParseNull(type, result);
        default:
            return ParseScalar(type, terminators, result);
        }
    }

private:
    std::string_view text_;
    NestedTextFailure* failed_;
    size_t position_ = 0;

    void SkipSpace() {
        while (position_ < text_.size() &&
               std::isspace(static_cast<unsigned char>(text_[position_]))) {
            position_++;
        }
    }

    bool Consume(char c) {
        SkipSpace();
        if (position_ < text_.size() && text_[position_] == c) {
            position_++;
            return true;
        }
        return false;
    }

    bool StartsNested(char open) { return position_ < text_.size() && text_[position_] == open; }

    // A nested value written as NULL where a list, struct or map would be.
    bool ParseNull(const LogicalType& type, Value& result) {
        std::string word;
        while (position_ < text_.size() &&
               std::isalpha(static_cast<unsigned char>(text_[position_]))) {
            word += text_[position_++];
        }
        if (Lower(word) != "null") {
            return false;
        }
        result = Value::Null(type);
        return true;
    }

    // Reads a scalar's text up to the first terminator outside quotes and brackets; `quoted`
    // tells whether it was quoted (so that 'NULL' is the string, NULL the missing value).
    bool ReadToken(const char* terminators, std::string& token, bool& quoted) {
        SkipSpace();
        quoted = false;
        if (position_ < text_.size() && (text_[position_] == '\'' || text_[position_] == '"')) {
            // 'it''s' reads as "its", as DuckDB reads it: quoted pieces run together. Double
            // quotes quote as single ones do (["a, b", c] is two strings).
            quoted = true;
            char quote = text_[position_];
            while (position_ < text_.size() && text_[position_] == quote) {
                position_++;
                while (position_ < text_.size() && text_[position_] != quote) {
                    if (text_[position_] == '\\' && position_ + 1 < text_.size()) {
                        position_++;
                    }
                    token += text_[position_++];
                }
                if (position_ == text_.size()) {
                    return false; // unterminated quote
                }
                position_++;
            }
            SkipSpace();
            return true;
        }
        int depth = 0;
        while (position_ < text_.size()) {
            char c = text_[position_];
            if (depth == 0 && std::string_view(terminators).find(c) != std::string_view::npos) {
                break;
            }
            depth += (c == '[' || c == '{' || c == '(') - (c == ']' || c == '}' || c == ')');
            token += c;
            position_++;
        }
        token = std::string(Trim(token));
        return true;
    }

    bool ParseScalar(const LogicalType& type, const char* terminators, Value& result) {
        std::string token;
        bool quoted;
        if (!ReadToken(terminators, token, quoted)) {
            return false;
        }
        if (!quoted && Lower(token) == "null") {
            result = Value::Null(type);
            return true;
        }
        if (TryParseValue(token, type, result)) {
            return true;
        }
        if (failed_) {
            *failed_ = NestedTextFailure{token, type};
        }
        return false;
    }

    bool ParseList(const LogicalType& type, Value& result) {
        position_++; // '['
        std::vector<Value> elements;
        if (!Consume(']')) {
            do {
                Value element;
                if (!ParseValue(type.element(), ",]", element)) {
                    return false;
                }
                elements.push_back(std::move(element));
            } while (Consume(','));
            if (!Consume(']')) {
                return false;
            }
        }
        result = Value::Nested(type, std::move(elements));
        return true;
    }

    bool ParseStruct(const LogicalType& type, Value& result) {
        position_++; // '{'
        const std::vector<StructField>& fields = type.fields();
        std::vector<Value> values;
        for (const StructField& field : fields) {
            values.push_back(Value::Null(field.type));
        }
        if (!Consume('}')) {
            do {
                std::string name;
                bool quoted;
                if (!ReadToken(":", name, quoted) || !Consume(':')) {
                    return false;
                }
                size_t index = 0;
                while (index < fields.size() && Lower(fields[index].name) != Lower(name)) {
                    index++;
                }
                if (index == fields.size() ||
                    !ParseValue(fields[index].type, ",}", values[index])) {
                    return false;
                }
            } while (Consume(','));
            if (!Consume('}')) {
                return false;
            }
        }
        result = Value::Nested(type, std::move(values));
        return true;
    }

    bool ParseMap(const LogicalType& type, Value& result) {
        position_++; // '{'
        std::vector<Value> entries;
        if (!Consume('}')) {
            do {
                Value key, value;
                if (!ParseValue(type.key(), "=", key) || !Consume('=') ||
                    !ParseValue(type.value(), ",}", value) || key.IsNull()) {
                    return false;
                }
                entries.push_back(
                    Value::Nested(type.element(), {std::move(key), std::move(value)}));
            } while (Consume(','));
            if (!Consume('}')) {
                return false;
            }
        }
        result = Value::Nested(type, std::move(entries));
        return true;
    }
};

} // namespace

bool ParseNestedText(std::string_view text, const LogicalType& type, Value& result,
                     NestedTextFailure* failed) {
    NestedTextParser parser(text, failed);
    return parser.ParseValue(type, "", result) && parser.AtEnd();
}

} // namespace sluice
