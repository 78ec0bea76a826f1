#include "formats/parquet/parquet_writer.hpp"

#include "common/exception.hpp"
#include "formats/parquet/compressor.hpp"
#include "formats/parquet/rle_bit_packed_decoder.hpp"
#include "formats/parquet/rle_bit_packed_encoder.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"
#include "formats/parquet/thrift_compact_writer.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace sluice::parquet {

namespace {

using TType = ThriftCompactReader::Type;

// How one Sluice type is stored in Parquet.
struct Layout {
    Type type;
    int32_t type_length = 0; // FIXED_LEN_BYTE_ARRAY only
    int32_t width = 0;       // bytes per PLAIN value (0: BYTE_ARRAY)
    ConvertedType converted = ConvertedType::NONE;
    int precision = 0;
    int scale = 0;
    bool is_unsigned = false; // statistics order the bits as unsigned numbers
};

// The fewest bytes whose two's complement holds every DECIMAL(precision) value.
int32_t DecimalBytes(int precision) {
    double bits = std::ceil(precision * std::log2(10.0)) + 1;
    return static_cast<int32_t>(std::ceil(bits / 8));
}

Layout LayoutOf(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        return {Type::BOOLEAN, 0, 1};
    case LogicalTypeId::TINYINT:
        return {Type::INT32, 0, 4, ConvertedType::INT_8};
    case LogicalTypeId::SMALLINT:
        return {Type::INT32, 0, 4, ConvertedType::INT_16};
    case LogicalTypeId::INTEGER:
        return {Type::INT32, 0, 4};
    case LogicalTypeId::DATE:
        return {Type::INT32, 0, 4, ConvertedType::DATE};
    case LogicalTypeId::BIGINT:
        return {Type::INT64, 0, 8};
    case LogicalTypeId::UTINYINT:
        return {Type::INT32, 0, 4, ConvertedType::UINT_8, 0, 0, true};
    case LogicalTypeId::USMALLINT:
        return {Type::INT32, 0, 4, ConvertedType::UINT_16, 0, 0, true};
    case LogicalTypeId::UINTEGER:
        return {Type::INT32, 0, 4, ConvertedType::UINT_32, 0, 0, true};
    case LogicalTypeId::UBIGINT:
        return {Type::INT64, 0, 8, ConvertedType::UINT_64, 0, 0, true};
    case LogicalTypeId::TIME:
        return {Type::INT64, 0, 8, ConvertedType::TIME_MICROS};
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
        return {Type::INT64, 0, 8, ConvertedType::TIMESTAMP_MICROS};
    case LogicalTypeId::TIMESTAMP_NS: // no converted type exists for nanoseconds
        return {Type::INT64, 0, 8};
    case LogicalTypeId::HUGEINT: // exact, as DECIMAL(38,0)
        return {Type::FIXED_LEN_BYTE_ARRAY, 16, 16, ConvertedType::DECIMAL, 38, 0};
    case LogicalTypeId::DECIMAL:
        if (type.width() <= 9) {
            return {Type::INT32, 0, 4, ConvertedType::DECIMAL, type.width(), type.scale()};
        }
        if (type.width() <= 18) {
            return {Type::INT64, 0, 8, ConvertedType::DECIMAL, type.width(), type.scale()};
        }
        return {Type::FIXED_LEN_BYTE_ARRAY,
                DecimalBytes(type.width()),
                DecimalBytes(type.width()),
                ConvertedType::DECIMAL,
                type.width(),
                type.scale()};
    case LogicalTypeId::FLOAT:
        return {Type::FLOAT, 0, 4};
    case LogicalTypeId::DOUBLE:
        return {Type::DOUBLE, 0, 8};
    case LogicalTypeId::VARCHAR:
        return {Type::BYTE_ARRAY, 0, 0, ConvertedType::UTF8};
    case LogicalTypeId::BLOB:
        return {Type::BYTE_ARRAY, 0, 0};
    case LogicalTypeId::UUID: // statistics order: unsigned bytes
        return {Type::FIXED_LEN_BYTE_ARRAY, 16, 16, ConvertedType::NONE, 0, 0, true};
    case LogicalTypeId::SQLNULL:
        return {Type::INT32, 0, 4};
    case LogicalTypeId::INTERVAL:
        break;
    }
    throw Exception(ErrorKind::NotImplemented, "writing " + type.ToString() + " to Parquet");
}

