// libFuzzer target: arbitrary bytes as one column chunk (page headers and pages). The first two
// bytes choose the column: physical type and annotation, nullability and codec.
#include "common/exception.hpp"
#include "expected_errors.hpp"
#include "formats/parquet/column_reader.hpp"

using namespace sluice;
using namespace sluice::parquet;

namespace {

struct ColumnChoice {
    Type physical;
    Conversion conversion;
    LogicalTypeId type;
    int32_t type_length;
};

const ColumnChoice kChoices[] = {
    {Type::BOOLEAN, Conversion::Boolean, LogicalTypeId::BOOLEAN, 0},
    {Type::INT32, Conversion::Int32, LogicalTypeId::INTEGER, 0},
    {Type::INT32, Conversion::Int32ToInt8, LogicalTypeId::TINYINT, 0},
    {Type::INT64, Conversion::Int64, LogicalTypeId::BIGINT, 0},
    {Type::INT64, Conversion::TimestampMillis, LogicalTypeId::TIMESTAMP, 0},
    {Type::INT96, Conversion::Int96Timestamp, LogicalTypeId::TIMESTAMP, 0},
    {Type::FLOAT, Conversion::Float, LogicalTypeId::FLOAT, 0},
    {Type::DOUBLE, Conversion::Double, LogicalTypeId::DOUBLE, 0},
    {Type::BYTE_ARRAY, Conversion::Varchar, LogicalTypeId::VARCHAR, 0},
    {Type::BYTE_ARRAY, Conversion::Blob, LogicalTypeId::BLOB, 0},
    {Type::BYTE_ARRAY, Conversion::DecimalFromBytes, LogicalTypeId::DECIMAL, 0},
    {Type::FIXED_LEN_BYTE_ARRAY, Conversion::DecimalFromBytes, LogicalTypeId::DECIMAL, 11},
    {Type::FIXED_LEN_BYTE_ARRAY, Conversion::Float16, LogicalTypeId::FLOAT, 2},
    {Type::FIXED_LEN_BYTE_ARRAY, Conversion::Blob, LogicalTypeId::BLOB, 5},
};

const Codec kCodecs[] = {Codec::UNCOMPRESSED, Codec::SNAPPY, Codec::GZIP,  Codec::ZSTD,
                         Codec::LZ4_RAW,      Codec::LZ4,    Codec::BROTLI};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) {
        return 0;
    }
    const ColumnChoice& choice = kChoices[data[0] % (sizeof(kChoices) / sizeof(kChoices[0]))];
    ParquetColumn column;
    column.name = "fuzzed";
    column.physical = choice.physical;
    column.conversion = choice.conversion;
    column.type_length = choice.type_length;
    column.type = choice.type == LogicalTypeId::DECIMAL ? LogicalType::Decimal(25, 2)
                                                        : LogicalType(choice.type);
    column.max_definition_level = (data[1] & 1) ? 1 : 0;
    Codec codec = kCodecs[(data[1] >> 1) % (sizeof(kCodecs) / sizeof(kCodecs[0]))];
    ByteBuffer chunk = ByteBuffer::Allocate(size - 2);
    std::copy(data + 2, data + size, chunk.get());
    try {
        ColumnReader reader(column, codec, chunk, 0, "fuzz");
        Vector out(column.type);
        for (int batches = 0; batches < 200; batches++) {
            out.Reset();
            reader.Read(kVectorSize, out);
        }
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
    }
    return 0;
}
