#pragma once

#include "formats/csv/csv_dialect.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sluice::csv {

// One field of a row: bytes [offset, offset + length) of the tokenizer's input, quotes removed.
// `escaped` fields hold doubled quotes or escape characters still to be removed (Unescape).
struct CsvField {
    uint32_t offset;
    uint32_t length;
    bool quoted;
    bool escaped;
};

// Splits bytes into rows of fields by a dialect. Rows end at \n, \r\n or \r outside quotes.
class CsvTokenizer {
public:
    enum class Result : uint8_t {
        Row,      // `fields` hold the next row
        Empty,    // an empty or comment line was passed (rows may start at every line start)
        NeedMore, // the input ends inside a row: more bytes are needed (unless at the file's end)
        End,      // no bytes left
        Error,    // a malformed row: error() says what; position() is past it
    };

    explicit CsvTokenizer(const CsvDialect& dialect);

    // The bytes to tokenize from `position`; `final` when they reach the end of the file.
    void Reset(const char* data, size_t size, size_t position, bool final);
    // The next row, or the empty or comment line passed on the way to it.
    Result Next(std::vector<CsvField>& fields);
    // Where the next row begins (after Row or Error), or the row that needs more bytes begins.
    size_t position() const { return position_; }
    // Where the last row returned began.
    size_t row_start() const { return row_start_; }
    // Lines consumed so far, including empty, comment and quoted line breaks.
    uint64_t lines() const { return lines_; }
    const std::string& error() const { return error_; }
    // Whether the last Empty was a comment line (an empty line is a NULL row of a one-column
    // file).
    bool passed_comment() const { return passed_comment_; }

    std::string_view Text(const CsvField& field) const {
        return {data_ + field.offset, field.length};
    }
    // The field's text with escapes removed, in `scratch` when it had any.
    std::string_view Unescape(const CsvField& field, std::string& scratch) const;
    // Whether a quoted field held a line break (rows then cannot be found from any offset).
    bool saw_quoted_line_break() const { return saw_quoted_line_break_; }

private:
    bool AtDelimiter(size_t p) const;

    CsvDialect dialect_;
    const char* data_ = nullptr;
    size_t size_ = 0;
    size_t position_ = 0;
    size_t row_start_ = 0;
    bool final_ = false;
    uint64_t lines_ = 0;
    bool saw_quoted_line_break_ = false;
    bool passed_comment_ = false;
    std::string error_;
};

// The position just after the first line break at or after `from` (outside any quote: callers
// use it where no quoted line break is expected), or `size` when there is none.
size_t NextLineStart(const char* data, size_t size, size_t from);

} // namespace sluice::csv
