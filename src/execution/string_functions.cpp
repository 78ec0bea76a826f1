#include "execution/string_functions.hpp"

#include "common/exception.hpp"
#include "common/string_heap.hpp"
#include "common/utf8.hpp"
#include "execution/vector_loops.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <openssl/evp.h>
#include <optional>
#include <string>
#include <vector>

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
    if (case_insensitive && (!IsAscii(text) || !IsAscii(pattern))) {
        // Beyond ASCII, case is Unicode's: both sides lowered whole, then matched exactly.
        return LikeMatches(Utf8CaseMapped(text, false), Utf8CaseMapped(pattern, false), false,
                           escape);
    }
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

namespace {

// A LIKE pattern made of literal pieces between %s: whether it is anchored at either end.
struct LikePieces {
    std::vector<std::string_view> pieces;
    bool anchored_start = false;
    bool anchored_end = false;
};

// The pattern as pieces, or nullopt when it has _ or an escape character.
std::optional<LikePieces> SplitOnPercent(std::string_view pattern, char escape) {
    if (pattern.find('_') != std::string_view::npos ||
        (escape != 0 && pattern.find(escape) != std::string_view::npos)) {
        return std::nullopt;
    }
    LikePieces split;
    split.anchored_start = pattern.empty() || pattern.front() != '%';
    split.anchored_end = pattern.empty() || pattern.back() != '%';
    size_t start = 0;
    while (start <= pattern.size()) {
        size_t end = std::min(pattern.find('%', start), pattern.size());
        split.pieces.push_back(pattern.substr(start, end - start));
        start = end + 1;
    }
    return split;
}

bool MatchesPieces(std::string_view text, const LikePieces& split) {
    const auto& pieces = split.pieces;
    if (pieces.size() == 1) {
        return text == pieces[0]; // no % at all
    }
    size_t begin = 0, end = text.size();
    if (split.anchored_start) {
        if (text.substr(0, pieces.front().size()) != pieces.front()) {
            return false;
        }
        begin = pieces.front().size();
    }
    if (split.anchored_end) {
        const std::string_view& last = pieces.back();
        if (last.size() > end - begin || text.substr(end - last.size()) != last) {
            return false;
        }
        end -= last.size();
    }
    // The middle pieces, each found as early as possible after the one before.
    for (size_t i = 1; i + 1 < pieces.size(); i++) {
        size_t found = text.substr(0, end).find(pieces[i], begin);
        if (found == std::string_view::npos) {
            return false;
        }
        begin = found + pieces[i].size();
    }
    return begin <= end;
}

} // namespace