// The non-NULL values of one column of a row group, in Parquet's PLAIN representation.
struct ColumnValues {
    std::vector<uint32_t> defined; // one per row: 1 valid, 0 NULL
    std::vector<uint8_t> fixed;    // width bytes per valid value
    std::vector<std::string_view> binary;
    size_t count = 0;

    std::string_view Value(size_t index, int32_t width) const {
        if (width == 0) {
            return binary[index];
        }
        return {reinterpret_cast<const char*>(fixed.data()) + index * width, size_t(width)};
    }
};

template <class T>
void AppendLittleEndian(std::vector<uint8_t>& out, T value) {
    uint8_t bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.insert(out.end(), bytes, bytes + sizeof(T));
}

void AppendValue(const Vector& vector, idx_t row, const Layout& layout, ColumnValues& values) {
    const LogicalType& type = vector.type();
    switch (type.id()) {
    case LogicalTypeId::BOOLEAN:
        values.fixed.push_back(vector.data<bool>()[row] ? 1 : 0);
        return;
    case LogicalTypeId::TINYINT:
        AppendLittleEndian<int32_t>(values.fixed, vector.data<int8_t>()[row]);
        return;
    case LogicalTypeId::SMALLINT:
        AppendLittleEndian<int32_t>(values.fixed, vector.data<int16_t>()[row]);
        return;
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::DATE:
    case LogicalTypeId::SQLNULL:
        AppendLittleEndian<int32_t>(values.fixed, vector.data<int32_t>()[row]);
        return;
    case LogicalTypeId::INTERVAL: // LayoutOf refuses it before any value is appended
        break;
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::TIME:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::TIMESTAMP_NS:
        AppendLittleEndian<int64_t>(values.fixed, vector.data<int64_t>()[row]);
        return;
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
        AppendLittleEndian<uint32_t>(values.fixed, static_cast<uint32_t>(GetInteger(vector, row)));
        return;
    case LogicalTypeId::UBIGINT:
        AppendLittleEndian<uint64_t>(values.fixed, vector.data<uint64_t>()[row]);
        return;
    case LogicalTypeId::FLOAT:
        AppendLittleEndian<float>(values.fixed, vector.data<float>()[row]);
        return;
    case LogicalTypeId::DOUBLE:
        AppendLittleEndian<double>(values.fixed, vector.data<double>()[row]);
        return;
    case LogicalTypeId::HUGEINT:
    case LogicalTypeId::DECIMAL: {
        hugeint_t value = type.id() == LogicalTypeId::HUGEINT ? vector.data<hugeint_t>()[row]
                                                              : GetInteger(vector, row);
        if (layout.type == Type::INT32) {
            AppendLittleEndian<int32_t>(values.fixed, static_cast<int32_t>(value));
        } else if (layout.type == Type::INT64) {
            AppendLittleEndian<int64_t>(values.fixed, static_cast<int64_t>(value));
        } else {
            for (int32_t byte = layout.type_length - 1; byte >= 0; byte--) {
                values.fixed.push_back(
                    static_cast<uint8_t>(static_cast<unsigned __int128>(value) >> (8 * byte)));
            }
        }
        return;
    }
    case LogicalTypeId::VARCHAR:
    case LogicalTypeId::BLOB:
        values.binary.push_back(vector.data<string_t>()[row].view());
        return;
    case LogicalTypeId::UUID: {
        auto bits = static_cast<unsigned __int128>(vector.data<hugeint_t>()[row]) ^
                    (static_cast<unsigned __int128>(1) << 127);
        for (int byte = 15; byte >= 0; byte--) {
            values.fixed.push_back(static_cast<uint8_t>(bits >> (8 * byte)));
        }
        return;
    }
    }
}

