#include "formats/csv/csv_writer.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"

#include <cerrno>
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
    for (char c : value) {
        if (c == options_.delimiter || c == options_.quote || c == '\n' || c == '\r') {
            quote = true;
            break;
        }
    }
    if (!quote) {
        out += value;
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

void CsvFormatter::AppendRows(const DataChunk& chunk, idx_t offset, idx_t count,
                              std::string& out) const {
    // Every column in its VARCHAR form, converted a vector at a time.
    std::vector<Vector> text;
    text.reserve(chunk.ColumnCount());
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        const Vector& source = chunk.column(column);
        if (source.type().id() == LogicalTypeId::VARCHAR) {
            text.emplace_back(LogicalTypeId::VARCHAR, 0);
            text.back().Reference(source);
        } else {
            text.emplace_back(LogicalTypeId::VARCHAR, chunk.size());
            CastVector(source, text.back(), chunk.size());
        }
    }
    for (idx_t row = offset; row < offset + count; row++) {
        for (idx_t column = 0; column < text.size(); column++) {
            if (column > 0) {
                out += options_.delimiter;
            }
            const Vector& vector = text[column];
            idx_t index = vector.vector_type() == VectorType::CONSTANT ? 0 : row;
            if (!vector.RowIsValid(index)) {
                out += options_.null_string;
            } else {
                AppendField(vector.data<string_t>()[index].view(), out);
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
