#include "formats/csv/csv_sniffer.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "common/utf8.hpp"
#include "formats/csv/csv_tokenizer.hpp"
#include "formats/csv/csv_value_parser.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace sluice::csv {

namespace {

// Rows the dialect detection looks at: enough to see a file's shape, cheap for 12 candidates.
constexpr size_t kDialectRows = 1000;

struct Sampled {
    std::vector<std::vector<std::string>> rows;
    std::vector<uint64_t> lines_before; // per row: the lines passed before it
    bool error = false;
    bool quoted_line_breaks = false;
    size_t bytes = 0;
};

bool IsNullText(std::string_view text, const CsvReadOptions& options) {
    return std::find(options.null_strings.begin(), options.null_strings.end(), text) !=
           options.null_strings.end();
}

// With a `path`, the rows are the ones read for names and types: text is checked to be UTF-8 or
// converted from Latin-1.
Sampled Tokenize(std::string_view sample, bool whole_file, const CsvDialect& dialect,
                 size_t max_rows, const std::string& path = "", bool keep_empty = false,
                 TextEncoding encoding = TextEncoding::Utf8) {
    Sampled sampled;
    size_t start = 0;
    for (int64_t i = 0; i < dialect.skip; i++) {
        start = NextLineStart(sample.data(), sample.size(), start);
    }
    CsvTokenizer tokenizer(dialect);
    tokenizer.Reset(sample.data(), sample.size(), start, whole_file);
    std::vector<CsvField> fields;
    std::string scratch;
    while (sampled.rows.size() < max_rows) {
        uint64_t lines_before = tokenizer.lines();
        CsvTokenizer::Result result = tokenizer.Next(fields);
        if (result == CsvTokenizer::Result::Error) {
            sampled.error = true;
            break;
        }
        if (result == CsvTokenizer::Result::Empty) {
            if (keep_empty && !tokenizer.passed_comment()) {
                sampled.rows.push_back({""}); // a NULL row of a one-column file
                sampled.lines_before.push_back(lines_before);
            }
            continue;
        }
        if (result != CsvTokenizer::Result::Row) {
            break; // the end, or a row cut off by the end of the sample
        }
        std::vector<std::string> row;
        for (const CsvField& field : fields) {
            row.emplace_back(tokenizer.Unescape(field, scratch));
            if (encoding == TextEncoding::Latin1) {
                std::string converted;
                row.back() = std::string(Latin1ToUtf8(row.back(), converted));
            } else if (!path.empty() && !IsValidUtf8(row.back())) {
                throw Exception(ErrorKind::InvalidInput,
                                "CSV error in '" + path + "' on line " +
                                    std::to_string(tokenizer.lines() + dialect.skip) +
                                    ": invalid UTF-8 (encoding = 'latin-1' or 'utf-16' reads other "
                                    "encodings)");
            }
        }
        sampled.rows.push_back(std::move(row));
        sampled.lines_before.push_back(lines_before);
        sampled.bytes = tokenizer.position() - start;
    }
    sampled.quoted_line_breaks = tokenizer.saw_quoted_line_break();
    return sampled;
}

// The most common column count and how many rows have it.
std::pair<size_t, size_t> ModalWidth(const Sampled& sampled) {
    std::map<size_t, size_t> counts;
    for (const auto& row : sampled.rows) {
        counts[row.size()]++;
    }
    std::pair<size_t, size_t> best{0, 0};
    for (const auto& [width, rows] : counts) {
        if (rows > best.second || (rows == best.second && width > best.first)) {
            best = {width, rows};
        }
    }
    return best;
}

// Rows of notes above the table: the leading rows without the modal column count, when there
// are no more of them than rows of the table and the options let the sniffer skip lines.
size_t LeadingNotes(const Sampled& sampled, size_t width, const CsvReadOptions& options) {
    if (options.skip || options.null_padding) {
        return 0;
    }
    size_t first_row = 0;
    while (first_row < sampled.rows.size() && sampled.rows[first_row].size() != width) {
        first_row++;
    }
    bool few = first_row < sampled.rows.size() && first_row <= sampled.rows.size() - first_row;
    return few ? first_row : 0;
}

bool Contains(std::string_view sample, char c) {
    return c != 0 && sample.find(c) != std::string_view::npos;
}

CsvDialect DetectDialect(std::string_view sample, bool whole_file, const CsvReadOptions& options) {
    std::vector<std::string> delimiters = options.delimiter
                                              ? std::vector<std::string>{*options.delimiter}
                                              : std::vector<std::string>{",", "|", ";", "\t"};
    std::vector<char> quotes;
    if (options.quote) {
        quotes = {*options.quote};
    } else {
        // A quote character that never appears is no quote (DuckDB shows "(empty)").
        for (char candidate : {'"', '\''}) {
            if (Contains(sample, candidate)) {
                quotes.push_back(candidate);
            }
        }
        quotes.push_back(0);
    }
    CsvDialect best;
    bool found = false;
    std::tuple<bool, bool, double, bool, int64_t, size_t> best_score{false, false, 0, false, 0, 0};
    for (char quote : quotes) {
        std::vector<char> escapes;
        if (options.escape) {
            escapes = {*options.escape};
        } else if (quote == 0) {
            escapes = {0};
        } else {
            escapes = {quote};
            if (sample.find(std::string("\\") + quote) != std::string_view::npos) {
                escapes.insert(escapes.begin(), '\\');
            }
        }
        for (char escape : escapes) {
            for (const std::string& delimiter : delimiters) {
                CsvDialect dialect;
                dialect.delimiter = delimiter;
                dialect.quote = quote;
                dialect.escape = escape;
                dialect.comment = options.comment.value_or(0);
                dialect.skip = options.skip.value_or(0);
                Sampled sampled = Tokenize(sample, whole_file, dialect, kDialectRows);
                auto [width, rows] = ModalWidth(sampled);
                // The column count given (columns = {...}), then rows that agree on the
                // column count, as a share (a quote that joins lines makes fewer rows; notes
                // above the table do not count), then several columns rather than one, then
                // fewer rows skipped as notes (a reading that splits quoted fields needs more),
                // then more columns.
                size_t notes = options.columns.empty() ? LeadingNotes(sampled, width, options) : 0;
                double consistent = sampled.rows.size() > notes
                                        ? static_cast<double>(rows) / (sampled.rows.size() - notes)
                                        : 0;
                bool expected_width = !options.columns.empty() && width == options.columns.size();
                std::tuple<bool, bool, double, bool, int64_t, size_t> score{
                    !sampled.error,
                    expected_width,
                    consistent,
                    width > 1,
                    -static_cast<int64_t>(notes),
                    width};
                if (!found || score > best_score) {
                    best = dialect;
                    best_score = score;
                    found = true;
                }
            }
        }
    }
    return best;
}

CsvDateFormat UserFormat(const std::string& spec) {
    std::string error;
    std::optional<CsvDateFormat> format = CsvDateFormat::Parse(spec, error);
    if (!format) {
        throw Exception(ErrorKind::Binder, "read_csv: " + error);
    }
    return *format;
}

// The type candidates in precedence order, VARCHAR last. DATE and TIMESTAMP come as ISO 8601
// and then DuckDB's other formats, unless dateformat / timestampformat name the one to use.
// With the columns given, DuckDB still looks for a header line: the first row is one when a value
// in it is not of its column's type, or when every column is VARCHAR (nothing tells them apart).
bool FirstRowIsHeaderOfGivenColumns(const Sampled& sampled, const CsvReadOptions& options) {
    if (sampled.rows.empty() || sampled.rows[0].size() != options.columns.size()) {
        return false;
    }
    bool all_varchar = true;
    bool misfit = false;
    const std::vector<std::string>& first = sampled.rows[0];
    for (size_t c = 0; c < first.size(); c++) {
        const LogicalType& type = options.columns[c].second;
        if (type.id() == LogicalTypeId::VARCHAR) {
            continue;
        }
        all_varchar = false;
        std::optional<std::string> spec = type.id() == LogicalTypeId::DATE ? options.date_format
                                          : type.id() == LogicalTypeId::TIMESTAMP
                                              ? options.timestamp_format
                                              : std::nullopt;
        CsvValueParser parser(type, options,
                              spec ? std::optional(UserFormat(*spec)) : std::nullopt);
        Vector scratch(type, 1);
        misfit = misfit || (!IsNullText(first[c], options) && !parser.Parse(first[c], scratch, 0));
    }
    return all_varchar || misfit;
}

std::vector<CsvValueParser> CandidateParsers(const CsvReadOptions& options) {
    std::vector<LogicalType> types = options.auto_type_candidates;
    if (types.empty()) {
        types = {LogicalTypeId::BOOLEAN, LogicalTypeId::BIGINT, LogicalTypeId::DOUBLE,
                 LogicalTypeId::TIME,    LogicalTypeId::DATE,   LogicalTypeId::TIMESTAMP};
    }
    types.erase(std::remove(types.begin(), types.end(), LogicalType(LogicalTypeId::VARCHAR)),
                types.end());
    types.push_back(LogicalTypeId::VARCHAR);
    std::vector<CsvValueParser> parsers;
    auto add_formats = [&](const LogicalType& type, const std::optional<std::string>& given,
                           const std::vector<CsvDateFormat>& others) {
        if (given) {
            parsers.emplace_back(type, options, UserFormat(*given));
            return;
        }
        parsers.emplace_back(type, options);
        for (const CsvDateFormat& format : others) {
            parsers.emplace_back(type, options, format);
        }
    };
    for (const LogicalType& type : types) {
        if (type.id() == LogicalTypeId::DATE) {
            add_formats(type, options.date_format, CsvDateFormat::DateCandidates());
        } else if (type.id() == LogicalTypeId::TIMESTAMP) {
            add_formats(type, options.timestamp_format, CsvDateFormat::TimestampCandidates());
        } else {
            parsers.emplace_back(type, options);
        }
    }
    return parsers;
}

// Per column, the index of the first candidate that every value of rows [first, end) is
// (-1: only NULLs seen). A candidate that rejects one value is out for good: a column of
// dates and timestamps is text, as in DuckDB, not the timestamps the dates would cast to.
std::vector<int> DetectTypes(const std::vector<std::vector<std::string>>& rows, size_t first,
                             size_t width, const std::vector<CsvValueParser>& parsers,
                             const CsvReadOptions& options) {
    std::vector<std::vector<bool>> viable(width, std::vector<bool>(parsers.size(), true));
    std::vector<bool> seen(width, false);
    for (size_t r = first; r < rows.size(); r++) {
        if (rows[r].size() != width) {
            continue;
        }
        for (size_t c = 0; c < width; c++) {
            const std::string& text = rows[r][c];
            if (IsNullText(text, options)) {
                continue;
            }
            seen[c] = true;
            for (size_t k = 0; k + 1 < parsers.size(); k++) {
                if (viable[c][k] && !parsers[k].Accepts(text)) {
                    viable[c][k] = false;
                }
            }
        }
    }
    std::vector<int> chosen(width, -1);
    for (size_t c = 0; c < width; c++) {
        if (seen[c]) {
            size_t k = 0;
            while (!viable[c][k]) {
                k++;
            }
            chosen[c] = static_cast<int>(k);
        }
    }
    return chosen;
}

} // namespace