// Orders two PLAIN values the way the column's statistics must: signed for numbers (decimals in
// big-endian bytes included), unsigned bytes for strings. NaN is left out by the caller.
int Compare(std::string_view a, std::string_view b, const Layout& layout) {
    switch (layout.type) {
    case Type::BOOLEAN:
        return int(uint8_t(a[0])) - int(uint8_t(b[0]));
    case Type::INT32: {
        if (layout.is_unsigned) {
            uint32_t x, y;
            std::memcpy(&x, a.data(), 4);
            std::memcpy(&y, b.data(), 4);
            return x < y ? -1 : x > y;
        }
        int32_t x, y;
        std::memcpy(&x, a.data(), 4);
        std::memcpy(&y, b.data(), 4);
        return x < y ? -1 : x > y;
    }
    case Type::INT64: {
        if (layout.is_unsigned) {
            uint64_t x, y;
            std::memcpy(&x, a.data(), 8);
            std::memcpy(&y, b.data(), 8);
            return x < y ? -1 : x > y;
        }
        int64_t x, y;
        std::memcpy(&x, a.data(), 8);
        std::memcpy(&y, b.data(), 8);
        return x < y ? -1 : x > y;
    }
    case Type::FLOAT: {
        float x, y;
        std::memcpy(&x, a.data(), 4);
        std::memcpy(&y, b.data(), 4);
        return x < y ? -1 : x > y;
    }
    case Type::DOUBLE: {
        double x, y;
        std::memcpy(&x, a.data(), 8);
        std::memcpy(&y, b.data(), 8);
        return x < y ? -1 : x > y;
    }
    case Type::FIXED_LEN_BYTE_ARRAY: { // big-endian two's complement decimals, or UUID bytes
        if (layout.is_unsigned) {
            int order = std::memcmp(a.data(), b.data(), a.size());
            return order < 0 ? -1 : order > 0;
        }
        bool a_negative = uint8_t(a[0]) & 0x80, b_negative = uint8_t(b[0]) & 0x80;
        if (a_negative != b_negative) {
            return a_negative ? -1 : 1;
        }
        int order = std::memcmp(a.data(), b.data(), a.size());
        return order < 0 ? -1 : order > 0;
    }
    default: {
        int order = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
        if (order != 0) {
            return order < 0 ? -1 : 1;
        }
        return a.size() < b.size() ? -1 : a.size() > b.size();
    }
    }
}

bool IsNaN(std::string_view value, const Layout& layout) {
    if (layout.type == Type::FLOAT) {
        float x;
        std::memcpy(&x, value.data(), 4);
        return std::isnan(x);
    }
    if (layout.type == Type::DOUBLE) {
        double x;
        std::memcpy(&x, value.data(), 8);
        return std::isnan(x);
    }
    return false;
}

// Min and max of a range of values (NaN excluded), as PLAIN bytes. String statistics longer than
// this are left out rather than truncated.
constexpr size_t kMaxStatisticsLength = 64;

struct MinMax {
    bool present = false;
    std::string min, max;

    void Add(std::string_view value, const Layout& layout) {
        if (IsNaN(value, layout)) {
            return;
        }
        if (!present) {
            min = max = std::string(value);
            present = true;
            return;
        }
        if (Compare(value, min, layout) < 0) {
            min = std::string(value);
        }
        if (Compare(value, max, layout) > 0) {
            max = std::string(value);
        }
    }
    bool Writable() const {
        return present && min.size() <= kMaxStatisticsLength && max.size() <= kMaxStatisticsLength;
    }
};

void WriteStatistics(ThriftCompactWriter& writer, int16_t field, int64_t null_count,
                     const MinMax& range) {
    writer.BeginStructField(field);
    writer.WriteI64Field(3, null_count);
    if (range.Writable()) {
        writer.WriteBinaryField(5, range.max);
        writer.WriteBinaryField(6, range.min);
    }
    writer.EndStruct();
}

void AppendPlain(const ColumnValues& values, size_t begin, size_t end, const Layout& layout,
                 std::vector<uint8_t>& out) {
    if (layout.type == Type::BOOLEAN) {
        size_t start = out.size();
        out.resize(start + (end - begin + 7) / 8, 0);
        for (size_t i = begin; i < end; i++) {
            if (values.fixed[i]) {
                out[start + (i - begin) / 8] |= static_cast<uint8_t>(1u << ((i - begin) % 8));
            }
        }
    } else if (layout.width == 0) {
        for (size_t i = begin; i < end; i++) {
            AppendLittleEndian<uint32_t>(out, static_cast<uint32_t>(values.binary[i].size()));
            out.insert(out.end(), values.binary[i].begin(), values.binary[i].end());
        }
    } else {
        out.insert(out.end(), values.fixed.begin() + begin * layout.width,
                   values.fixed.begin() + end * layout.width);
    }
}

