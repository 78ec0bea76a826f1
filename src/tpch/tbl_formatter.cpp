#include "tpch/tbl_formatter.hpp"

#include "common/date_time.hpp"

#include <algorithm>
#include <charconv>

namespace sluice::tpch {

namespace {

void AppendInteger(int64_t value, std::string& out) {
    char digits[24];
    auto result = std::to_chars(digits, digits + sizeof(digits), value);
    out.append(digits, result.ptr);
}

// Cents as dbgen's PR_MONEY prints them: sign, whole part, two decimals.
void AppendMoney(int64_t cents, std::string& out) {
    if (cents < 0) {
        out += '-';
        cents = -cents;
    }
    AppendInteger(cents / 100, out);
    out += '.';
    out += static_cast<char>('0' + cents % 100 / 10);
    out += static_cast<char>('0' + cents % 10);
}

void AppendDigits(int64_t value, int width, std::string& out) {
    char digits[8];
    for (int i = width - 1; i >= 0; i--) {
        digits[i] = static_cast<char>('0' + value % 10);
        value /= 10;
    }
    out.append(digits, static_cast<size_t>(width));
}

void AppendDate(int32_t days, std::string& out) {
    int64_t year;
    int32_t month, day;
    date::ToCivil(days, year, month, day);
    AppendDigits(year, 4, out);
    out += '-';
    AppendDigits(month, 2, out);
    out += '-';
    AppendDigits(day, 2, out);
}

} // namespace

TblFormatter::TblFormatter(Table table) {
    const TableSchema& schema = SchemaOf(table);
    for (size_t column = 0; column < schema.types.size(); column++) {
        switch (schema.types[column].id()) {
        case LogicalTypeId::INTEGER:
            fields_.push_back(Field::Integer);
            break;
        case LogicalTypeId::BIGINT:
            fields_.push_back(Field::BigInt);
            break;
        case LogicalTypeId::DECIMAL:
            // dbgen keeps quantities as whole numbers and prints them so.
            fields_.push_back(schema.names[column] == "l_quantity" ? Field::WholeMoney
                                                                   : Field::Money);
            break;
        case LogicalTypeId::DATE:
            fields_.push_back(Field::Date);
            break;
        default:
            fields_.push_back(Field::Text);
            break;
        }
    }
}

void TblFormatter::AppendRows(const DataChunk& chunk, std::string& out) const {
    // Room for the chunk at once, growing geometrically (a batch is many chunks).
    size_t needed = out.size() + chunk.size() * 24 * fields_.size();
    if (out.capacity() < needed) {
        out.reserve(std::max(needed, out.capacity() * 2));
    }
    for (idx_t row = 0; row < chunk.size(); row++) {
        for (size_t column = 0; column < fields_.size(); column++) {
            const Vector& vector = chunk.column(column);
            switch (fields_[column]) {
            case Field::Integer:
                AppendInteger(vector.data<int32_t>()[row], out);
                break;
            case Field::BigInt:
                AppendInteger(vector.data<int64_t>()[row], out);
                break;
            case Field::Money:
                AppendMoney(vector.data<int64_t>()[row], out);
                break;
            case Field::WholeMoney:
                AppendInteger(vector.data<int64_t>()[row] / 100, out);
                break;
            case Field::Date:
                AppendDate(vector.data<int32_t>()[row], out);
                break;
            case Field::Text: {
                const string_t& text = vector.data<string_t>()[row];
                out.append(text.data(), text.size());
                break;
            }
            }
            out += '|';
        }
        out += '\n';
    }
}

} // namespace sluice::tpch
