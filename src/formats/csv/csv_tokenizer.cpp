#include "formats/csv/csv_tokenizer.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace sluice::csv {

namespace {

bool IsLineBreak(char c) {
    return c == '\n' || c == '\r';
}

} // namespace

size_t NextLineStart(const char* data, size_t size, size_t from) {
    for (size_t p = from; p < size; p++) {
        if (data[p] == '\n') {
            return p + 1;
        }
        if (data[p] == '\r') {
            return p + 1 < size && data[p + 1] == '\n' ? p + 2 : p + 1;
        }
    }
    return size;
}

CsvTokenizer::CsvTokenizer(const CsvDialect& dialect) : dialect_(dialect) {
}

void CsvTokenizer::Reset(const char* data, size_t size, size_t position, bool final) {
    data_ = data;
    size_ = size;
    position_ = position;
    final_ = final;
}

namespace {

// The first of `delimiter`, \n or \r at or after `p`, or `size`. Fields are mostly short, so the
// cost is the branch that ends a byte loop; comparing 16 bytes at once replaces it with one
// mask per field.
size_t FindFieldEnd(const char* data, size_t size, size_t p, char delimiter) {
#if defined(__SSE2__)
    const __m128i delimiters = _mm_set1_epi8(delimiter);
    const __m128i line_feeds = _mm_set1_epi8('\n');
    const __m128i returns = _mm_set1_epi8('\r');
    while (p + 16 <= size) {
        __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + p));
        __m128i hits = _mm_or_si128(
            _mm_cmpeq_epi8(bytes, delimiters),
            _mm_or_si128(_mm_cmpeq_epi8(bytes, line_feeds), _mm_cmpeq_epi8(bytes, returns)));
        int mask = _mm_movemask_epi8(hits);
        if (mask != 0) {
            return p + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
        }
        p += 16;
    }
#endif
    while (p < size) {
        char c = data[p];
        if (c == delimiter || c == '\n' || c == '\r') {
            return p;
        }
        p++;
    }
    return size;
}

} // namespace

bool CsvTokenizer::AtDelimiter(size_t p) const {
    const std::string& delimiter = dialect_.delimiter;
    if (delimiter.size() == 1) {
        return data_[p] == delimiter[0];
    }
    return p + delimiter.size() <= size_ &&
           std::memcmp(data_ + p, delimiter.data(), delimiter.size()) == 0;
}

CsvTokenizer::Result CsvTokenizer::Next(std::vector<CsvField>& fields) {
    const char quote = dialect_.quote;
    const char escape = dialect_.escape;
    const char first_delimiter = dialect_.delimiter[0];
    const size_t delimiter_length = dialect_.delimiter.size();
    while (true) {
        size_t p = position_;
        row_start_ = p;
        if (p >= size_) {
            return final_ ? Result::End : Result::NeedMore;
        }
        char c = data_[p];
        if (IsLineBreak(c)) { // an empty line
            if (c == '\r' && p + 1 >= size_ && !final_) {
                return Result::NeedMore; // a \n may follow
            }
            position_ = NextLineStart(data_, size_, p);
            lines_++;
            passed_comment_ = false;
            return Result::Empty;
        }
        if (dialect_.comment && c == dialect_.comment) {
            size_t next = NextLineStart(data_, size_, p);
            if (next == size_ && !final_) {
                return Result::NeedMore;
            }
            position_ = next;
            lines_++;
            passed_comment_ = true;
            return Result::Empty;
        }
        fields.clear();
        uint64_t quoted_breaks = 0;
        while (true) {
            if (quote && p < size_ && data_[p] == quote) {
                size_t start = ++p;
                bool escaped = false;
                while (true) {
                    if (p >= size_) {
                        if (!final_) {
                            return Result::NeedMore;
                        }
                        error_ = "unterminated quoted field (a quote opened and never closed)";
                        position_ = size_;
                        lines_ += 1 + quoted_breaks;
                        return Result::Error;
                    }
                    c = data_[p];
                    if (c == quote) {
                        if (escape == quote) {
                            if (p + 1 >= size_ && !final_) {
                                return Result::NeedMore;
                            }
                            if (p + 1 < size_ && data_[p + 1] == quote) {
                                escaped = true;
                                p += 2;
                                continue;
                            }
                        }
                        break;
                    }
                    if (escape && c == escape) {
                        if (p + 1 >= size_ && !final_) {
                            return Result::NeedMore;
                        }
                        escaped = true;
                        p += 2;
                        continue;
                    }
                    if (c == '\n' || (c == '\r' && (p + 1 >= size_ || data_[p + 1] != '\n'))) {
                        quoted_breaks++;
                        saw_quoted_line_break_ = true;
                    }
                    p++;
                }
                fields.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(p - start),
                                  true, escaped});
                p++; // the closing quote
                if (p >= size_) {
                    if (!final_) {
                        return Result::NeedMore;
                    }
                    break; // the file ends after the quote
                }
                if (AtDelimiter(p)) {
                    p += delimiter_length;
                    continue;
                }
                if (IsLineBreak(data_[p])) {
                    break;
                }
                error_ = "a quoted value is followed by \"" + std::string(1, data_[p]) +
                         "\" instead of a delimiter or the end of the line";
                position_ = NextLineStart(data_, size_, p);
                lines_ += 1 + quoted_breaks;
                return Result::Error;
            }
            size_t start = p;
            if (delimiter_length == 1) {
                p = FindFieldEnd(data_, size_, p, first_delimiter);
            } else {
                while (p < size_ && !IsLineBreak(data_[p]) && !AtDelimiter(p)) {
                    p++;
                }
            }
            if (p >= size_ && !final_) {
                return Result::NeedMore;
            }
            fields.push_back(
                {static_cast<uint32_t>(start), static_cast<uint32_t>(p - start), false, false});
            if (p < size_ && !IsLineBreak(data_[p])) {
                p += delimiter_length; // a delimiter: another field follows
                continue;
            }
            break;
        }
        // The row ends at a line break or at the end of the file.
        if (p < size_) {
            if (data_[p] == '\r' && p + 1 >= size_ && !final_) {
                return Result::NeedMore;
            }
            p = NextLineStart(data_, size_, p);
        }
        position_ = p;
        lines_ += 1 + quoted_breaks;
        return Result::Row;
    }
}

std::string_view CsvTokenizer::Unescape(const CsvField& field, std::string& scratch) const {
    std::string_view text = Text(field);
    if (!field.escaped) {
        return text;
    }
    scratch.clear();
    for (size_t i = 0; i < text.size(); i++) {
        char c = text[i];
        if ((c == dialect_.escape || c == dialect_.quote) && i + 1 < text.size()) {
            scratch.push_back(text[++i]);
        } else {
            scratch.push_back(c);
        }
    }
    return scratch;
}

} // namespace sluice::csv