void WriteLogicalType(ThriftCompactWriter& writer, const LogicalType& type, const Layout& layout) {
    auto empty_member = [&](int16_t id) {
        writer.BeginStructField(10);
        writer.BeginStructField(id);
        writer.EndStruct();
        writer.EndStruct();
    };
    switch (type.id()) {
    case LogicalTypeId::VARCHAR:
        empty_member(1);
        return;
    case LogicalTypeId::DATE:
        empty_member(6);
        return;
    case LogicalTypeId::UUID:
        empty_member(14);
        return;
    case LogicalTypeId::DECIMAL:
    case LogicalTypeId::HUGEINT:
        writer.BeginStructField(10);
        writer.BeginStructField(5);
        writer.WriteI32Field(1, layout.scale);
        writer.WriteI32Field(2, layout.precision);
        writer.EndStruct();
        writer.EndStruct();
        return;
    case LogicalTypeId::TIME:
    case LogicalTypeId::TIMESTAMP:
    case LogicalTypeId::TIMESTAMP_TZ:
    case LogicalTypeId::TIMESTAMP_NS:
        writer.BeginStructField(10);
        writer.BeginStructField(type.id() == LogicalTypeId::TIME ? 7 : 8);
        // Local times are not adjusted to UTC; instants are.
        writer.WriteBoolField(1, type.id() == LogicalTypeId::TIMESTAMP_TZ);
        writer.BeginStructField(2);
        writer.BeginStructField(type.id() == LogicalTypeId::TIMESTAMP_NS ? 3 : 2); // NANOS, MICROS
        writer.EndStruct();
        writer.EndStruct();
        writer.EndStruct();
        writer.EndStruct();
        return;
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::UTINYINT:
    case LogicalTypeId::USMALLINT:
    case LogicalTypeId::UINTEGER:
    case LogicalTypeId::UBIGINT:
        writer.BeginStructField(10);
        writer.BeginStructField(10);
        writer.WriteByteField(1, static_cast<int8_t>(8 << (IntegerRank(type.id()) - 1)));
        writer.WriteBoolField(2, !type.IsUnsigned());
        writer.EndStruct();
        writer.EndStruct();
        return;
    default:
        return;
    }
}

} // namespace

struct ParquetWriter::ColumnChunkResult {
    std::vector<uint8_t> metadata; // the encoded ColumnChunk struct
    uint64_t uncompressed = 0;
    uint64_t compressed = 0;
    uint64_t start = 0;
};

ParquetWriter::ParquetWriter(std::string path, std::vector<std::string> names,
                             std::vector<LogicalType> types, ParquetWriteOptions options)
    : path_(std::move(path)), names_(std::move(names)), types_(std::move(types)),
      options_(options) {
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
        idx_t room = options_.row_group_size - buffered_rows_;
        idx_t take = std::min<idx_t>(room, chunk.size() - offset);
        auto copy = std::make_unique<DataChunk>(types_, take);
        std::vector<idx_t> selection(take);
        for (idx_t i = 0; i < take; i++) {
            selection[i] = offset + i;
        }
        copy->AppendSelected(chunk, selection.data(), take);
        buffered_.push_back(std::move(copy));
        buffered_rows_ += take;
        offset += take;
        if (buffered_rows_ == options_.row_group_size) {
            FlushRowGroup();
        }
    }
}

