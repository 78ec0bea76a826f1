#include "formats/parquet/parquet_metadata_tables.hpp"

#include "formats/parquet/parquet_statistics.hpp"

#include <algorithm>

namespace sluice::parquet {

namespace {

const char* ConvertedTypeName(ConvertedType type) {
    static const char* kNames[] = {"UTF8",
                                   "MAP",
                                   "MAP_KEY_VALUE",
                                   "LIST",
                                   "ENUM",
                                   "DECIMAL",
                                   "DATE",
                                   "TIME_MILLIS",
                                   "TIME_MICROS",
                                   "TIMESTAMP_MILLIS",
                                   "TIMESTAMP_MICROS",
                                   "UINT_8",
                                   "UINT_16",
                                   "UINT_32",
                                   "UINT_64",
                                   "INT_8",
                                   "INT_16",
                                   "INT_32",
                                   "INT_64",
                                   "JSON",
                                   "BSON",
                                   "INTERVAL"};
    int index = static_cast<int>(type);
    return index >= 0 && index <= 21 ? kNames[index] : nullptr;
}

const char* RepetitionName(Repetition repetition) {
    switch (repetition) {
    case Repetition::REQUIRED:
        return "REQUIRED";
    case Repetition::OPTIONAL:
        return "OPTIONAL";
    case Repetition::REPEATED:
        return "REPEATED";
    }
    return nullptr;
}

Value Text(const char* text) {
    return text ? Value::Varchar(text) : Value::Null(LogicalTypeId::VARCHAR);
}
Value Number(int64_t number) {
    return Value::Integer(LogicalTypeId::BIGINT, number);
}
Value Number(const std::optional<int64_t>& number) {
    return number ? Number(*number) : Value::Null(LogicalTypeId::BIGINT);
}

// A statistics value as text in the column's type, when the column is a flat one we read.
Value StatisticsText(const ParquetColumn* column, const std::optional<std::string>& bytes) {
    if (!bytes) {
        return Value::Null(LogicalTypeId::VARCHAR);
    }
    if (column) {
        ColumnChunk chunk;
        ColumnMetaData meta;
        Statistics statistics;
        statistics.min_value = *bytes;
        statistics.max_value = *bytes;
        meta.statistics = statistics;
        chunk.meta_data = meta;
        ColumnStatistics decoded = ReadColumnStatistics(*column, chunk, 1);
        if (decoded.min) {
            return Value::Varchar(decoded.min->ToString());
        }
    }
    return Value::Null(LogicalTypeId::VARCHAR);
}

} // namespace

MetadataTable ParquetMetadataTable(const ParquetFileReader& file) {
    MetadataTable table;
    table.names = {"file_name",
                   "row_group_id",
                   "row_group_num_rows",
                   "row_group_num_columns",
                   "row_group_bytes",
                   "column_id",
                   "file_offset",
                   "num_values",
                   "path_in_schema",
                   "type",
                   "stats_min",
                   "stats_max",
                   "stats_null_count",
                   "stats_distinct_count",
                   "stats_min_value",
                   "stats_max_value",
                   "compression",
                   "encodings",
                   "index_page_offset",
                   "dictionary_page_offset",
                   "data_page_offset",
                   "total_compressed_size",
                   "total_uncompressed_size",
                   "row_group_compressed_bytes"};
    for (const auto& name : table.names) {
        bool text = name == "file_name" || name == "path_in_schema" || name == "type" ||
                    name.rfind("stats_m", 0) == 0 || name == "compression" || name == "encodings";
        table.types.push_back(text ? LogicalTypeId::VARCHAR : LogicalTypeId::BIGINT);
    }
    // Leaf index -> the flat column (or leaf of a nested one) it is, for decoding statistics.
    std::vector<const ParquetColumn*> flat(1 << 16, nullptr);
    auto add = [&](const ParquetColumn& column) {
        if (column.unsupported.empty() && column.leaf_index < flat.size()) {
            flat[column.leaf_index] = &column;
        }
    };
    for (const auto& column : file.columns()) {
        if (column.nested) {
            std::for_each(column.leaves.begin(), column.leaves.end(), add);
        } else {
            add(column);
        }
    }
    const auto& groups = file.metadata().row_groups;
    for (size_t g = 0; g < groups.size(); g++) {
        const RowGroup& group = groups[g];
        for (size_t c = 0; c < group.columns.size(); c++) {
            const ColumnChunk& chunk = group.columns[c];
            std::vector<Value> row = {Value::Varchar(file.path()),
                                      Number(int64_t(g)),
                                      Number(group.num_rows),
                                      Number(int64_t(group.columns.size())),
                                      Number(group.total_byte_size),
                                      Number(int64_t(c)),
                                      chunk.file_offset ? Number(chunk.file_offset)
                                                        : Number(std::nullopt)};
            const ColumnMetaData* meta = chunk.meta_data ? &*chunk.meta_data : nullptr;
            const ParquetColumn* column = c < flat.size() ? flat[c] : nullptr;
            const Statistics* statistics = meta && meta->statistics ? &*meta->statistics : nullptr;
            std::string path, encodings;
            if (meta) {
                for (size_t i = 0; i < meta->path_in_schema.size(); i++) {
                    path += (i ? "." : "") + meta->path_in_schema[i];
                }
                for (size_t i = 0; i < meta->encodings.size(); i++) {
                    encodings += std::string(i ? ", " : "") + EncodingName(meta->encodings[i]);
                }
            }
            auto legacy = [&](const std::optional<std::string>& bytes) {
                // Deprecated fields are shown where their order is the type's own.
                bool usable = column && (column->physical != Type::BYTE_ARRAY &&
                                         column->physical != Type::FIXED_LEN_BYTE_ARRAY);
                return usable ? StatisticsText(column, bytes) : Value::Null(LogicalTypeId::VARCHAR);
            };
            row.push_back(meta ? Number(meta->num_values) : Number(std::nullopt));
            row.push_back(meta ? Value::Varchar(path) : Text(nullptr));
            row.push_back(meta ? Text(TypeName(meta->type)) : Text(nullptr));
            row.push_back(statistics ? legacy(statistics->min) : Text(nullptr));
            row.push_back(statistics ? legacy(statistics->max) : Text(nullptr));
            row.push_back(statistics ? Number(statistics->null_count) : Number(std::nullopt));
            row.push_back(statistics ? Number(statistics->distinct_count) : Number(std::nullopt));
            row.push_back(statistics ? StatisticsText(column, statistics->min_value)
                                     : Text(nullptr));
            row.push_back(statistics ? StatisticsText(column, statistics->max_value)
                                     : Text(nullptr));
            row.push_back(meta ? Text(CodecName(meta->codec)) : Text(nullptr));
            row.push_back(meta ? Value::Varchar(encodings) : Text(nullptr));
            row.push_back(meta ? Number(meta->index_page_offset) : Number(std::nullopt));
            row.push_back(meta ? Number(meta->dictionary_page_offset) : Number(std::nullopt));
            row.push_back(meta ? Number(meta->data_page_offset) : Number(std::nullopt));
            row.push_back(meta ? Number(meta->total_compressed_size) : Number(std::nullopt));
            row.push_back(meta ? Number(meta->total_uncompressed_size) : Number(std::nullopt));
            row.push_back(Number(group.total_compressed_size));
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

MetadataTable ParquetSchemaTable(const ParquetFileReader& file) {
    MetadataTable table;
    table.names = {"file_name",       "name",         "type",           "type_length",
                   "repetition_type", "num_children", "converted_type", "scale",
                   "precision",       "field_id",     "sluice_type",    "column_id"};
    table.types = {LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR,
                   LogicalTypeId::VARCHAR, LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT,
                   LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT,  LogicalTypeId::BIGINT,
                   LogicalTypeId::BIGINT,  LogicalTypeId::VARCHAR, LogicalTypeId::BIGINT};
    const auto& schema = file.metadata().schema;
    // Top-level columns start at these schema positions.
    std::vector<std::pair<size_t, const ParquetColumn*>> top_level;
    size_t position = 1;
    for (const auto& column : file.columns()) {
        top_level.emplace_back(position, &column);
        // Skip the column's subtree.
        size_t pending = 1;
        while (pending > 0 && position < schema.size()) {
            pending += static_cast<size_t>(std::max(0, schema[position].num_children));
            pending--;
            position++;
        }
    }
    for (size_t i = 0; i < schema.size(); i++) {
        const SchemaElement& element = schema[i];
        const ParquetColumn* column = nullptr;
        for (const auto& [start, candidate] : top_level) {
            if (start == i) {
                column = candidate;
            }
        }
        bool fixed = element.type == Type::FIXED_LEN_BYTE_ARRAY;
        bool decimal = element.converted_type == ConvertedType::DECIMAL;
        table.rows.push_back(
            {Value::Varchar(file.path()), Value::Varchar(element.name),
             element.type ? Text(TypeName(*element.type)) : Text(nullptr),
             fixed ? Value::Varchar(std::to_string(element.type_length)) : Text(nullptr),
             element.repetition ? Text(RepetitionName(*element.repetition)) : Text(nullptr),
             element.num_children > 0 ? Number(int64_t(element.num_children))
                                      : Number(std::nullopt),
             Text(ConvertedTypeName(element.converted_type)),
             decimal ? Number(int64_t(element.scale)) : Number(std::nullopt),
             decimal ? Number(int64_t(element.precision)) : Number(std::nullopt),
             Number(std::nullopt),
             column && column->unsupported.empty() ? Value::Varchar(column->type.ToString())
                                                   : Text(nullptr),
             Number(int64_t(i))});
    }
    return table;
}

void AppendTable(MetadataTable& table, MetadataTable file) {
    if (table.names.empty()) {
        table = std::move(file);
        return;
    }
    for (auto& row : file.rows) {
        table.rows.push_back(std::move(row));
    }
}

} // namespace sluice::parquet
