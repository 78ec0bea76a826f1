#include "execution/string_functions.hpp"

#include "common/exception.hpp"
#include "execution/vector_loops.hpp"

#include <cctype>

namespace sluice {

namespace {

bool IsContinuationByte(char c) {
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The byte offset of character `n` (0-based) of `text`, or text.size() past the end.
size_t CharacterOffset(std::string_view text, int64_t n) {
    size_t pos = 0;
    while (n > 0 && pos < text.size()) {
        pos++;
        while (pos < text.size() && IsContinuationByte(text[pos])) {
            pos++;
        }
        n--;
    }
    return pos;
}

int64_t CharacterCount(std::string_view text) {
    int64_t count = 0;
    for (char c : text) {
        count += IsContinuationByte(c) ? 0 : 1;
    }
    return count;
}

char Fold(char c, bool case_insensitive) {
    return case_insensitive ? static_cast<char>(std::tolower(static_cast<unsigned char>(c))) : c;
}

} // namespace

bool LikeMatches(std::string_view text, std::string_view pattern, bool case_insensitive,
                 char escape) {
    // Iterative matching with backtracking to the last %: linear for patterns such as %green%.
    size_t t = 0, p = 0;
    size_t star_p = std::string_view::npos, star_t = 0;
    while (t < text.size()) {
        if (p < pattern.size()) {
            char pc = pattern[p];
            if (escape != 0 && pc == escape && p + 1 < pattern.size()) {
                if (Fold(pattern[p + 1], case_insensitive) == Fold(text[t], case_insensitive)) {
                    p += 2;
                    t++;
                    continue;
                }
            } else if (pc == '%') {
                star_p = ++p;
                star_t = t;
                continue;
            } else if (pc == '_') {
                // One character: skip a whole UTF-8 sequence.
                t++;
                while (t < text.size() && IsContinuationByte(text[t])) {
                    t++;
                }
                p++;
                continue;
            } else if (Fold(pc, case_insensitive) == Fold(text[t], case_insensitive)) {
                p++;
                t++;
                continue;
            }
        }
        if (star_p == std::string_view::npos) {
            return false;
        }
        p = star_p;
        t = ++star_t;
    }
    while (p < pattern.size() && pattern[p] == '%') {
        p++;
    }
    return p == pattern.size();
}

BoundFunction BindLike(bool case_insensitive) {
    ScalarFunctionBody body = [case_insensitive](const std::vector<const Vector*>& args,
                                                 idx_t count, Vector& result) {
        char escape = 0;
        if (args.size() > 2) {
            const Vector& escapes = *args[2];
            if (escapes.RowIsValid(0)) {
                std::string_view text = escapes.data<string_t>()[0].view();
                if (text.size() > 1) {
                    throw Exception(ErrorKind::InvalidInput,
                                    "Invalid escape string. Escape string must be empty or one "
                                    "character.");
                }
                escape = text.empty() ? 0 : text[0];
            }
        }
        BinaryLoop<string_t, string_t, bool>(
            *args[0], *args[1], count, result,
            [&](const string_t& text, const string_t& pattern, bool& out) {
                out = LikeMatches(text.view(), pattern.view(), case_insensitive, escape);
                return true;
            });
    };
    LogicalType varchar = LogicalTypeId::VARCHAR;
    return BoundFunction{{varchar, varchar}, LogicalTypeId::BOOLEAN, body};
}

BoundFunction BindSubstring(size_t argument_count) {
    ScalarFunctionBody body = [argument_count](const std::vector<const Vector*>& args, idx_t count,
                                               Vector& result) {
        const Vector& strings = *args[0];
        const Vector& starts = *args[1];
        const Vector* lengths = argument_count > 2 ? args[2] : nullptr;
        for (idx_t row = 0; row < count; row++) {
            idx_t s = strings.vector_type() == VectorType::CONSTANT ? 0 : row;
            idx_t b = starts.vector_type() == VectorType::CONSTANT ? 0 : row;
            idx_t l = lengths && lengths->vector_type() == VectorType::CONSTANT ? 0 : row;
            if (!strings.validity().RowIsValid(s) || !starts.validity().RowIsValid(b) ||
                (lengths && !lengths->validity().RowIsValid(l))) {
                result.SetNull(row);
                continue;
            }
            std::string_view text = strings.data<string_t>()[s].view();
            int64_t start = starts.data<int64_t>()[b];
            int64_t length = lengths ? lengths->data<int64_t>()[l] : INT64_MAX / 4;
            // Characters [start, start + length) counted from 1; negative starts count from
            // the end; the part before the first character is cut off.
            if (start < 0) {
                start = CharacterCount(text) + start + 1;
            }
            int64_t end = length < 0 ? start : start + length;
            if (length < 0) {
                start += length;
            }
            start = std::max<int64_t>(start, 1);
            end = std::max<int64_t>(end, 1);
            size_t from = CharacterOffset(text, start - 1);
            size_t to = CharacterOffset(text, end - 1);
            result.data<string_t>()[row] = result.AddString(text.substr(from, to - from));
        }
    };
    LogicalType bigint = LogicalTypeId::BIGINT;
    std::vector<LogicalType> arguments = {LogicalTypeId::VARCHAR, bigint};
    if (argument_count > 2) {
        arguments.push_back(bigint);
    }
    return BoundFunction{arguments, LogicalTypeId::VARCHAR, body};
}

std::optional<BoundFunction> BindStringFunction(const std::string& name) {
    LogicalType varchar = LogicalTypeId::VARCHAR;
    if (name == "lower" || name == "lcase" || name == "upper" || name == "ucase") {
        bool upper = name == "upper" || name == "ucase";
        ScalarFunctionBody body = [upper](const std::vector<const Vector*>& args, idx_t count,
                                          Vector& result) {
            std::string buffer;
            UnaryLoop<string_t, string_t>(
                *args[0], count, result, [&](const string_t& text, string_t& out) {
                    buffer.assign(text.data(), text.size());
                    for (char& c : buffer) {
                        unsigned char u = static_cast<unsigned char>(c);
                        c = static_cast<char>(upper ? std::toupper(u) : std::tolower(u));
                    }
                    out = result.AddString(buffer);
                    return true;
                });
        };
        return BoundFunction{{varchar}, varchar, body};
    }
    if (name == "length" || name == "len" || name == "char_length") {
        ScalarFunctionBody body = [](const std::vector<const Vector*>& args, idx_t count,
                                     Vector& result) {
            UnaryLoop<string_t, int64_t>(*args[0], count, result,
                                         [](const string_t& text, int64_t& out) {
                                             out = CharacterCount(text.view());
                                             return true;
                                         });
        };
        return BoundFunction{{varchar}, LogicalTypeId::BIGINT, body};
    }
    return std::nullopt;
}

} // namespace sluice
