#pragma once

#include "common/vector.hpp"
#include "formats/csv/csv_date_format.hpp"
#include "formats/csv/csv_dialect.hpp"

#include <optional>

#include <string_view>

namespace sluice::csv {

// Turns CSV field text into values of one column's type, written straight into a vector. The
// common types (BIGINT, DOUBLE, DATE, TIMESTAMP, VARCHAR, ...) parse without building a Value;
// the others go through the SQL cast from VARCHAR.
class CsvValueParser {
public:
    // `format`: how DATE or TIMESTAMP text is written (unset: ISO 8601, 2020-12-31 23:59:59).
    CsvValueParser(LogicalType type, const CsvReadOptions& options,
                   std::optional<CsvDateFormat> format = std::nullopt);

    const LogicalType& type() const { return type_; }
    // The format's specification, or "" for ISO.
    std::string format() const { return format_ ? format_->spec() : ""; }
    // Writes `text` as row `row` of `out`; false when it is not a valid value of the type.
    // VARCHAR text is referenced, not copied: the caller keeps its bytes alive.
    bool Parse(std::string_view text, Vector& out, idx_t row) const;
    // Whether `text` is a value of the type, as the sniffer judges it (stricter than a cast:
    // "1" is no BOOLEAN, "2020-01-01" no TIMESTAMP).
    bool Accepts(std::string_view text) const;

private:
    // Whether `text` is a number holding the thousands separator (dropped before parsing).
    bool HasThousands(std::string_view text) const {
        return thousands_ && numeric_ && text.find(thousands_) != std::string_view::npos;
    }
    bool ParseValue(std::string_view text, Vector& out, idx_t row) const;
    bool AcceptsValue(std::string_view text) const;

    enum class Kind : uint8_t {
        Varchar,
        Boolean,
        Integer,
        Double,
        Float,
        Date,
        Time,
        Timestamp,
        Cast
    };

    LogicalType type_;
    std::optional<CsvDateFormat> format_;
    Kind kind_;
    char decimal_separator_;
    char thousands_; // 0: none
    bool numeric_;   // a number type: the thousands separator is dropped before parsing
};

} // namespace sluice::csv