ParquetWriter::ColumnChunkResult ParquetWriter::WriteColumn(size_t column) {
    const LogicalType& type = types_[column];
    Layout layout = LayoutOf(type);
    ColumnValues values;
    values.defined.reserve(buffered_rows_);
    for (const auto& chunk : buffered_) {
        const Vector& vector = chunk->column(column);
        for (idx_t row = 0; row < chunk->size(); row++) {
            bool valid = vector.RowIsValid(row);
            values.defined.push_back(valid ? 1 : 0);
            if (valid) {
                AppendValue(vector, row, layout, values);
                values.count++;
            }
        }
    }
    // Dictionary encoding pays when the column repeats itself.
    std::vector<uint32_t> indices;
    std::vector<std::string_view> dictionary;
    bool use_dictionary = layout.type != Type::BOOLEAN && values.count > 0;
    if (use_dictionary) {
        std::unordered_map<std::string_view, uint32_t> positions;
        indices.reserve(values.count);
        for (size_t i = 0; i < values.count && use_dictionary; i++) {
            std::string_view value = values.Value(i, layout.width);
            auto [entry, inserted] =
                positions.emplace(value, static_cast<uint32_t>(dictionary.size()));
            if (inserted) {
                dictionary.push_back(value);
                use_dictionary = dictionary.size() <= options_.max_dictionary_values &&
                                 dictionary.size() * 2 <= values.count + 1;
            }
            indices.push_back(entry->second);
        }
        // A dictionary nearly as large as the data is not worth it.
        use_dictionary = use_dictionary && dictionary.size() * 2 <= values.count + 1;
    }

    ColumnChunkResult result;
    result.start = offset_;
    std::vector<uint8_t> page, compressed, header;
    auto emit_page = [&](std::vector<uint8_t>& body, auto write_header) {
        Compress(options_.codec, body.data(), body.size(), compressed);
        header.clear();
        ThriftCompactWriter writer(header);
        writer.BeginStruct();
        write_header(writer, static_cast<int32_t>(body.size()),
                     static_cast<int32_t>(compressed.size()));
        writer.EndStruct();
        Write(header.data(), header.size());
        Write(compressed.data(), compressed.size());
        result.uncompressed += header.size() + body.size();
        result.compressed += header.size() + compressed.size();
    };

    std::optional<uint64_t> dictionary_offset;
    uint32_t index_width = 0;
    if (use_dictionary) {
        dictionary_offset = offset_;
        page.clear();
        ColumnValues entries;
        for (const auto& value : dictionary) {
            if (layout.width == 0) {
                entries.binary.push_back(value);
            } else {
                entries.fixed.insert(entries.fixed.end(), value.begin(), value.end());
            }
        }
        AppendPlain(entries, 0, dictionary.size(), layout, page);
        emit_page(page, [&](ThriftCompactWriter& writer, int32_t size, int32_t compressed_size) {
            writer.WriteI32Field(1, static_cast<int32_t>(PageType::DICTIONARY_PAGE));
            writer.WriteI32Field(2, size);
            writer.WriteI32Field(3, compressed_size);
            writer.BeginStructField(7);
            writer.WriteI32Field(1, static_cast<int32_t>(dictionary.size()));
            writer.WriteI32Field(2, static_cast<int32_t>(Encoding::PLAIN));
            writer.EndStruct();
        });
        index_width = std::max<uint32_t>(1, BitWidthOf(dictionary.size() - 1));
    }

    uint64_t data_offset = offset_;
    MinMax chunk_range;
    int64_t chunk_nulls = 0;
    size_t row = 0, value = 0;
    size_t total_rows = values.defined.size();
    while (row < total_rows || (total_rows == 0 && row == 0)) {
        // One page: rows until about page_size bytes of values.
        size_t page_first_row = row, page_first_value = value;
        uint64_t bytes = 0;
        while (row < total_rows && bytes < options_.page_size) {
            if (values.defined[row]) {
                bytes += use_dictionary
                             ? 1 + index_width / 8
                             : (layout.width == 0 ? 4 + values.binary[value].size() : layout.width);
                value++;
            }
            row++;
        }
        size_t page_rows = row - page_first_row;
        MinMax page_range;
        for (size_t i = page_first_value; i < value; i++) {
            page_range.Add(values.Value(i, layout.width), layout);
            chunk_range.Add(values.Value(i, layout.width), layout);
        }
        int64_t page_nulls = static_cast<int64_t>(page_rows - (value - page_first_value));
        chunk_nulls += page_nulls;
        page.assign(4, 0);
        EncodeRleBitPacked(values.defined.data() + page_first_row, page_rows, 1, page);
        uint32_t levels_length = static_cast<uint32_t>(page.size() - 4);
        std::memcpy(page.data(), &levels_length, 4);
        if (use_dictionary) {
            page.push_back(static_cast<uint8_t>(index_width));
            EncodeRleBitPacked(indices.data() + page_first_value, value - page_first_value,
                               index_width, page);
        } else {
            AppendPlain(values, page_first_value, value, layout, page);
        }
        emit_page(page, [&](ThriftCompactWriter& writer, int32_t size, int32_t compressed_size) {
            writer.WriteI32Field(1, static_cast<int32_t>(PageType::DATA_PAGE));
            writer.WriteI32Field(2, size);
            writer.WriteI32Field(3, compressed_size);
            writer.BeginStructField(5);
            writer.WriteI32Field(1, static_cast<int32_t>(page_rows));
            writer.WriteI32Field(2, static_cast<int32_t>(use_dictionary ? Encoding::RLE_DICTIONARY
                                                                        : Encoding::PLAIN));
            writer.WriteI32Field(3, static_cast<int32_t>(Encoding::RLE));
            writer.WriteI32Field(4, static_cast<int32_t>(Encoding::RLE));
            WriteStatistics(writer, 5, page_nulls, page_range);
            writer.EndStruct();
        });
        if (total_rows == 0) {
            break;
        }
    }

    ThriftCompactWriter writer(result.metadata);
    writer.BeginStruct(); // ColumnChunk
    writer.WriteI64Field(2, static_cast<int64_t>(result.start));
    writer.BeginStructField(3); // ColumnMetaData
    writer.WriteI32Field(1, static_cast<int32_t>(layout.type));
    std::vector<Encoding> encodings = {Encoding::RLE,
                                       use_dictionary ? Encoding::RLE_DICTIONARY : Encoding::PLAIN};
    if (use_dictionary) {
        encodings.push_back(Encoding::PLAIN);
    }
    writer.BeginListField(2, TType::kI32, static_cast<uint32_t>(encodings.size()));
    for (Encoding encoding : encodings) {
        writer.WriteI32(static_cast<int32_t>(encoding));
    }
    writer.BeginListField(3, TType::kBinary, 1);
    writer.WriteBinary(names_[column]);
    writer.WriteI32Field(4, static_cast<int32_t>(options_.codec));
    writer.WriteI64Field(5, static_cast<int64_t>(total_rows));
    writer.WriteI64Field(6, static_cast<int64_t>(result.uncompressed));
    writer.WriteI64Field(7, static_cast<int64_t>(result.compressed));
    writer.WriteI64Field(9, static_cast<int64_t>(data_offset));
    if (dictionary_offset) {
        writer.WriteI64Field(11, static_cast<int64_t>(*dictionary_offset));
    }
    WriteStatistics(writer, 12, chunk_nulls, chunk_range);
    writer.EndStruct();
    writer.EndStruct();
    return result;
}

