#include "formats/parquet/parquet_schema.hpp"

#include "formats/parquet/corrupt_data.hpp"

#include <stdexcept>

namespace sluice::parquet {

namespace {

using Kind = LogicalTypeAnnotation::Kind;

void SetDecimal(ParquetColumn& column, int32_t precision, int32_t scale, Conversion conversion) {
    if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
        column.unsupported = "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) +
                             ") (Sluice decimals hold at most 38 digits)";
        return;
    }
    column.type =
        LogicalType::Decimal(static_cast<uint8_t>(precision), static_cast<uint8_t>(scale));
    column.conversion = conversion;
}

} // namespace

void MapPrimitive(const SchemaElement& element, ParquetColumn& column) {
    const LogicalTypeAnnotation& logical = element.logical_type;
    ConvertedType converted = element.converted_type;
    bool is_decimal = logical.kind == Kind::DECIMAL || converted == ConvertedType::DECIMAL;
    int32_t precision = logical.kind == Kind::DECIMAL ? logical.precision : element.precision;
    int32_t scale = logical.kind == Kind::DECIMAL ? logical.scale : element.scale;
    bool is_unsigned = (logical.kind == Kind::INTEGER && !logical.is_signed) ||
                       converted == ConvertedType::UINT_8 || converted == ConvertedType::UINT_16 ||
                       converted == ConvertedType::UINT_32 || converted == ConvertedType::UINT_64;
    auto unit_of = [&](TimeUnit fallback) {
        return logical.kind == Kind::TIME || logical.kind == Kind::TIMESTAMP ? logical.unit
                                                                             : fallback;
    };
    switch (column.physical) {
    case Type::BOOLEAN:
        column.type = LogicalTypeId::BOOLEAN;
        column.conversion = Conversion::Boolean;
        return;
    case Type::INT32: {
        if (is_decimal) {
            SetDecimal(column, precision, scale, Conversion::DecimalFromInt32);
            return;
        }
        if (is_unsigned) {
            int width = logical.kind == Kind::INTEGER         ? logical.bit_width
                        : converted == ConvertedType::UINT_8  ? 8
                        : converted == ConvertedType::UINT_16 ? 16
                                                              : 32;
            column.type = width == 8    ? LogicalTypeId::UTINYINT
                          : width == 16 ? LogicalTypeId::USMALLINT
                                        : LogicalTypeId::UINTEGER;
            column.conversion = width == 8    ? Conversion::UInt8
                                : width == 16 ? Conversion::UInt16
                                              : Conversion::UInt32;
            return;
        }
        int bit_width = logical.kind == Kind::INTEGER        ? logical.bit_width
                        : converted == ConvertedType::INT_8  ? 8
                        : converted == ConvertedType::INT_16 ? 16
                                                             : 32;
        if (logical.kind == Kind::DATE || converted == ConvertedType::DATE) {
            column.type = LogicalTypeId::DATE;
            column.conversion = Conversion::Int32;
        } else if (logical.kind == Kind::TIME && logical.is_adjusted_to_utc) {
            column.unsupported = "TIME WITH TIME ZONE type";
        } else if (logical.kind == Kind::TIME || converted == ConvertedType::TIME_MILLIS) {
            column.type = LogicalTypeId::TIME;
            column.conversion = Conversion::TimeMillis;
        } else if (bit_width == 8) {
            column.type = LogicalTypeId::TINYINT;
            column.conversion = Conversion::Int32ToInt8;
        } else if (bit_width == 16) {
            column.type = LogicalTypeId::SMALLINT;
            column.conversion = Conversion::Int32ToInt16;
        } else {
            column.type = LogicalTypeId::INTEGER;
            column.conversion = Conversion::Int32;
        }
        return;
    }
    case Type::INT64:
        if (is_decimal) {
            SetDecimal(column, precision, scale, Conversion::DecimalFromInt64);
            return;
        }
        if (is_unsigned) {
            column.type = LogicalTypeId::UBIGINT;
            column.conversion = Conversion::UInt64;
            return;
        }
        if (logical.kind == Kind::TIMESTAMP || converted == ConvertedType::TIMESTAMP_MILLIS ||
            converted == ConvertedType::TIMESTAMP_MICROS) {
            TimeUnit unit = unit_of(
                converted == ConvertedType::TIMESTAMP_MILLIS ? TimeUnit::MILLIS : TimeUnit::MICROS);
            // Instants (isAdjustedToUTC) are TIMESTAMP WITH TIME ZONE, as in DuckDB.
            bool instant = logical.kind == Kind::TIMESTAMP && logical.is_adjusted_to_utc;
            column.type = instant ? LogicalTypeId::TIMESTAMP_TZ : LogicalTypeId::TIMESTAMP;
            if (!instant && unit == TimeUnit::NANOS) { // local nanoseconds keep their precision
                column.type = LogicalTypeId::TIMESTAMP_NS;
                column.conversion = Conversion::Int64;
                return;
            }
            column.conversion = unit == TimeUnit::MILLIS   ? Conversion::TimestampMillis
                                : unit == TimeUnit::MICROS ? Conversion::TimestampMicros
                                                           : Conversion::TimestampNanos;
        } else if (logical.kind == Kind::TIME && logical.is_adjusted_to_utc) {
            column.unsupported = "TIME WITH TIME ZONE type";
        } else if (logical.kind == Kind::TIME || converted == ConvertedType::TIME_MICROS) {
            TimeUnit unit = unit_of(TimeUnit::MICROS);
            column.type = LogicalTypeId::TIME;
            column.conversion =
                unit == TimeUnit::NANOS ? Conversion::TimeNanos : Conversion::TimeMicros;
        } else {
            column.type = LogicalTypeId::BIGINT;
            column.conversion = Conversion::Int64;
        }
        return;
    case Type::INT96:
        column.type = LogicalTypeId::TIMESTAMP;
        column.conversion = Conversion::Int96Timestamp;
        return;
    case Type::FLOAT:
        column.type = LogicalTypeId::FLOAT;
        column.conversion = Conversion::Float;
        return;
    case Type::DOUBLE:
        column.type = LogicalTypeId::DOUBLE;
        column.conversion = Conversion::Double;
        return;
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY:
        if (is_decimal) {
            SetDecimal(column, precision, scale, Conversion::DecimalFromBytes);
            return;
        }
        if (logical.kind == Kind::FLOAT16) {
            if (column.physical != Type::FIXED_LEN_BYTE_ARRAY || column.type_length != 2) {
                throw CorruptData("FLOAT16 column \"" + column.name +
                                  "\" is not a FIXED_LEN_BYTE_ARRAY(2)");
            }
            column.type = LogicalTypeId::FLOAT;
            column.conversion = Conversion::Float16;
            return;
        }
        if (logical.kind == Kind::UUID) {
            if (column.physical != Type::FIXED_LEN_BYTE_ARRAY || column.type_length != 16) {
                throw CorruptData("UUID column \"" + column.name +
                                  "\" is not a FIXED_LEN_BYTE_ARRAY(16)");
            }
            column.type = LogicalTypeId::UUID;
            column.conversion = Conversion::Uuid;
            return;
        }
        if (logical.kind == Kind::OTHER && (logical.other_id == 17 || logical.other_id == 18)) {
            column.unsupported = logical.other_id == 17 ? "GEOMETRY type" : "GEOGRAPHY type";
            return;
        }
        if (logical.kind == Kind::STRING || logical.kind == Kind::ENUM ||
            logical.kind == Kind::JSON || converted == ConvertedType::UTF8 ||
            converted == ConvertedType::ENUM || converted == ConvertedType::JSON) {
            column.type = LogicalTypeId::VARCHAR;
            column.conversion = Conversion::Varchar;
        } else {
            column.type = LogicalTypeId::BLOB;
            column.conversion = Conversion::Blob;
        }
        return;
    }
}

