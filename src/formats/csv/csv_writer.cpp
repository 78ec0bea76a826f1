#include "formats/csv/csv_writer.hpp"

#include "common/cast.hpp"
#include "common/date_time.hpp"
#include "common/exception.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>

namespace sluice::csv {

CsvFormatter::CsvFormatter(CsvWriteOptions options) : options_(std::move(options)) {
    if (options_.delimiter == '\n' || options_.delimiter == '\r' ||
        options_.delimiter == options_.quote || options_.delimiter == options_.escape) {
        throw Exception(ErrorKind::InvalidInput,
                        "CSV DELIMITER must differ from the quote, the escape and line breaks");
    }
}

void CsvFormatter::AppendField(std::string_view value, std::string& out) const {
    bool quote = value == options_.null_string;
    for (size_t i = 0; i < value.size() && !quote; i++) {
        char c = value[i];
        quote = c == options_.delimiter || c == options_.quote || c == '\n' || c == '\r';
    }
    if (!quote) {
        out.append(value.data(), value.size());
        return;
    }
    out += options_.quote;
    for (char c : value) {
        if (c == options_.quote || c == options_.escape) {
            out += options_.escape;
        }
        out += c;
    }
    out += options_.quote;
}

void CsvFormatter::AppendHeader(const std::vector<std::string>& names, std::string& out) const {
    for (size_t i = 0; i < names.size(); i++) {
        if (i > 0) {
            out += options_.delimiter;
        }
        AppendField(names[i], out);
    }
    out += '\n';
}

namespace {

// How a column is written: the common types of generated and scanned data directly (no text
// vector in between), everything else through its VARCHAR cast.
enum class FieldWriter : uint8_t { Text, Integer, Decimal, Date, Cast };

FieldWriter WriterFor(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::VARCHAR:
        return FieldWriter::Text;
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
        return FieldWriter::Integer;
    case LogicalTypeId::DECIMAL:
        return type.physical() == PhysicalType::INT128 ? FieldWriter::Cast : FieldWriter::Decimal;
    case LogicalTypeId::DATE:
        return FieldWriter::Date;
    default:
        return FieldWriter::Cast;
    }
}

void AppendInteger(int64_t value, std::string& out) {
    char buffer[24];
    auto end = std::to_chars(buffer, buffer + sizeof(buffer), value).ptr;
    out.append(buffer, end);
}

// DECIMAL(width, scale) held in an integer: DuckDB writes every fractional digit ("1.50").
void AppendDecimal(int64_t value, int scale, std::string& out) {
    if (scale == 0) {
        AppendInteger(value, out);
        return;
    }
    uint64_t magnitude =
        value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    uint64_t divisor = 1;
    for (int i = 0; i < scale; i++) {
        divisor *= 10;
    }
    if (value < 0) {
        out += '-';
    }
    char buffer[24];
    auto end = std::to_chars(buffer, buffer + sizeof(buffer), magnitude / divisor).ptr;
    out.append(buffer, end);
    out += '.';
    uint64_t fraction = magnitude % divisor;
    for (int i = scale - 1; i >= 0; i--) {
        buffer[i] = static_cast<char>('0' + fraction % 10);
        fraction /= 10;
    }
    out.append(buffer, static_cast<size_t>(scale));
}

void AppendDate(int32_t days, std::string& out) {
    int64_t year;
    int32_t month, day;
    date::ToCivil(days, year, month, day);
    if (year < 1000 || year > 9999 || days == date::kInfinity || days == date::kNegativeInfinity) {
        out += date::ToString(days); // BC years, five-digit years and infinities
        return;
    }
    char text[10] = {static_cast<char>('0' + year / 1000),
                     static_cast<char>('0' + year / 100 % 10),
                     static_cast<char>('0' + year / 10 % 10),
                     static_cast<char>('0' + year % 10),
                     '-',
                     static_cast<char>('0' + month / 10),
                     static_cast<char>('0' + month % 10),
                     '-',
                     static_cast<char>('0' + day / 10),
                     static_cast<char>('0' + day % 10)};
    out.append(text, sizeof(text));
}

} // namespace

void CsvFormatter::AppendRows(const DataChunk& chunk, idx_t offset, idx_t count,
                              std::string& out) const {
    std::vector<FieldWriter> writers;
    std::vector<Vector> cast; // the VARCHAR form of FieldWriter::Cast columns
    cast.reserve(chunk.ColumnCount());
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        const Vector& source = chunk.column(column);
        writers.push_back(WriterFor(source.type()));
        if (writers.back() == FieldWriter::Cast) {
            cast.emplace_back(LogicalTypeId::VARCHAR, chunk.size());
            CastVector(source, cast.back(), chunk.size());
        } else {
            cast.emplace_back(LogicalTypeId::VARCHAR, 0);
        }
    }
    for (idx_t row = offset; row < offset + count; row++) {
        for (idx_t column = 0; column < writers.size(); column++) {
            if (column > 0) {
                out += options_.delimiter;
            }
            FieldWriter writer = writers[column];
            const Vector& vector =
                writer == FieldWriter::Cast ? cast[column] : chunk.column(column);
            idx_t index = vector.vector_type() == VectorType::CONSTANT ? 0 : row;
            if (!vector.RowIsValid(index)) {
                out += options_.null_string;
                continue;
            }
            switch (writer) {
            case FieldWriter::Text:
            case FieldWriter::Cast:
                AppendField(vector.data<string_t>()[index].view(), out);
                break;
            case FieldWriter::Integer:
                AppendInteger(static_cast<int64_t>(GetInteger(vector, index)), out);
                break;
            case FieldWriter::Decimal:
                AppendDecimal(static_cast<int64_t>(GetInteger(vector, index)),
                              vector.type().scale(), out);
                break;
            case FieldWriter::Date:
                AppendDate(vector.data<int32_t>()[index], out);
                break;
            }
        }
        out += '\n';
    }
}

CsvFileWriter::CsvFileWriter(std::string path, const std::vector<std::string>& names,
                             const CsvWriteOptions& options)
    : path_(std::move(path)), formatter_(options) {
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) {
        throw Exception(ErrorKind::IO, "cannot create \"" + path_ + "\": " + std::strerror(errno));
    }
    if (options.header) {
        formatter_.AppendHeader(names, buffer_);
        Write(buffer_, 0);
        buffer_.clear();
    }
}

CsvFileWriter::~CsvFileWriter() {
    if (file_) {
        std::fclose(file_);
        if (!finished_) {
            std::remove(path_.c_str());
        }
    }
}

void CsvFileWriter::Append(const DataChunk& chunk) {
    buffer_.clear();
    formatter_.AppendRows(chunk, 0, chunk.size(), buffer_);
    Write(buffer_, chunk.size());
}

void CsvFileWriter::Write(std::string_view bytes, uint64_t rows) {
    if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) {
        throw Exception(ErrorKind::IO,
                        "could not write \"" + path_ + "\": " + std::strerror(errno));
    }
    bytes_written_ += bytes.size();
    rows_written_ += rows;
}

void CsvFileWriter::Finish() {
    if (std::fflush(file_) != 0) {
        throw Exception(ErrorKind::IO,
                        "could not write \"" + path_ + "\": " + std::strerror(errno));
    }
    finished_ = true;
}

} // namespace sluice::csv
