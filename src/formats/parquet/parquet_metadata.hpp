#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice::parquet {

// The parts of parquet.thrift that Sluice reads. Field names follow the specification.

enum class Type : int32_t {
    BOOLEAN = 0,
    INT32 = 1,
    INT64 = 2,
    INT96 = 3,
    FLOAT = 4,
    DOUBLE = 5,
    BYTE_ARRAY = 6,
    FIXED_LEN_BYTE_ARRAY = 7,
};

enum class ConvertedType : int32_t {
    NONE = -1,
    UTF8 = 0,
    MAP = 1,
    MAP_KEY_VALUE = 2,
    LIST = 3,
    ENUM = 4,
    DECIMAL = 5,
    DATE = 6,
    TIME_MILLIS = 7,
    TIME_MICROS = 8,
    TIMESTAMP_MILLIS = 9,
    TIMESTAMP_MICROS = 10,
    UINT_8 = 11,
    UINT_16 = 12,
    UINT_32 = 13,
    UINT_64 = 14,
    INT_8 = 15,
    INT_16 = 16,
    INT_32 = 17,
    INT_64 = 18,
    JSON = 19,
    BSON = 20,
    INTERVAL = 21,
};

enum class Repetition : int32_t { REQUIRED = 0, OPTIONAL = 1, REPEATED = 2 };

enum class Encoding : int32_t {
    PLAIN = 0,
    PLAIN_DICTIONARY = 2,
    RLE = 3,
    BIT_PACKED = 4,
    DELTA_BINARY_PACKED = 5,
    DELTA_LENGTH_BYTE_ARRAY = 6,
    DELTA_BYTE_ARRAY = 7,
    RLE_DICTIONARY = 8,
    BYTE_STREAM_SPLIT = 9,
};

enum class Codec : int32_t {
    UNCOMPRESSED = 0,
    SNAPPY = 1,
    GZIP = 2,
    LZO = 3,
    BROTLI = 4,
    LZ4 = 5,
    ZSTD = 6,
    LZ4_RAW = 7,
};

enum class PageType : int32_t {
    DATA_PAGE = 0,
    INDEX_PAGE = 1,
    DICTIONARY_PAGE = 2,
    DATA_PAGE_V2 = 3
};

enum class TimeUnit : uint8_t { MILLIS, MICROS, NANOS };

// The LogicalType union, flattened: `kind` names the member that is set.
struct LogicalTypeAnnotation {
    enum Kind : uint8_t {
        NONE,
        STRING,
        MAP,
        LIST,
        ENUM,
        DECIMAL,
        DATE,
        TIME,
        TIMESTAMP,
        INTEGER,
        UNKNOWN, // the null type
        JSON,
        BSON,
        UUID,
        FLOAT16,
        OTHER, // a member this reader does not know (VARIANT, GEOMETRY, future ones)
    };
    Kind kind = NONE;
    int32_t scale = 0;
    int32_t precision = 0;
    bool is_adjusted_to_utc = false;
    TimeUnit unit = TimeUnit::MICROS;
    int8_t bit_width = 0;
    bool is_signed = true;
    int16_t other_id = 0;
};

struct SchemaElement {
    std::optional<Type> type;
    int32_t type_length = 0;
    std::optional<Repetition> repetition;
    std::string name;
    int32_t num_children = 0;
    ConvertedType converted_type = ConvertedType::NONE;
    int32_t scale = 0;
    int32_t precision = 0;
    LogicalTypeAnnotation logical_type;
};

struct Statistics {
    std::optional<std::string> max; // deprecated: signed comparison only
    std::optional<std::string> min; // deprecated
    std::optional<int64_t> null_count;
    std::optional<int64_t> distinct_count;
    std::optional<std::string> max_value; // per the column order
    std::optional<std::string> min_value;
};

struct ColumnMetaData {
    Type type = Type::INT32;
    std::vector<Encoding> encodings;
    std::vector<std::string> path_in_schema;
    Codec codec = Codec::UNCOMPRESSED;
    int64_t num_values = 0;
    int64_t total_uncompressed_size = 0;
    int64_t total_compressed_size = 0;
    int64_t data_page_offset = 0;
    std::optional<int64_t> index_page_offset;
    std::optional<int64_t> dictionary_page_offset;
    std::optional<Statistics> statistics;
    std::optional<int64_t> bloom_filter_offset;
    std::optional<int32_t> bloom_filter_length;
};

struct ColumnChunk {
    std::optional<std::string> file_path;
    int64_t file_offset = 0;
    std::optional<ColumnMetaData> meta_data;
    std::optional<int64_t> offset_index_offset;
    std::optional<int32_t> offset_index_length;
    std::optional<int64_t> column_index_offset;
    std::optional<int32_t> column_index_length;
    bool encrypted = false;
};

struct RowGroup {
    std::vector<ColumnChunk> columns;
    int64_t total_byte_size = 0;
    int64_t num_rows = 0;
    std::optional<int64_t> file_offset;
    std::optional<int64_t> total_compressed_size;
};

struct KeyValue {
    std::string key;
    std::optional<std::string> value;
};

struct FileMetaData {
    int32_t version = 0;
    std::vector<SchemaElement> schema;
    int64_t num_rows = 0;
    std::vector<RowGroup> row_groups;
    std::vector<KeyValue> key_value_metadata;
    std::optional<std::string> created_by;
    // One entry per leaf column: true when min_value/max_value follow the type's own order.
    std::vector<bool> column_orders_type_defined;
    bool encrypted = false;
};

struct DataPageHeader {
    int32_t num_values = 0;
    Encoding encoding = Encoding::PLAIN;
    Encoding definition_level_encoding = Encoding::RLE;
    Encoding repetition_level_encoding = Encoding::RLE;
};

struct DictionaryPageHeader {
    int32_t num_values = 0;
    Encoding encoding = Encoding::PLAIN;
};

struct DataPageHeaderV2 {
    int32_t num_values = 0;
    int32_t num_nulls = 0;
    int32_t num_rows = 0;
    Encoding encoding = Encoding::PLAIN;
    int32_t definition_levels_byte_length = 0;
    int32_t repetition_levels_byte_length = 0;
    bool is_compressed = true;
};

struct PageHeader {
    PageType type = PageType::DATA_PAGE;
    int32_t uncompressed_page_size = 0;
    int32_t compressed_page_size = 0;
    std::optional<DataPageHeader> data_page_header;
    std::optional<DictionaryPageHeader> dictionary_page_header;
    std::optional<DataPageHeaderV2> data_page_header_v2;
};

// Decoders. Both throw CorruptData with a reason on malformed input.
FileMetaData DecodeFileMetaData(const uint8_t* data, size_t size);
// Decodes a page header at the start of `data`; sets `header_size` to its encoded length.
PageHeader DecodePageHeader(const uint8_t* data, size_t size, size_t& header_size);

const char* EncodingName(Encoding encoding);
const char* CodecName(Codec codec);
const char* TypeName(Type type);

} // namespace sluice::parquet
