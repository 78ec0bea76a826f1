#include "formats/csv/csv_dialect.hpp"

namespace sluice::csv {

std::string CsvDialect::Show(char c) {
    if (c == 0) {
        return "(empty)";
    }
    if (c == '\t') {
        return "\\t";
    }
    return std::string(1, c);
}

std::string CsvDialect::ShowDelimiter() const {
    return delimiter == "\t" ? "\\t" : delimiter;
}

std::string CsvReadOptions::SniffKey() const {
    std::string key;
    auto add = [&](const std::string& part) {
        key += std::to_string(part.size()) + ":" + part; // length-prefixed: no ambiguity
    };
    auto add_optional_char = [&](const std::optional<char>& c) {
        add(c ? std::string(1, *c) + "!" : "");
    };
    add(compression + std::to_string(static_cast<int>(encoding)));
    add(delimiter ? "!" + *delimiter : "");
    add_optional_char(quote);
    add_optional_char(escape);
    add_optional_char(comment);
    add_optional_char(thousands);
    add(header ? (*header ? "1" : "0") : "");
    add(skip ? std::to_string(*skip) : "");
    for (const std::string& null_string : null_strings) {
        add("n" + null_string);
    }
    add(std::to_string(sample_size) + (all_varchar ? "v" : "") + std::string(1, decimal_separator) +
        std::to_string(max_line_size));
    for (const auto& [name, type] : columns) {
        add("c" + name);
        add(type.ToString());
    }
    for (const std::string& name : names) {
        add("m" + name);
    }
    for (const auto& [name, type] : types_by_name) {
        add("t" + name);
        add(type.ToString());
    }
    for (const LogicalType& type : types_by_position) {
        add("p" + type.ToString());
    }
    add(date_format ? "!" + *date_format : "");
    add(timestamp_format ? "!" + *timestamp_format : "");
    for (const LogicalType& type : auto_type_candidates) {
        add("a" + type.ToString());
    }
    return key;
}

} // namespace sluice::csv