namespace {

// Counts the leaves below schema element `index` (inclusive), validating the tree.
size_t CountLeaves(const std::vector<SchemaElement>& schema, size_t& index, int depth) {
    if (index >= schema.size()) {
        throw CorruptData("schema tree claims more elements than the schema list holds");
    }
    if (depth > 64) {
        throw CorruptData("schema nested more than 64 levels deep");
    }
    const SchemaElement& element = schema[index++];
    if (element.num_children <= 0) {
        return 1;
    }
    size_t leaves = 0;
    for (int32_t i = 0; i < element.num_children; i++) {
        leaves += CountLeaves(schema, index, depth + 1);
    }
    return leaves;
}

} // namespace

std::vector<ParquetColumn> BuildColumns(const FileMetaData& metadata) {
    const auto& schema = metadata.schema;
    if (schema.empty()) {
        throw CorruptData("the schema is empty");
    }
    if (schema[0].num_children < 0) {
        throw CorruptData("the schema root has a negative child count");
    }
    std::vector<ParquetColumn> columns;
    size_t index = 1;
    size_t leaf = 0;
    for (int32_t child = 0; child < schema[0].num_children; child++) {
        if (index >= schema.size()) {
            throw CorruptData("schema root claims " + std::to_string(schema[0].num_children) +
                              " columns, the schema holds fewer");
        }
        const SchemaElement& element = schema[index];
        ParquetColumn column;
        column.name = element.name;
        column.leaf_index = leaf;
        size_t start = index;
        size_t leaves = CountLeaves(schema, index, 1);
        if (element.num_children > 0 || element.repetition == Repetition::REPEATED) {
            size_t end = start;
            BuildNestedColumn(schema, end, leaf, column);
            if (end != index) {
                throw CorruptData("nested column \"" + element.name +
                                  "\" does not match its schema subtree");
            }
        } else if (!element.type) {
            throw CorruptData("leaf column \"" + element.name + "\" has no physical type");
        } else {
            column.physical = *element.type;
            column.type_length = element.type_length;
            column.max_definition_level = element.repetition == Repetition::REQUIRED ? 0 : 1;
            if (column.physical == Type::FIXED_LEN_BYTE_ARRAY && column.type_length <= 0) {
                throw CorruptData("FIXED_LEN_BYTE_ARRAY column \"" + element.name +
                                  "\" has length " + std::to_string(column.type_length));
            }
            MapPrimitive(element, column);
        }
        leaf += leaves;
        columns.push_back(std::move(column));
    }
    if (index != schema.size()) {
        throw CorruptData("schema holds " + std::to_string(schema.size() - index) +
                          " elements outside the tree");
    }
    for (const auto& group : metadata.row_groups) {
        if (group.columns.size() != leaf) {
            throw CorruptData("a row group has " + std::to_string(group.columns.size()) +
                              " column chunks, the schema has " + std::to_string(leaf) +
                              " leaf columns");
        }
    }
    return columns;
}

} // namespace sluice::parquet
