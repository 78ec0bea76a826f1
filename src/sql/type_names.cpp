#include "sql/type_names.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

#include <map>
#include <set>

namespace sluice {

namespace {

const std::map<std::string, LogicalTypeId>& Aliases() {
    static const std::map<std::string, LogicalTypeId> kAliases = {
        {"BOOLEAN", LogicalTypeId::BOOLEAN},
        {"BOOL", LogicalTypeId::BOOLEAN},
        {"LOGICAL", LogicalTypeId::BOOLEAN},
        {"TINYINT", LogicalTypeId::TINYINT},
        {"INT1", LogicalTypeId::TINYINT},
        {"SMALLINT", LogicalTypeId::SMALLINT},
        {"INT2", LogicalTypeId::SMALLINT},
        {"SHORT", LogicalTypeId::SMALLINT},
        {"INTEGER", LogicalTypeId::INTEGER},
        {"INT", LogicalTypeId::INTEGER},
        {"INT4", LogicalTypeId::INTEGER},
        {"SIGNED", LogicalTypeId::INTEGER},
        {"BIGINT", LogicalTypeId::BIGINT},
        {"INT8", LogicalTypeId::BIGINT},
        {"LONG", LogicalTypeId::BIGINT},
        {"HUGEINT", LogicalTypeId::HUGEINT},
        {"INT128", LogicalTypeId::HUGEINT},
        {"FLOAT", LogicalTypeId::FLOAT},
        {"UTINYINT", LogicalTypeId::UTINYINT},
        {"UINT8", LogicalTypeId::UTINYINT},
        {"USMALLINT", LogicalTypeId::USMALLINT},
        {"UINT16", LogicalTypeId::USMALLINT},
        {"UINTEGER", LogicalTypeId::UINTEGER},
        {"UINT32", LogicalTypeId::UINTEGER},
        {"UBIGINT", LogicalTypeId::UBIGINT},
        {"UINT64", LogicalTypeId::UBIGINT},
        {"FLOAT4", LogicalTypeId::FLOAT},
        {"REAL", LogicalTypeId::FLOAT},
        {"DOUBLE", LogicalTypeId::DOUBLE},
        {"FLOAT8", LogicalTypeId::DOUBLE},
        {"DECIMAL", LogicalTypeId::DECIMAL},
        {"NUMERIC", LogicalTypeId::DECIMAL},
        {"DATE", LogicalTypeId::DATE},
        {"TIME", LogicalTypeId::TIME},
        {"TIMESTAMP", LogicalTypeId::TIMESTAMP},
        {"DATETIME", LogicalTypeId::TIMESTAMP},
        {"TIMESTAMPTZ", LogicalTypeId::TIMESTAMP_TZ},
        {"TIMESTAMP_NS", LogicalTypeId::TIMESTAMP_NS},
        {"TIMESTAMP WITH TIME ZONE", LogicalTypeId::TIMESTAMP_TZ},
        {"VARCHAR", LogicalTypeId::VARCHAR},
        {"TEXT", LogicalTypeId::VARCHAR},
        {"STRING", LogicalTypeId::VARCHAR},
        {"CHAR", LogicalTypeId::VARCHAR},
        {"BPCHAR", LogicalTypeId::VARCHAR},
        {"BLOB", LogicalTypeId::BLOB},
        {"BYTEA", LogicalTypeId::BLOB},
        {"BINARY", LogicalTypeId::BLOB},
        {"VARBINARY", LogicalTypeId::BLOB},
        {"UUID", LogicalTypeId::UUID},
        {"INTERVAL", LogicalTypeId::INTERVAL},
    };
    return kAliases;
}

} // namespace

std::optional<LogicalType> ResolveTypeName(const TypeName& name) {
    if (!name.children.empty()) {
        std::vector<StructField> fields;
        for (const TypeNameField& child : name.children) {
            std::optional<LogicalType> type = ResolveTypeName(child.type);
            if (!type) {
                return std::nullopt;
            }
            for (const StructField& field : fields) {
                if (name.name == "STRUCT" && Lower(field.name) == Lower(child.name)) {
                    throw Exception(ErrorKind::Parser,
                                    "duplicate struct field name \"" + child.name + "\"");
                }
            }
            fields.push_back(StructField{child.name, *type});
        }
        if (name.name == "LIST") {
            return LogicalType::List(fields[0].type);
        }
        if (name.name == "MAP") {
            return LogicalType::Map(fields[0].type, fields[1].type);
        }
        return LogicalType::Struct(std::move(fields));
    }
    auto entry = Aliases().find(name.name);
    if (entry == Aliases().end()) {
        return std::nullopt;
    }
    LogicalTypeId id = entry->second;
    if (id == LogicalTypeId::DECIMAL) {
        if (name.modifiers.size() > 2) {
            throw Exception(ErrorKind::Parser,
                            "DECIMAL takes at most two modifiers (width, scale)");
        }
        int64_t width = name.modifiers.empty() ? 18 : name.modifiers[0];
        int64_t scale =
            name.modifiers.size() < 2 ? (name.modifiers.empty() ? 3 : 0) : name.modifiers[1];
        if (width < 1 || width > kMaxDecimalWidth || scale < 0 || scale > width) {
            throw Exception(ErrorKind::Parser,
                            "DECIMAL width must be between 1 and 38 and scale between 0 and the "
                            "width, got DECIMAL(" +
                                std::to_string(width) + "," + std::to_string(scale) + ")");
        }
        return LogicalType::Decimal(static_cast<uint8_t>(width), static_cast<uint8_t>(scale));
    }
    // VARCHAR(n) and CHAR(n) lengths are accepted and ignored, as in DuckDB.
    if (!name.modifiers.empty() && id != LogicalTypeId::VARCHAR) {
        throw Exception(ErrorKind::Parser, "type " + name.name + " does not take modifiers");
    }
    return LogicalType(id);
}

std::string TypeNameToString(const TypeName& name) {
    // Type names that are keywords of the SQL grammar are written bare; others are quoted.
    static const std::set<LogicalTypeId> kKeywordTypes = {
        LogicalTypeId::BOOLEAN, LogicalTypeId::SMALLINT,  LogicalTypeId::INTEGER,
        LogicalTypeId::BIGINT,  LogicalTypeId::FLOAT,     LogicalTypeId::DECIMAL,
        LogicalTypeId::TIME,    LogicalTypeId::TIMESTAMP, LogicalTypeId::VARCHAR,
    };
    if (name.name == "LIST") {
        return TypeNameToString(name.children[0].type) + "[]";
    }
    if (name.name == "MAP" || name.name == "STRUCT") {
        std::string out = name.name + "(";
        for (size_t i = 0; i < name.children.size(); i++) {
            out += i ? ", " : "";
            out += name.name == "STRUCT" ? name.children[i].name + " " : "";
            out += TypeNameToString(name.children[i].type);
        }
        return out + ")";
    }
    auto entry = Aliases().find(name.name);
    std::string out;
    if (entry == Aliases().end()) {
        out = name.name;
    } else {
        LogicalTypeId id = entry->second;
        std::string canonical =
            id == LogicalTypeId::DECIMAL ? "DECIMAL" : LogicalType(id).ToString();
        out = kKeywordTypes.count(id) ? canonical : "\"" + canonical + "\"";
    }
    if (!name.modifiers.empty()) {
        out += "(";
        for (size_t i = 0; i < name.modifiers.size(); i++) {
            out += (i ? ", " : "") + std::to_string(name.modifiers[i]);
        }
        out += ")";
    }
    return out;
}

} // namespace sluice
