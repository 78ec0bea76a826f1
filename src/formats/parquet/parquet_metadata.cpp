#include "formats/parquet/parquet_metadata.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"

#include <stdexcept>

namespace sluice::parquet {

namespace {

using Field = ThriftCompactReader::Field;

template <class Enum>
Enum ReadEnum(ThriftCompactReader& reader, int32_t max, const char* what) {
    int32_t value = reader.ReadI32();
    if (value < 0 || value > max) {
        throw CorruptData(std::string("invalid ") + what + " " + std::to_string(value));
    }
    return static_cast<Enum>(value);
}

// Reads a list<T> with `read` for each element.
template <class Read>
void ReadList(ThriftCompactReader& reader, Read read) {
    uint8_t element_type;
    uint32_t count = reader.BeginList(element_type);
    for (uint32_t i = 0; i < count; i++) {
        read(element_type);
    }
}

// Runs `on_field` for every field of a struct; fields it does not consume must be skipped by it.
template <class OnField>
void ReadStruct(ThriftCompactReader& reader, OnField on_field) {
    reader.BeginStruct();
    Field field;
    while (reader.NextField(field)) {
        on_field(field);
    }
    reader.EndStruct();
}

TimeUnit ReadTimeUnit(ThriftCompactReader& reader) {
    TimeUnit unit = TimeUnit::MICROS;
    ReadStruct(reader, [&](const Field& field) {
        if (field.id == 1) {
            unit = TimeUnit::MILLIS;
        } else if (field.id == 2) {
            unit = TimeUnit::MICROS;
        } else if (field.id == 3) {
            unit = TimeUnit::NANOS;
        }
        reader.Skip(field.type);
    });
    return unit;
}

LogicalTypeAnnotation ReadLogicalType(ThriftCompactReader& reader) {
    LogicalTypeAnnotation logical;
    ReadStruct(reader, [&](const Field& field) {
        using K = LogicalTypeAnnotation;
        switch (field.id) {
        case 1:
            logical.kind = K::STRING;
            break;
        case 2:
            logical.kind = K::MAP;
            break;
        case 3:
            logical.kind = K::LIST;
            break;
        case 4:
            logical.kind = K::ENUM;
            break;
        case 5:
            logical.kind = K::DECIMAL;
            ReadStruct(reader, [&](const Field& inner) {
                if (inner.id == 1) {
                    logical.scale = reader.ReadI32();
                } else if (inner.id == 2) {
                    logical.precision = reader.ReadI32();
                } else {
                    reader.Skip(inner.type);
                }
            });
            return;
        case 6:
            logical.kind = K::DATE;
            break;
        case 7:
        case 8:
            logical.kind = field.id == 7 ? K::TIME : K::TIMESTAMP;
            ReadStruct(reader, [&](const Field& inner) {
                if (inner.id == 1) {
                    logical.is_adjusted_to_utc = reader.ReadBool(inner);
                } else if (inner.id == 2) {
                    logical.unit = ReadTimeUnit(reader);
                } else {
                    reader.Skip(inner.type);
                }
            });
            return;
        case 10:
            logical.kind = K::INTEGER;
            ReadStruct(reader, [&](const Field& inner) {
                if (inner.id == 1) {
                    logical.bit_width = reader.ReadByte();
                } else if (inner.id == 2) {
                    logical.is_signed = reader.ReadBool(inner);
                } else {
                    reader.Skip(inner.type);
                }
            });
            return;
        case 11:
            logical.kind = K::UNKNOWN;
            break;
        case 12:
            logical.kind = K::JSON;
            break;
        case 13:
            logical.kind = K::BSON;
            break;
        case 14:
            logical.kind = K::UUID;
            break;
        case 15:
            logical.kind = K::FLOAT16;
            break;
        default:
            logical.kind = K::OTHER;
            logical.other_id = field.id;
            break;
        }
        reader.Skip(field.type);
    });
    return logical;
}

Statistics ReadStatistics(ThriftCompactReader& reader) {
    Statistics statistics;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            statistics.max = reader.ReadBinary();
            break;
        case 2:
            statistics.min = reader.ReadBinary();
            break;
        case 3:
            statistics.null_count = reader.ReadI64();
            break;
        case 4:
            statistics.distinct_count = reader.ReadI64();
            break;
        case 5:
            statistics.max_value = reader.ReadBinary();
            break;
        case 6:
            statistics.min_value = reader.ReadBinary();
            break;
        default:
            reader.Skip(field.type);
        }
    });
    return statistics;
}