std::string DefaultColumnName(size_t index, size_t count) {
    size_t digits = std::to_string(count > 0 ? count - 1 : 0).size();
    std::string number = std::to_string(index);
    return "column" + std::string(digits > number.size() ? digits - number.size() : 0, '0') +
           number;
}

CsvSniffResult SniffCsv(std::string_view sample, bool whole_file, const CsvReadOptions& options,
                        const std::string& path) {
    CsvSniffResult result;
    result.dialect = DetectDialect(sample, whole_file, options);
    size_t max_rows =
        options.sample_size < 0 ? SIZE_MAX : static_cast<size_t>(options.sample_size) + 1;
    Sampled sampled =
        Tokenize(sample, whole_file, result.dialect, max_rows, path, false, options.encoding);
    result.quoted_line_breaks = sampled.quoted_line_breaks;
    result.bytes_per_row =
        sampled.rows.empty() ? 0 : static_cast<double>(sampled.bytes) / sampled.rows.size();
    size_t width = ModalWidth(sampled).first;
    // Lines of notes above the table (fewer or more columns than the rows below) are skipped,
    // as DuckDB's sniffer does, unless skip or null_padding says otherwise.
    if (size_t notes = options.columns.empty() ? LeadingNotes(sampled, width, options) : 0) {
        {
            result.dialect.skip += static_cast<int64_t>(sampled.lines_before[notes]);
            sampled = Tokenize(sample, whole_file, result.dialect, max_rows, path, false,
                               options.encoding);
        }
    }
    if (width == 1) {
        sampled =
            Tokenize(sample, whole_file, result.dialect, max_rows, path, true, options.encoding);
    }
    if (!options.columns.empty()) {
        result.dialect.header =
            options.header ? *options.header : FirstRowIsHeaderOfGivenColumns(sampled, options);
        for (const auto& [name, type] : options.columns) {
            result.names.push_back(name);
            result.types.push_back(type);
            result.formats.push_back("");
        }
        return result;
    }
    if (sampled.rows.empty() || width == 0) {
        throw Exception(ErrorKind::InvalidInput, "CSV file '" + path +
                                                     "' has no rows to detect its columns from; "
                                                     "columns = {'name': 'TYPE', ...} gives them");
    }
    std::vector<CsvValueParser> parsers = CandidateParsers(options);
    std::vector<int> below = DetectTypes(sampled.rows, 1, width, parsers, options);
    const std::vector<std::string>& first = sampled.rows[0];
    bool header;
    if (options.header) {
        header = *options.header;
    } else {
        size_t varchar = parsers.size() - 1;
        bool all_text = std::all_of(below.begin(), below.end(), [&](int k) {
            return k < 0 || static_cast<size_t>(k) == varchar;
        });
        // A first-row value that the type below rejects, or a value over a column that is
        // empty below it (as DuckDB: a column without values gives no type it could fit).
        bool rows_below = sampled.rows.size() > 1;
        bool misfit = false;
        if (first.size() == width) {
            for (size_t c = 0; c < width; c++) {
                if (IsNullText(first[c], options)) {
                    continue;
                }
                if (below[c] < 0 ? rows_below
                                 : static_cast<size_t>(below[c]) != varchar &&
                                       !parsers[below[c]].Accepts(first[c])) {
                    misfit = true;
                }
            }
        }
        // Text over text is a header when the first row is all text too.
        bool first_all_text = std::all_of(first.begin(), first.end(), [&](const std::string& v) {
            return std::none_of(parsers.begin(), parsers.end() - 1,
                                [&](const CsvValueParser& parser) { return parser.Accepts(v); });
        });
        // An empty first row over data (",,") is a header without names, as in DuckDB.
        bool first_empty = width > 1 && rows_below &&
                           std::all_of(first.begin(), first.end(), [&](const std::string& v) {
                               return IsNullText(v, options);
                           });
        header = first.size() == width && ((all_text && first_all_text) || misfit || first_empty);
    }
    result.dialect.header = header;
    std::vector<int> chosen =
        header ? below : DetectTypes(sampled.rows, 0, width, parsers, options);
    for (size_t c = 0; c < width; c++) {
        bool text = options.all_varchar || chosen[c] < 0;
        result.types.push_back(text ? LogicalType(LogicalTypeId::VARCHAR)
                                    : parsers[chosen[c]].type());
        result.formats.push_back(text ? "" : parsers[chosen[c]].format());
    }
    std::set<std::string> used;
    for (size_t c = 0; c < width; c++) {
        std::string trimmed = c < first.size() ? std::string(Trim(first[c])) : "";
        std::string name = header && !trimmed.empty() ? trimmed : DefaultColumnName(c, width);
        if (c < options.names.size()) {
            name = options.names[c];
        }
        std::string unique = name;
        for (size_t n = 1; used.count(unique); n++) {
            unique = name + "_" + std::to_string(n);
        }
        used.insert(unique);
        result.names.push_back(unique);
    }
    for (const auto& [name, type] : options.types_by_name) {
        auto found = std::find(result.names.begin(), result.names.end(), name);
        if (found == result.names.end()) {
            throw Exception(ErrorKind::Binder,
                            "types: column \"" + name + "\" is not in '" + path + "'");
        }
        result.types[found - result.names.begin()] = type;
        result.formats[found - result.names.begin()] = "";
    }
    for (size_t c = 0; c < options.types_by_position.size() && c < width; c++) {
        result.types[c] = options.types_by_position[c];
        result.formats[c] = "";
    }
    return result;
}

} // namespace sluice::csv
