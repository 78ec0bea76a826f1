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

ParquetWriter::ParquetWriter(std::string path, const std::vector<std::string>& names,
                             const std::vector<LogicalType>& types, ParquetWriteOptions options)
    : ParquetWriter(std::move(path), WriteSchema(names, types), options) {
    // (The schema rejects types Parquet cannot hold before any file is created.)
}

ParquetWriter::ParquetWriter(std::string path, WriteSchema schema, ParquetWriteOptions options)
    : path_(std::move(path)), schema_(std::move(schema)), options_(options),
      column_options_(options.ColumnOptions(DirectoryOf(path_))) {
    if (options_.row_group_size == 0) {
        throw Exception(ErrorKind::InvalidInput, "ROW_GROUP_SIZE must be at least 1");
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
            current_ = std::make_unique<RowGroupEncoder>(schema_, column_options_);
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

ParquetWriter::PlacedChunk ParquetWriter::PlaceColumnChunk(EncodedColumnChunk& chunk) {
    PlacedChunk placed;
    placed.start = offset_;
    if (!chunk.dictionary_page.empty()) {
        placed.dictionary_offset = offset_;
        Write(chunk.dictionary_page.data(), chunk.dictionary_page.size());
    }
    placed.data_offset = offset_;
    chunk.data_pages.CopyTo([&](const void* data, size_t size) { Write(data, size); });
    placed.values = chunk.values;
    placed.uncompressed = chunk.uncompressed;
    placed.compressed = chunk.compressed();
    placed.nulls = chunk.nulls;
    placed.range = std::move(chunk.range);
    placed.encodings = std::move(chunk.encodings);
    ColumnIndex column_index;
    bool bounds_writable = true;
    for (const EncodedPage& page : chunk.pages) {
        placed.offset_index.page_locations.push_back(
            {static_cast<int64_t>(placed.data_offset + page.offset),
             static_cast<int32_t>(page.size), static_cast<int64_t>(page.first_row)});
        // A page of NaN alone has no bounds but is not a null page: no column index then.
        bool null_page = page.nulls == static_cast<int64_t>(page.values);
        bounds_writable = bounds_writable && (null_page || page.range.Writable());
        column_index.null_pages.push_back(null_page);
        column_index.min_values.push_back(null_page ? std::string() : page.range.min);
        column_index.max_values.push_back(null_page ? std::string() : page.range.max);
        column_index.null_counts.push_back(page.nulls);
    }
    if (bounds_writable) {
        placed.column_index = std::move(column_index);
    }
    return placed;
}

void ParquetWriter::AppendRowGroup(EncodedRowGroup group) {
    if (group.rows == 0) {
        return;
    }
    PlacedRowGroup placed;
    placed.start = offset_;
    placed.rows = group.rows;
    for (size_t column = 0; column < group.columns.size(); column++) {
        placed.chunks.push_back(PlaceColumnChunk(group.columns[column]));
        placed.uncompressed += group.columns[column].uncompressed;
        placed.compressed += group.columns[column].compressed();
    }
    row_groups_.push_back(std::move(placed));
    rows_written_ += group.rows;
}

void ParquetWriter::OrderRowGroups(const std::vector<size_t>& order) {
    if (order.size() != row_groups_.size()) {
        throw Exception(ErrorKind::Internal,
                        "ParquetWriter::OrderRowGroups: " + std::to_string(order.size()) +
                            " positions for " + std::to_string(row_groups_.size()) + " row groups");
    }
    std::vector<PlacedRowGroup> ordered;
    ordered.reserve(order.size());
    for (size_t index : order) {
        ordered.push_back(std::move(row_groups_.at(index)));
    }
    row_groups_ = std::move(ordered);
}

void ParquetWriter::WritePageIndexes() {
    // As parquet-format lays them out: every column index, then every offset index.
    std::vector<uint8_t> bytes;
    for (PlacedRowGroup& group : row_groups_) {
        for (PlacedChunk& chunk : group.chunks) {
            if (chunk.column_index) {
                bytes.clear();
                EncodeColumnIndex(*chunk.column_index, bytes);
                chunk.column_index_offset = offset_;
                chunk.column_index_length = static_cast<uint32_t>(bytes.size());
                Write(bytes.data(), bytes.size());
            }
        }
    }
    for (PlacedRowGroup& group : row_groups_) {
        for (PlacedChunk& chunk : group.chunks) {
            bytes.clear();
            EncodeOffsetIndex(chunk.offset_index, bytes);
            chunk.offset_index_offset = offset_;
            chunk.offset_index_length = static_cast<uint32_t>(bytes.size());
            Write(bytes.data(), bytes.size());
        }
    }
}

void ParquetWriter::EncodeColumnChunk(ThriftCompactWriter& writer, const PlacedChunk& chunk,
                                      const WriteLeaf& leaf) const {
    Layout layout = LayoutOf(leaf.type);
    writer.BeginStruct(); // ColumnChunk
    writer.WriteI64Field(2, static_cast<int64_t>(chunk.start));
    writer.BeginStructField(3); // ColumnMetaData
    writer.WriteI32Field(1, static_cast<int32_t>(layout.type));
    writer.BeginListField(2, TType::kI32, static_cast<uint32_t>(chunk.encodings.size()));
    for (Encoding encoding : chunk.encodings) {
        writer.WriteI32(static_cast<int32_t>(encoding));
    }
    writer.BeginListField(3, TType::kBinary, static_cast<uint32_t>(leaf.path.size()));
    for (const std::string& name : leaf.path) {
        writer.WriteBinary(name);
    }
    writer.WriteI32Field(4, static_cast<int32_t>(options_.codec));
    writer.WriteI64Field(5, static_cast<int64_t>(chunk.values));
    writer.WriteI64Field(6, static_cast<int64_t>(chunk.uncompressed));
    writer.WriteI64Field(7, static_cast<int64_t>(chunk.compressed));
    writer.WriteI64Field(9, static_cast<int64_t>(chunk.data_offset));
    if (chunk.dictionary_offset) {
        writer.WriteI64Field(11, static_cast<int64_t>(*chunk.dictionary_offset));
    }
    WriteStatistics(writer, 12, chunk.nulls, chunk.range);
    writer.EndStruct();
    if (chunk.offset_index_length > 0) {
        writer.WriteI64Field(4, static_cast<int64_t>(chunk.offset_index_offset));
        writer.WriteI32Field(5, static_cast<int32_t>(chunk.offset_index_length));
    }
    if (chunk.column_index_length > 0) {
        writer.WriteI64Field(6, static_cast<int64_t>(chunk.column_index_offset));
        writer.WriteI32Field(7, static_cast<int32_t>(chunk.column_index_length));
    }
    writer.EndStruct();
}

void ParquetWriter::Finish() {
    FlushRowGroup();
    if (options_.write_page_index) {
        WritePageIndexes();
    }
    std::vector<uint8_t> footer;
    ThriftCompactWriter writer(footer);
    writer.BeginStruct(); // FileMetaData
    writer.WriteI32Field(1, 1);
    schema_.WriteElements(writer);
    writer.WriteI64Field(3, static_cast<int64_t>(rows_written_));
    writer.BeginListField(4, TType::kStruct, static_cast<uint32_t>(row_groups_.size()));
    for (size_t ordinal = 0; ordinal < row_groups_.size(); ordinal++) {
        const PlacedRowGroup& group = row_groups_[ordinal];
        writer.BeginStruct(); // RowGroup
        writer.BeginListField(1, TType::kStruct, static_cast<uint32_t>(group.chunks.size()));
        for (size_t column = 0; column < group.chunks.size(); column++) {
            EncodeColumnChunk(writer, group.chunks[column], schema_.leaves()[column]);
        }
        writer.WriteI64Field(2, static_cast<int64_t>(group.uncompressed));
        writer.WriteI64Field(3, static_cast<int64_t>(group.rows));
        writer.WriteI64Field(5, static_cast<int64_t>(group.start));
        writer.WriteI64Field(6, static_cast<int64_t>(group.compressed));
        writer.WriteI32Field(7, static_cast<int32_t>(ordinal)); // i16 in the spec: same encoding
        writer.EndStruct();
    }
    writer.WriteBinaryField(6, "Sluice version 0.1.0");
    writer.BeginListField(7, TType::kStruct, static_cast<uint32_t>(schema_.leaves().size()));
    for (size_t leaf = 0; leaf < schema_.leaves().size(); leaf++) {
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