SchemaElement ReadSchemaElement(ThriftCompactReader& reader) {
    SchemaElement element;
    bool has_name = false;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            element.type = ReadEnum<Type>(reader, 7, "physical type");
            break;
        case 2:
            element.type_length = reader.ReadI32();
            break;
        case 3:
            element.repetition = ReadEnum<Repetition>(reader, 2, "repetition type");
            break;
        case 4:
            element.name = reader.ReadBinary();
            has_name = true;
            break;
        case 5:
            element.num_children = reader.ReadI32();
            break;
        case 6: {
            int32_t value = reader.ReadI32();
            element.converted_type =
                value >= 0 && value <= 21 ? static_cast<ConvertedType>(value) : ConvertedType::NONE;
            break;
        }
        case 7:
            element.scale = reader.ReadI32();
            break;
        case 8:
            element.precision = reader.ReadI32();
            break;
        case 10:
            element.logical_type = ReadLogicalType(reader);
            break;
        default:
            reader.Skip(field.type);
        }
    });
    if (!has_name) {
        throw CorruptData("schema element without a name");
    }
    return element;
}

ColumnMetaData ReadColumnMetaData(ThriftCompactReader& reader) {
    ColumnMetaData meta;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            meta.type = ReadEnum<Type>(reader, 7, "physical type");
            break;
        case 2:
            ReadList(reader, [&](uint8_t) {
                meta.encodings.push_back(static_cast<Encoding>(reader.ReadI32()));
            });
            break;
        case 3:
            ReadList(reader, [&](uint8_t) { meta.path_in_schema.push_back(reader.ReadBinary()); });
            break;
        case 4:
            meta.codec = static_cast<Codec>(reader.ReadI32());
            break;
        case 5:
            meta.num_values = reader.ReadI64();
            break;
        case 6:
            meta.total_uncompressed_size = reader.ReadI64();
            break;
        case 7:
            meta.total_compressed_size = reader.ReadI64();
            break;
        case 9:
            meta.data_page_offset = reader.ReadI64();
            break;
        case 10:
            meta.index_page_offset = reader.ReadI64();
            break;
        case 11:
            meta.dictionary_page_offset = reader.ReadI64();
            break;
        case 12:
            meta.statistics = ReadStatistics(reader);
            break;
        // Bloom filter location (parquet-format 2.8 on). Some old writers used these ids for
        // other things: only fields of the expected type are taken.
        case 14:
            if (field.type == ThriftCompactReader::kI64) {
                meta.bloom_filter_offset = reader.ReadI64();
            } else {
                reader.Skip(field.type);
            }
            break;
        case 15:
            if (field.type == ThriftCompactReader::kI32) {
                meta.bloom_filter_length = reader.ReadI32();
            } else {
                reader.Skip(field.type);
            }
            break;
        default:
            reader.Skip(field.type);
        }
    });
    return meta;
}

