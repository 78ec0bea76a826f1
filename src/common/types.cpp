#include "common/types.hpp"

#include "common/exception.hpp"
#include "common/sql_keywords.hpp"
#include "common/string_type.hpp"

#include <cctype>

namespace sluice {

LogicalType LogicalType::Decimal(uint8_t width, uint8_t scale) {
    if (width < 1 || width > kMaxDecimalWidth) {
        throw Exception(ErrorKind::InvalidInput,
                        "DECIMAL width must be between 1 and 38, got " + std::to_string(width));
    }
    if (scale > width) {
        throw Exception(ErrorKind::InvalidInput, "DECIMAL scale " + std::to_string(scale) +
                                                     " cannot be larger than width " +
                                                     std::to_string(width));
    }
    LogicalType type(LogicalTypeId::DECIMAL);
    type.width_ = width;
    type.scale_ = scale;
    return type;
}

LogicalType LogicalType::List(const LogicalType& element) {
    LogicalType type(LogicalTypeId::LIST);
    type.children_ = std::make_shared<const std::vector<StructField>>(
        std::vector<StructField>{StructField{"", element}});
    return type;
}

LogicalType LogicalType::Struct(std::vector<StructField> fields) {
    LogicalType type(LogicalTypeId::STRUCT);
    type.children_ = std::make_shared<const std::vector<StructField>>(std::move(fields));
    return type;
}

LogicalType LogicalType::Map(const LogicalType& key, const LogicalType& value) {
    LogicalType type(LogicalTypeId::MAP);
    LogicalType entry = Struct({StructField{"key", key}, StructField{"value", value}});
    type.children_ = std::make_shared<const std::vector<StructField>>(
        std::vector<StructField>{StructField{"", entry}});
    return type;
}

const LogicalType& LogicalType::element() const {
    if ((id_ != LogicalTypeId::LIST && id_ != LogicalTypeId::MAP) || !children_) {
        throw Exception(ErrorKind::Internal, "element type asked of " + ToString());
    }
    return (*children_)[0].type;
}

const std::vector<StructField>& LogicalType::fields() const {
    if (id_ != LogicalTypeId::STRUCT || !children_) {
        throw Exception(ErrorKind::Internal, "struct fields asked of " + ToString());
    }
    return *children_;
}

const LogicalType& LogicalType::key() const {
    return element().fields()[0].type;
}

const LogicalType& LogicalType::value() const {
    return element().fields()[1].type;
}

namespace {

// STRUCT(a INTEGER, ...), MAP(K, V) or T[], each child spelled by `spell`.
template <class Spell>
std::string NestedName(const LogicalType& type, const char* struct_word, const char* map_word,
                       Spell spell) {
    if (type.id() == LogicalTypeId::LIST) {
        return spell(type.element()) + "[]";
    }
    if (type.id() == LogicalTypeId::MAP) {
        return std::string(map_word) + "(" + spell(type.key()) + ", " + spell(type.value()) + ")";
    }
    std::string name = std::string(struct_word) + "(";
    for (size_t i = 0; i < type.fields().size(); i++) {
        name += (i ? ", " : "") + QuoteIdentifierIfNeeded(type.fields()[i].name, true) + " " +
                spell(type.fields()[i].type);
    }
    return name + ")";
}

} // namespace

bool LogicalType::IsInteger() const {
    switch (id_) {
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::HUGEINT:
        return true;
    default:
        return IsUnsigned();
    }
}

bool LogicalType::IsUnsigned() const {
    return id_ == LogicalTypeId::UTINYINT || id_ == LogicalTypeId::USMALLINT ||
           id_ == LogicalTypeId::UINTEGER || id_ == LogicalTypeId::UBIGINT;
}

bool LogicalType::IsNumeric() const {
    return IsInteger() || IsFloating() || id_ == LogicalTypeId::DECIMAL;
}

std::string LogicalType::ToString() const {
    switch (id_) {
    case LogicalTypeId::SQLNULL:
        return "\"NULL\"";
    case LogicalTypeId::BOOLEAN:
        return "BOOLEAN";
    case LogicalTypeId::TINYINT:
        return "TINYINT";
    case LogicalTypeId::SMALLINT:
        return "SMALLINT";
    case LogicalTypeId::INTEGER:
        return "INTEGER";
    case LogicalTypeId::BIGINT:
        return "BIGINT";
    case LogicalTypeId::HUGEINT:
        return "HUGEINT";
    case LogicalTypeId::UTINYINT:
        return "UTINYINT";
    case LogicalTypeId::USMALLINT:
        return "USMALLINT";
    case LogicalTypeId::UINTEGER:
        return "UINTEGER";
    case LogicalTypeId::UBIGINT:
        return "UBIGINT";
    case LogicalTypeId::FLOAT:
        return "FLOAT";
    case LogicalTypeId::DOUBLE:
        return "DOUBLE";
    case LogicalTypeId::DECIMAL:
        return "DECIMAL(" + std::to_string(width_) + "," + std::to_string(scale_) + ")";
    case LogicalTypeId::DATE:
        return "DATE";
    case LogicalTypeId::TIME:
        return "TIME";
    case LogicalTypeId::TIMESTAMP:
        return "TIMESTAMP";
    case LogicalTypeId::TIMESTAMP_TZ:
        return "TIMESTAMP WITH TIME ZONE";
    case LogicalTypeId::TIMESTAMP_NS:
        return "TIMESTAMP_NS";
    case LogicalTypeId::VARCHAR:
        return "VARCHAR";
    case LogicalTypeId::BLOB:
        return "BLOB";
    case LogicalTypeId::UUID:
        return "UUID";
    case LogicalTypeId::INTERVAL:
        return "INTERVAL";
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT:
    case LogicalTypeId::MAP:
        return NestedName(*this, "STRUCT", "MAP",
                          [](const LogicalType& child) { return child.ToString(); });
    }
    return "UNKNOWN";
}

std::string LogicalType::DisplayName() const {
    switch (id_) {
    case LogicalTypeId::SQLNULL:
        return "\"null\"";
    case LogicalTypeId::TINYINT:
        return "int8";
    case LogicalTypeId::SMALLINT:
        return "int16";
    case LogicalTypeId::INTEGER:
        return "int32";
    case LogicalTypeId::BIGINT:
        return "int64";
    case LogicalTypeId::HUGEINT:
        return "int128";
    case LogicalTypeId::UTINYINT:
        return "uint8";
    case LogicalTypeId::USMALLINT:
        return "uint16";
    case LogicalTypeId::UINTEGER:
        return "uint32";
    case LogicalTypeId::UBIGINT:
        return "uint64";
    case LogicalTypeId::DECIMAL:
        return "decimal(" + std::to_string(width_) + "," + std::to_string(scale_) + ")";
    case LogicalTypeId::LIST:
    case LogicalTypeId::STRUCT:
    case LogicalTypeId::MAP:
        return NestedName(*this, "struct", "map",
                          [](const LogicalType& child) { return child.DisplayName(); });
    default: {
        std::string name = ToString();
        for (char& c : name) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return name;
    }
    }
}

idx_t PhysicalTypeSize(PhysicalType type) {
    switch (type) {
    case PhysicalType::BOOL:
    case PhysicalType::INT8:
    case PhysicalType::UINT8:
        return 1;
    case PhysicalType::INT16:
    case PhysicalType::UINT16:
        return 2;
    case PhysicalType::INT32:
    case PhysicalType::UINT32:
    case PhysicalType::FLOAT:
        return 4;
    case PhysicalType::INT64:
    case PhysicalType::UINT64:
    case PhysicalType::DOUBLE:
        return 8;
    case PhysicalType::INT128:
        return 16;
    case PhysicalType::VARCHAR:
        return sizeof(string_t);
    case PhysicalType::LIST:
        return sizeof(list_entry_t);
    case PhysicalType::STRUCT:
        return 0;
    }
    return 0;
}

uint8_t IntegerDecimalWidth(LogicalTypeId id) {
    switch (id) {
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::UTINYINT:
        return 3;
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::USMALLINT:
        return 5;
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::UINTEGER:
        return 10;
    case LogicalTypeId::BIGINT:
        return 19;
    case LogicalTypeId::UBIGINT:
        return 20;
    default:
        return 38;
    }
}

int IntegerRank(LogicalTypeId id) {
    switch (id) {
    case LogicalTypeId::TINYINT:
    case LogicalTypeId::UTINYINT:
        return 1;
    case LogicalTypeId::SMALLINT:
    case LogicalTypeId::USMALLINT:
        return 2;
    case LogicalTypeId::INTEGER:
    case LogicalTypeId::UINTEGER:
        return 3;
    case LogicalTypeId::BIGINT:
    case LogicalTypeId::UBIGINT:
        return 4;
    default:
        return 5;
    }
}

size_t LeafCount(const LogicalType& type) {
    switch (type.id()) {
    case LogicalTypeId::LIST:
    case LogicalTypeId::MAP:
        return LeafCount(type.element());
    case LogicalTypeId::STRUCT: {
        size_t count = 0;
        for (const StructField& field : type.fields()) {
            count += LeafCount(field.type);
        }
        return count;
    }
    default:
        return 1;
    }
}

} // namespace sluice