void ParquetWriter::FlushRowGroup() {
    if (buffered_rows_ == 0) {
        return;
    }
    uint64_t start = offset_;
    std::vector<ColumnChunkResult> chunks;
    uint64_t uncompressed = 0, compressed = 0;
    for (size_t column = 0; column < types_.size(); column++) {
        chunks.push_back(WriteColumn(column));
        uncompressed += chunks.back().uncompressed;
        compressed += chunks.back().compressed;
    }
    ThriftCompactWriter writer(footer_row_groups_);
    writer.BeginStruct(); // RowGroup
    writer.BeginListField(1, TType::kStruct, static_cast<uint32_t>(chunks.size()));
    for (const auto& chunk : chunks) {
        footer_row_groups_.insert(footer_row_groups_.end(), chunk.metadata.begin(),
                                  chunk.metadata.end());
    }
    writer.WriteI64Field(2, static_cast<int64_t>(uncompressed));
    writer.WriteI64Field(3, static_cast<int64_t>(buffered_rows_));
    writer.WriteI64Field(5, static_cast<int64_t>(start));
    writer.WriteI64Field(6, static_cast<int64_t>(compressed));
    writer.WriteI32Field(7,
                         static_cast<int32_t>(row_group_count_)); // i16 in the spec: same encoding
    writer.EndStruct();
    row_group_count_++;
    rows_written_ += buffered_rows_;
    buffered_.clear();
    buffered_rows_ = 0;
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