ColumnChunk ReadColumnChunk(ThriftCompactReader& reader) {
    ColumnChunk chunk;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            chunk.file_path = reader.ReadBinary();
            break;
        case 2:
            chunk.file_offset = reader.ReadI64();
            break;
        case 3:
            chunk.meta_data = ReadColumnMetaData(reader);
            break;
        case 4:
            chunk.offset_index_offset = reader.ReadI64();
            break;
        case 5:
            chunk.offset_index_length = reader.ReadI32();
            break;
        case 6:
            chunk.column_index_offset = reader.ReadI64();
            break;
        case 7:
            chunk.column_index_length = reader.ReadI32();
            break;
        case 8:
        case 9:
            chunk.encrypted = true;
            reader.Skip(field.type);
            break;
        default:
            reader.Skip(field.type);
        }
    });
    return chunk;
}

RowGroup ReadRowGroup(ThriftCompactReader& reader) {
    RowGroup group;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            ReadList(reader, [&](uint8_t) { group.columns.push_back(ReadColumnChunk(reader)); });
            break;
        case 2:
            group.total_byte_size = reader.ReadI64();
            break;
        case 3:
            group.num_rows = reader.ReadI64();
            break;
        case 5:
            group.file_offset = reader.ReadI64();
            break;
        case 6:
            group.total_compressed_size = reader.ReadI64();
            break;
        default:
            reader.Skip(field.type);
        }
    });
    return group;
}

} // namespace

FileMetaData DecodeFileMetaData(const uint8_t* data, size_t size) {
    ThriftCompactReader reader(data, size);
    FileMetaData metadata;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            metadata.version = reader.ReadI32();
            break;
        case 2:
            ReadList(reader,
                     [&](uint8_t) { metadata.schema.push_back(ReadSchemaElement(reader)); });
            break;
        case 3:
            metadata.num_rows = reader.ReadI64();
            break;
        case 4:
            ReadList(reader, [&](uint8_t) { metadata.row_groups.push_back(ReadRowGroup(reader)); });
            break;
        case 5:
            ReadList(reader, [&](uint8_t) {
                KeyValue entry;
                ReadStruct(reader, [&](const Field& inner) {
                    if (inner.id == 1) {
                        entry.key = reader.ReadBinary();
                    } else if (inner.id == 2) {
                        entry.value = reader.ReadBinary();
                    } else {
                        reader.Skip(inner.type);
                    }
                });
                metadata.key_value_metadata.push_back(std::move(entry));
            });
            break;
        case 6:
            metadata.created_by = reader.ReadBinary();
            break;
        case 7:
            // list<ColumnOrder>: a union whose member 1 is TYPE_DEFINED_ORDER.
            ReadList(reader, [&](uint8_t) {
                bool type_defined = false;
                ReadStruct(reader, [&](const Field& inner) {
                    type_defined = type_defined || inner.id == 1;
                    reader.Skip(inner.type);
                });
                metadata.column_orders_type_defined.push_back(type_defined);
            });
            break;
        case 8:
            metadata.encrypted = true;
            reader.Skip(field.type);
            break;
        default:
            reader.Skip(field.type);
        }
    });
    return metadata;
}