BoundFunction BindLike(bool case_insensitive) {
    ScalarFunctionBody body = [case_insensitive](const std::vector<const Vector*>& args,
                                                 idx_t count, Vector& result) {
        char escape = 0;
        if (args.size() > 2) {
            const Vector& escapes = *args[2];
            if (!escapes.RowIsValid(0)) { // a NULL escape makes every answer NULL
                for (idx_t row = 0; row < count; row++) {
                    result.SetNull(row);
                }
                return;
            }
            {
                std::string_view text = escapes.data<string_t>()[0].view();
                if (text.size() > 1) {
                    throw Exception(ErrorKind::InvalidInput,
                                    "Invalid escape string. Escape string must be empty or one "
                                    "character.");
                }
                escape = text.empty() ? 0 : text[0];
            }
        }
        const Vector& patterns = *args[1];
        if (!case_insensitive && patterns.vector_type() == VectorType::CONSTANT &&
            patterns.RowIsValid(0)) {
            // A constant pattern of literals and %s ('%special%requests%'): found piece by
            // piece with memchr/memcmp-based searches instead of character-wise backtracking.
            std::string_view pattern = patterns.data<string_t>()[0].view();
            if (auto pieces = SplitOnPercent(pattern, escape)) {
                UnaryLoop<string_t, bool>(*args[0], count, result,
                                          [&](const string_t& text, bool& out) {
                                              out = MatchesPieces(text.view(), *pieces);
                                              return true;
                                          });
                return;
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

namespace {

// One argument's value in a row: text, or a number.
struct Argument {
    std::string_view text;
    int64_t number = 0;
};

// A function evaluated row by row over arguments of `types` (VARCHAR or BIGINT): `op(args,
// result, row)` writes the row and returns false to make it NULL. Rows with a NULL argument
// are NULL unless `nulls_reach_op`, when a NULL argument arrives as `absent` set.
template <class Op>
ScalarFunctionBody RowWise(std::vector<LogicalType> types, Op op, bool nulls_reach_op = false) {
    return [types, op, nulls_reach_op](const std::vector<const Vector*>& vectors, idx_t count,
                                       Vector& result) {
        std::vector<Argument> args(types.size());
        std::vector<bool> absent(types.size());
        for (idx_t row = 0; row < count; row++) {
            bool any_null = false;
            for (size_t i = 0; i < types.size(); i++) {
                const Vector& vector = *vectors[i];
                idx_t index = vector.vector_type() == VectorType::CONSTANT ? 0 : row;
                absent[i] = !vector.validity().RowIsValid(index);
                any_null |= absent[i];
                if (absent[i]) {
                    args[i] = {};
                } else if (types[i].id() == LogicalTypeId::VARCHAR) {
                    args[i].text = vector.data<string_t>()[index].view();
                } else {
                    args[i].number = vector.data<int64_t>()[index];
                }
            }
            if ((any_null && !nulls_reach_op) || !op(args, absent, result, row)) {
                result.SetNull(row);
            }
        }
    };
}

void SetText(Vector& result, idx_t row, std::string_view text) {
    result.data<string_t>()[row] = result.AddString(text);
}

void SetNumber(Vector& result, idx_t row, int64_t value) {
    result.data<int64_t>()[row] = value;
}

void SetBool(Vector& result, idx_t row, bool value) {
    result.data<bool>()[row] = value;
}

// The first `n` characters (all but the last -n when negative).
std::string_view LeftCharacters(std::string_view text, int64_t n) {
    int64_t total = CharacterCount(text);
    int64_t keep = n >= 0 ? std::min(n, total) : std::max<int64_t>(0, total + n);
    return text.substr(0, CharacterOffset(text, keep));
}

// The last `n` characters (all but the first -n when negative).
std::string_view RightCharacters(std::string_view text, int64_t n) {
    int64_t total = CharacterCount(text);
    int64_t keep = n >= 0 ? std::min(n, total) : std::max<int64_t>(0, total + n);
    return text.substr(CharacterOffset(text, total - keep));
}

// The 1-based character position of `needle` in `text`, 0 when absent.
int64_t CharacterPosition(std::string_view text, std::string_view needle) {
    size_t found = text.find(needle);
    return found == std::string_view::npos ? 0 : CharacterCount(text.substr(0, found)) + 1;
}

// Sets `row` to a string of `size` bytes that `fill` writes, built in the result's heap without
// a temporary: repeat and the pads make strings of up to 4 GiB from a few bytes of input.
template <class Fill>
void SetBuiltText(Vector& result, idx_t row, unsigned __int128 size, Fill fill) {
    StringHeap::CheckSize(size > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(size));
    auto length = static_cast<uint32_t>(size);
    if (length <= string_t::kInlineLength) {
        char bytes[string_t::kInlineLength];
        fill(bytes);
        result.data<string_t>()[row] = string_t(bytes, length);
        return;
    }
    char* target = result.string_heap().Allocate(length);
    fill(target);
    result.data<string_t>()[row] = string_t(target, length);
}

// Writes `text` `times` times from `out` on; returns the end.
char* WriteRepeated(char* out, std::string_view text, int64_t times) {
    for (int64_t i = 0; i < times; i++) {
        std::memcpy(out, text.data(), text.size());
        out += text.size();
    }
    return out;
}

void SetRepeated(Vector& result, idx_t row, std::string_view text, int64_t times) {
    times = std::max<int64_t>(times, 0);
    unsigned __int128 size = static_cast<unsigned __int128>(text.size()) * times;
    SetBuiltText(result, row, size, [&](char* out) { WriteRepeated(out, text, times); });
}

// lpad / rpad: `text` cut or filled up to `length` characters with `fill`, cycled.
void SetPadded(Vector& result, idx_t row, std::string_view text, int64_t length,
               std::string_view fill, bool left) {
    int64_t have = CharacterCount(text);
    if (length <= have) {
        SetText(result, row, LeftCharacters(text, std::max<int64_t>(length, 0)));
        return;
    }
    // A fill of no whole character (empty, or bytes that start none) cannot pad.
    int64_t fill_characters = CharacterCount(fill);
    if (fill_characters == 0) {
        SetText(result, row, text);
        return;
    }
    int64_t whole_fills = (length - have) / fill_characters;
    std::string_view partial_fill = LeftCharacters(fill, (length - have) % fill_characters);
    unsigned __int128 padding =
        static_cast<unsigned __int128>(fill.size()) * whole_fills + partial_fill.size();
    SetBuiltText(result, row, padding + text.size(), [&](char* out) {
        if (!left) {
            out = WriteRepeated(out, text, 1);
        }
        out = WriteRepeated(out, fill, whole_fills);
        out = WriteRepeated(out, partial_fill, 1);
        if (left) {
            WriteRepeated(out, text, 1);
        }
    });
}

std::string_view Trim(std::string_view text, std::string_view characters, bool left, bool right) {
    size_t begin = 0, end = text.size();
    while (left && begin < end && characters.find(text[begin]) != std::string_view::npos) {
        begin++;
    }
    while (right && end > begin && characters.find(text[end - 1]) != std::string_view::npos) {
        end--;
    }
    return text.substr(begin, end - begin);
}

} // namespace

namespace {

// The digest of `text` in lowercase hexadecimal, as DuckDB's md5, sha1 and sha256 print it.
std::string HexDigest(const EVP_MD* digest, std::string_view text) {
    unsigned char bytes[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(text.data(), text.size(), bytes, &length, digest, nullptr) != 1) {
        throw Exception(ErrorKind::Internal, "OpenSSL could not compute a digest");
    }
    static const char kHex[] = "0123456789abcdef";
    std::string hex(2 * length, '0');
    for (unsigned int i = 0; i < length; i++) {
        hex[2 * i] = kHex[bytes[i] >> 4];
        hex[2 * i + 1] = kHex[bytes[i] & 15];
    }
    return hex;
}

// The UTF-8 bytes of a Unicode scalar value.
std::string CodepointToUtf8(int32_t code) {
    if (code < 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        throw Exception(ErrorKind::InvalidInput, "Invalid UTF8 Codepoint " + std::to_string(code));
    }
    auto byte = [](uint32_t value) { return static_cast<char>(value); };
    auto c = static_cast<uint32_t>(code);
    if (c < 0x80) {
        return std::string(1, byte(c));
    }
    if (c < 0x800) {
        return {byte(0xc0 | (c >> 6)), byte(0x80 | (c & 0x3f))};
    }
    if (c < 0x10000) {
        return {byte(0xe0 | (c >> 12)), byte(0x80 | ((c >> 6) & 0x3f)), byte(0x80 | (c & 0x3f))};
    }
    return {byte(0xf0 | (c >> 18)), byte(0x80 | ((c >> 12) & 0x3f)), byte(0x80 | ((c >> 6) & 0x3f)),
            byte(0x80 | (c & 0x3f))};
}

// The code point of the first character of valid UTF-8 `text`; 0 when it is empty.
int32_t FirstCodepoint(std::string_view text) {
    if (text.empty()) {
        return 0;
    }
    auto lead = static_cast<uint8_t>(text[0]);
    size_t length = lead < 0x80 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
    uint32_t code = length == 1 ? lead : lead & (0x7f >> length);
    for (size_t i = 1; i < length && i < text.size(); i++) {
        code = (code << 6) | (static_cast<uint8_t>(text[i]) & 0x3f);
    }
    return static_cast<int32_t>(code);
}

} // namespace

std::optional<BoundFunction> BindStringFunction(const std::string& name, size_t argument_count) {
    LogicalType varchar = LogicalTypeId::VARCHAR;
    LogicalType bigint = LogicalTypeId::BIGINT;
    auto texts = [&](size_t n) { return std::vector<LogicalType>(n, varchar); };
    if (name == "concat" || name == "concat_ws") {
        // NULLs are skipped (concat_ws: a NULL separator makes the result NULL).
        bool separated = name == "concat_ws";
        if (argument_count < (separated ? 2u : 1u)) {
            return BoundFunction{texts(separated ? 2 : 1), varchar, nullptr};
        }
        return BoundFunction{
            texts(argument_count), varchar,
            RowWise(
                texts(argument_count),
                [separated](const std::vector<Argument>& args, const std::vector<bool>& absent,
                            Vector& result, idx_t row) {
                    if (separated && absent[0]) {
                        return false;
                    }
                    std::string joined;
                    bool first = true;
                    for (size_t i = separated ? 1 : 0; i < args.size(); i++) {
                        if (absent[i]) {
                            continue;
                        }
                        if (separated && !first) {
                            joined += args[0].text;
                        }
                        joined += args[i].text;
                        first = false;
                    }
                    SetText(result, row, joined);
                    return true;
                },
                true)};
    }
    if ((name == "trim" || name == "ltrim" || name == "rtrim") &&
        (argument_count == 1 || argument_count == 2)) {
        bool left = name != "rtrim", right = name != "ltrim";
        return BoundFunction{
            texts(argument_count), varchar,
            RowWise(texts(argument_count),
                    [left, right](const std::vector<Argument>& args, const std::vector<bool>&,
                                  Vector& result, idx_t row) {
                        std::string_view characters = args.size() > 1 ? args[1].text : " ";
                        SetText(result, row, Trim(args[0].text, characters, left, right));
                        return true;
                    })};
    }
    if (name == "replace") {
        return BoundFunction{
            texts(3), varchar,
            RowWise(texts(3), [](const std::vector<Argument>& args, const std::vector<bool>&,
                                 Vector& result, idx_t row) {
                std::string_view text = args[0].text, from = args[1].text;
                if (from.empty()) {
                    SetText(result, row, text);
                    return true;
                }
                std::string replaced;
                size_t at = 0;
                for (size_t found; (found = text.find(from, at)) != std::string_view::npos;
                     at = found + from.size()) {
                    replaced.append(text.substr(at, found - at));
                    replaced.append(args[2].text);
                }
                replaced.append(text.substr(at));
                SetText(result, row, replaced);
                return true;
            })};
    }
    if (name == "reverse") {
        return BoundFunction{
            texts(1), varchar,
            RowWise(texts(1), [](const std::vector<Argument>& args, const std::vector<bool>&,
                                 Vector& result, idx_t row) {
                std::string_view text = args[0].text;
                std::string reversed;
                for (size_t end = text.size(); end > 0;) {
                    size_t begin = end - 1;
                    while (begin > 0 && IsContinuationByte(text[begin])) {
                        begin--;
                    }
                    reversed.append(text.substr(begin, end - begin));
                    end = begin;
                }
                SetText(result, row, reversed);
                return true;
            })};
    }
    if (name == "left" || name == "right" || name == "repeat") {
        std::vector<LogicalType> types = {varchar, bigint};
        std::string which = name;
        return BoundFunction{
            types, varchar,
            RowWise(types, [which](const std::vector<Argument>& args, const std::vector<bool>&,
                                   Vector& result, idx_t row) {
                if (which == "left") {
                    SetText(result, row, LeftCharacters(args[0].text, args[1].number));
                } else if (which == "right") {
                    SetText(result, row, RightCharacters(args[0].text, args[1].number));
                } else {
                    SetRepeated(result, row, args[0].text, args[1].number);
                }
                return true;
            })};
    }
    if (name == "lpad" || name == "rpad") {
        bool left = name == "lpad";
        std::vector<LogicalType> types = {varchar, bigint, varchar};
        return BoundFunction{
            types, varchar,
            RowWise(types, [left](const std::vector<Argument>& args, const std::vector<bool>&,
                                  Vector& result, idx_t row) {
                SetPadded(result, row, args[0].text, args[1].number, args[2].text, left);
                return true;
            })};
    }
    if (name == "starts_with" || name == "prefix" || name == "ends_with" || name == "suffix" ||
        name == "contains") {
        int kind = name == "contains" ? 0 : (name == "starts_with" || name == "prefix" ? 1 : 2);
        return BoundFunction{
            texts(2), LogicalTypeId::BOOLEAN,
            RowWise(texts(2), [kind](const std::vector<Argument>& args, const std::vector<bool>&,
                                     Vector& result, idx_t row) {
                std::string_view text = args[0].text, part = args[1].text;
                bool found = kind == 0   ? text.find(part) != std::string_view::npos
                             : kind == 1 ? text.substr(0, part.size()) == part
                                         : text.size() >= part.size() &&
                                               text.substr(text.size() - part.size()) == part;
                SetBool(result, row, found);
                return true;
            })};
    }
    if (name == "strpos" || name == "instr" || name == "position") {
        return BoundFunction{
            texts(2), bigint,
            RowWise(texts(2), [](const std::vector<Argument>& args, const std::vector<bool>&,
                                 Vector& result, idx_t row) {
                SetNumber(result, row, CharacterPosition(args[0].text, args[1].text));
                return true;
            })};
    }
    if (name == "split_part") {
        std::vector<LogicalType> types = {varchar, varchar, bigint};
        return BoundFunction{
            types, varchar,
            RowWise(types, [](const std::vector<Argument>& args, const std::vector<bool>&,
                              Vector& result, idx_t row) {
                // Parts counted from 1 (from the end when negative); an
                // index beyond them gives the empty string. An empty separator
                // splits into characters, as string_split does.
                std::vector<std::string_view> parts;
                std::string_view text = args[0].text, separator = args[1].text;
                if (separator.empty()) {
                    for (size_t at = 0; at < text.size();) {
                        size_t length = std::min(Utf8SequenceLength(static_cast<uint8_t>(text[at])),
                                                 text.size() - at);
                        parts.push_back(text.substr(at, length));
                        at += length;
                    }
                } else {
                    size_t at = 0;
                    for (size_t found; (found = text.find(separator, at)) != std::string_view::npos;
                         at = found + separator.size()) {
                        parts.push_back(text.substr(at, found - at));
                    }
                    parts.push_back(text.substr(at));
                }
                int64_t index = args[2].number;
                auto size = static_cast<int64_t>(parts.size());
                int64_t position = index > 0 ? index - 1 : size + index;
                SetText(result, row,
                        index != 0 && position >= 0 && position < size
                            ? parts[static_cast<size_t>(position)]
                            : std::string_view());
                return true;
            })};
    }
    if (name == "lower" || name == "lcase" || name == "upper" || name == "ucase") {
        bool upper = name == "upper" || name == "ucase";
        ScalarFunctionBody body = [upper](const std::vector<const Vector*>& args, idx_t count,
                                          Vector& result) {
            std::string buffer;
            UnaryLoop<string_t, string_t>(
                *args[0], count, result, [&](const string_t& text, string_t& out) {
                    if (IsAscii(text.view())) {
                        buffer.assign(text.data(), text.size());
                        for (char& c : buffer) {
                            unsigned char u = static_cast<unsigned char>(c);
                            c = static_cast<char>(upper ? std::toupper(u) : std::tolower(u));
                        }
                        out = result.AddString(buffer);
                    } else {
                        out = result.AddString(Utf8CaseMapped(text.view(), upper));
                    }
                    return true;
                });
        };
        return BoundFunction{{varchar}, varchar, body};
    }
    // length counts characters, strlen bytes.
    bool characters =
        name == "length" || name == "len" || name == "char_length" || name == "character_length";
    if (characters || name == "strlen") {
        ScalarFunctionBody body = [characters](const std::vector<const Vector*>& args, idx_t count,
                                               Vector& result) {
            UnaryLoop<string_t, int64_t>(
                *args[0], count, result, [characters](const string_t& text, int64_t& out) {
                    out = characters ? CharacterCount(text.view()) : text.size();
                    return true;
                });
        };
        return BoundFunction{{varchar}, LogicalTypeId::BIGINT, body};
    }
    if (name == "chr") {
        return BoundFunction{
            {LogicalTypeId::INTEGER},
            varchar,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                UnaryLoop<int32_t, string_t>(*args[0], count, result,
                                             [&](int32_t code, string_t& out) {
                                                 std::string text = CodepointToUtf8(code);
                                                 out = result.AddString(text);
                                                 return true;
                                             });
            }};
    }
    if (name == "ascii") {
        // The first character's code point (0 for the empty string).
        return BoundFunction{
            {varchar},
            LogicalTypeId::INTEGER,
            [](const std::vector<const Vector*>& args, idx_t count, Vector& result) {
                UnaryLoop<string_t, int32_t>(*args[0], count, result,
                                             [](const string_t& text, int32_t& out) {
                                                 out = FirstCodepoint(text.view());
                                                 return true;
                                             });
            }};
    }
    if (name == "md5" || name == "sha1" || name == "sha256") {
        const EVP_MD* digest = name == "md5"    ? EVP_md5()
                               : name == "sha1" ? EVP_sha1()
                                                : EVP_sha256();
        ScalarFunctionBody body = [digest](const std::vector<const Vector*>& args, idx_t count,
                                           Vector& result) {
            UnaryLoop<string_t, string_t>(
                *args[0], count, result, [&](const string_t& text, string_t& out) {
                    out = result.AddString(HexDigest(digest, text.view()));
                    return true;
                });
        };
        return BoundFunction{{varchar}, varchar, body};
    }
    return std::nullopt;
}

} // namespace sluice
