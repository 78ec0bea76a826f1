#include "formats/parquet/parquet_writer.hpp"

#include "common/exception.hpp"
#include "formats/parquet/parquet_value_layout.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"
#include "formats/parquet/thrift_compact_writer.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>

namespace sluice::parquet {

namespace {

using TType = ThriftCompactReader::Type;

} // namespace

Codec CodecFromName(const std::string& name) {
    static const std::pair<const char*, Codec> kCodecs[] = {{"uncompressed", Codec::UNCOMPRESSED},
                                                            {"snappy", Codec::SNAPPY},
                                                            {"gzip", Codec::GZIP},
                                                            {"zstd", Codec::ZSTD},
                                                            {"lz4", Codec::LZ4_RAW},
                                                            {"lz4_raw", Codec::LZ4_RAW},
                                                            {"brotli", Codec::BROTLI}};
    std::string lower;
    for (char c : name) {
        lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    for (const auto& [codec_name, codec] : kCodecs) {
        if (lower == codec_name) {
            return codec;
        }
    }
    throw Exception(ErrorKind::InvalidInput,
                    "unknown COMPRESSION '" + name +
                        "'; use uncompressed, snappy, gzip, zstd, lz4 or brotli");
}

ColumnEncodeOptions ParquetWriteOptions::ColumnOptions(const std::string& spill_directory) const {
    ColumnEncodeOptions column;
    column.codec = codec;
    column.page_size = page_size;
    column.max_dictionary_values = max_dictionary_values;
    column.spill_directory = spill_directory;
    return column;
}

std::string ParquetWriter::DirectoryOf(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

ParquetWriter::ParquetWriter(std::string path, std::vector<std::string> names,
                             std::vector<LogicalType> types, ParquetWriteOptions options)
    : path_(std::move(path)), names_(std::move(names)), types_(std::move(types)), options_(options),
      column_options_(options.ColumnOptions(DirectoryOf(path_))) {
    if (options_.row_group_size == 0) {
        throw Exception(ErrorKind::InvalidInput, "ROW_GROUP_SIZE must be at least 1");
    }
    for (const auto& type : types_) {
        LayoutOf(type); // rejects types Parquet cannot hold before any file is created
    }
    file_ = std::fopen(path_.c_str(), "wb");
    if (!file_) {
        throw Exception(ErrorKind::IO, "cannot create \"" + path_ + "\": " + std::strerror(errno));
    }
    Write("PAR1", 4);
}

ParquetWriter::~ParquetWriter() {
    if (file_) {
        std::fclose(file_);
        if (!finished_) {
            std::remove(path_.c_str()); // an unfinished file is no Parquet file
        }
    }
}

void ParquetWriter::Write(const void* data, size_t size) {
    if (size > 0 && std::fwrite(data, 1, size, file_) != size) {
        throw Exception(ErrorKind::IO,
                        "could not write \"" + path_ + "\": " + std::strerror(errno));
    }
    offset_ += size;
}

void ParquetWriter::Append(const DataChunk& chunk) {
    idx_t offset = 0;
    while (offset < chunk.size()) {
        if (!current_) {
            current_ = std::make_unique<RowGroupEncoder>(types_, column_options_);
        }
        idx_t take =
            std::min<idx_t>(options_.row_group_size - current_->rows(), chunk.size() - offset);
        current_->Append(chunk, offset, take);
        offset += take;
        if (current_->rows() == options_.row_group_size) {
            FlushRowGroup();
        }
    }
}

void ParquetWriter::FlushRowGroup() {
    if (current_ && current_->rows() > 0) {
        AppendRowGroup(current_->Finish());
    }
    current_.reset();
}

std::vector<uint8_t> ParquetWriter::PlaceColumnChunk(EncodedColumnChunk& chunk, size_t column) {
    Layout layout = LayoutOf(types_[column]);
    uint64_t start = offset_;
    std::optional<uint64_t> dictionary_offset;
    if (!chunk.dictionary_page.empty()) {
        dictionary_offset = offset_;
        Write(chunk.dictionary_page.data(), chunk.dictionary_page.size());
    }
    uint64_t data_offset = offset_;
    chunk.data_pages.CopyTo([&](const void* data, size_t size) { Write(data, size); });

    std::vector<uint8_t> metadata;
    ThriftCompactWriter writer(metadata);
    writer.BeginStruct(); // ColumnChunk
    writer.WriteI64Field(2, static_cast<int64_t>(start));
    writer.BeginStructField(3); // ColumnMetaData
    writer.WriteI32Field(1, static_cast<int32_t>(layout.type));
    writer.BeginListField(2, TType::kI32, static_cast<uint32_t>(chunk.encodings.size()));
    for (Encoding encoding : chunk.encodings) {
        writer.WriteI32(static_cast<int32_t>(encoding));
    }
    writer.BeginListField(3, TType::kBinary, 1);
    writer.WriteBinary(names_[column]);
    writer.WriteI32Field(4, static_cast<int32_t>(options_.codec));
    writer.WriteI64Field(5, static_cast<int64_t>(chunk.values));
    writer.WriteI64Field(6, static_cast<int64_t>(chunk.uncompressed));
    writer.WriteI64Field(7, static_cast<int64_t>(chunk.compressed()));
    writer.WriteI64Field(9, static_cast<int64_t>(data_offset));
    if (dictionary_offset) {
        writer.WriteI64Field(11, static_cast<int64_t>(*dictionary_offset));
    }
    WriteStatistics(writer, 12, chunk.nulls, chunk.range);
    writer.EndStruct();
    writer.EndStruct();
    return metadata;
}

void ParquetWriter::AppendRowGroup(EncodedRowGroup group) {
    if (group.rows == 0) {
        return;
    }
    uint64_t start = offset_;
    uint64_t uncompressed = 0, compressed = 0;
    std::vector<std::vector<uint8_t>> chunks;
    for (size_t column = 0; column < types_.size(); column++) {
        chunks.push_back(PlaceColumnChunk(group.columns[column], column));
        uncompressed += group.columns[column].uncompressed;
        compressed += group.columns[column].compressed();
    }
    ThriftCompactWriter writer(footer_row_groups_);
    writer.BeginStruct(); // RowGroup
    writer.BeginListField(1, TType::kStruct, static_cast<uint32_t>(chunks.size()));
    for (const auto& chunk : chunks) {
        footer_row_groups_.insert(footer_row_groups_.end(), chunk.begin(), chunk.end());
    }
    writer.WriteI64Field(2, static_cast<int64_t>(uncompressed));
    writer.WriteI64Field(3, static_cast<int64_t>(group.rows));
    writer.WriteI64Field(5, static_cast<int64_t>(start));
    writer.WriteI64Field(6, static_cast<int64_t>(compressed));
    writer.WriteI32Field(7,
                         static_cast<int32_t>(row_group_count_)); // i16 in the spec: same encoding
    writer.EndStruct();
    row_group_count_++;
    rows_written_ += group.rows;
}

void ParquetWriter::Finish() {
    FlushRowGroup();
    std::vector<uint8_t> footer;
    ThriftCompactWriter writer(footer);
    writer.BeginStruct(); // FileMetaData
    writer.WriteI32Field(1, 1);
    writer.BeginListField(2, TType::kStruct, static_cast<uint32_t>(types_.size() + 1));
    writer.BeginStruct(); // root
    writer.WriteI32Field(3, static_cast<int32_t>(Repetition::REQUIRED));
    writer.WriteBinaryField(4, "sluice_schema");
    writer.WriteI32Field(5, static_cast<int32_t>(types_.size()));
    writer.EndStruct();
    for (size_t column = 0; column < types_.size(); column++) {
        Layout layout = LayoutOf(types_[column]);
        writer.BeginStruct();
        writer.WriteI32Field(1, static_cast<int32_t>(layout.type));
        if (layout.type == Type::FIXED_LEN_BYTE_ARRAY) {
            writer.WriteI32Field(2, layout.type_length);
        }
        writer.WriteI32Field(3, static_cast<int32_t>(Repetition::OPTIONAL));
        writer.WriteBinaryField(4, names_[column]);
        if (layout.converted != ConvertedType::NONE) {
            writer.WriteI32Field(6, static_cast<int32_t>(layout.converted));
        }
        if (layout.converted == ConvertedType::DECIMAL) {
            writer.WriteI32Field(7, layout.scale);
            writer.WriteI32Field(8, layout.precision);
        }
        WriteLogicalType(writer, types_[column], layout);
        writer.EndStruct();
    }
    writer.WriteI64Field(3, static_cast<int64_t>(rows_written_));
    writer.BeginListField(4, TType::kStruct, row_group_count_);
    footer.insert(footer.end(), footer_row_groups_.begin(), footer_row_groups_.end());
    writer.WriteBinaryField(6, "Sluice version 0.1.0");
    writer.BeginListField(7, TType::kStruct, static_cast<uint32_t>(types_.size()));
    for (size_t column = 0; column < types_.size(); column++) {
        writer.BeginStruct(); // ColumnOrder union: TYPE_DEFINED_ORDER
        writer.BeginStructField(1);
        writer.EndStruct();
        writer.EndStruct();
    }
    writer.EndStruct();
    Write(footer.data(), footer.size());
    uint32_t footer_length = static_cast<uint32_t>(footer.size());
    Write(&footer_length, 4);
    Write("PAR1", 4);
    if (std::fflush(file_) != 0) {
        throw Exception(ErrorKind::IO,
                        "could not write \"" + path_ + "\": " + std::strerror(errno));
    }
    finished_ = true;
}

} // namespace sluice::parquet