PageHeader DecodePageHeader(const uint8_t* data, size_t size, size_t& header_size) {
    ThriftCompactReader reader(data, size);
    PageHeader header;
    bool has_type = false;
    ReadStruct(reader, [&](const Field& field) {
        switch (field.id) {
        case 1:
            header.type = ReadEnum<PageType>(reader, 3, "page type");
            has_type = true;
            break;
        case 2:
            header.uncompressed_page_size = reader.ReadI32();
            break;
        case 3:
            header.compressed_page_size = reader.ReadI32();
            break;
        case 5: {
            DataPageHeader page;
            ReadStruct(reader, [&](const Field& inner) {
                switch (inner.id) {
                case 1:
                    page.num_values = reader.ReadI32();
                    break;
                case 2:
                    page.encoding = static_cast<Encoding>(reader.ReadI32());
                    break;
                case 3:
                    page.definition_level_encoding = static_cast<Encoding>(reader.ReadI32());
                    break;
                case 4:
                    page.repetition_level_encoding = static_cast<Encoding>(reader.ReadI32());
                    break;
                default:
                    reader.Skip(inner.type);
                }
            });
            header.data_page_header = page;
            break;
        }
        case 7: {
            DictionaryPageHeader page;
            ReadStruct(reader, [&](const Field& inner) {
                if (inner.id == 1) {
                    page.num_values = reader.ReadI32();
                } else if (inner.id == 2) {
                    page.encoding = static_cast<Encoding>(reader.ReadI32());
                } else {
                    reader.Skip(inner.type);
                }
            });
            header.dictionary_page_header = page;
            break;
        }
        case 8: {
            DataPageHeaderV2 page;
            ReadStruct(reader, [&](const Field& inner) {
                switch (inner.id) {
                case 1:
                    page.num_values = reader.ReadI32();
                    break;
                case 2:
                    page.num_nulls = reader.ReadI32();
                    break;
                case 3:
                    page.num_rows = reader.ReadI32();
                    break;
                case 4:
                    page.encoding = static_cast<Encoding>(reader.ReadI32());
                    break;
                case 5:
                    page.definition_levels_byte_length = reader.ReadI32();
                    break;
                case 6:
                    page.repetition_levels_byte_length = reader.ReadI32();
                    break;
                case 7:
                    page.is_compressed = reader.ReadBool(inner);
                    break;
                default:
                    reader.Skip(inner.type);
                }
            });
            header.data_page_header_v2 = page;
            break;
        }
        default:
            reader.Skip(field.type);
        }
    });
    if (!has_type) {
        throw CorruptData("page header without a page type");
    }
    if (header.compressed_page_size < 0 || header.uncompressed_page_size < 0) {
        throw CorruptData("page header with a negative page size");
    }
    header_size = reader.position();
    return header;
}

const char* EncodingName(Encoding encoding) {
    switch (encoding) {
    case Encoding::PLAIN:
        return "PLAIN";
    case Encoding::PLAIN_DICTIONARY:
        return "PLAIN_DICTIONARY";
    case Encoding::RLE:
        return "RLE";
    case Encoding::BIT_PACKED:
        return "BIT_PACKED";
    case Encoding::DELTA_BINARY_PACKED:
        return "DELTA_BINARY_PACKED";
    case Encoding::DELTA_LENGTH_BYTE_ARRAY:
        return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DELTA_BYTE_ARRAY:
        return "DELTA_BYTE_ARRAY";
    case Encoding::RLE_DICTIONARY:
        return "RLE_DICTIONARY";
    case Encoding::BYTE_STREAM_SPLIT:
        return "BYTE_STREAM_SPLIT";
    }
    return "UNKNOWN_ENCODING";
}

const char* CodecName(Codec codec) {
    switch (codec) {
    case Codec::UNCOMPRESSED:
        return "UNCOMPRESSED";
    case Codec::SNAPPY:
        return "SNAPPY";
    case Codec::GZIP:
        return "GZIP";
    case Codec::LZO:
        return "LZO";
    case Codec::BROTLI:
        return "BROTLI";
    case Codec::LZ4:
        return "LZ4";
    case Codec::ZSTD:
        return "ZSTD";
    case Codec::LZ4_RAW:
        return "LZ4_RAW";
    }
    return "UNKNOWN_CODEC";
}

const char* TypeName(Type type) {
    switch (type) {
    case Type::BOOLEAN:
        return "BOOLEAN";
    case Type::INT32:
        return "INT32";
    case Type::INT64:
        return "INT64";
    case Type::INT96:
        return "INT96";
    case Type::FLOAT:
        return "FLOAT";
    case Type::DOUBLE:
        return "DOUBLE";
    case Type::BYTE_ARRAY:
        return "BYTE_ARRAY";
    case Type::FIXED_LEN_BYTE_ARRAY:
        return "FIXED_LEN_BYTE_ARRAY";
    }
    return "UNKNOWN_TYPE";
}

} // namespace sluice::parquet
