#include "execution/conditional_functions.hpp"

#include "common/exception.hpp"
#include "common/physical_dispatch.hpp"

#include <algorithm>
#include <memory>

namespace sluice {

namespace {

idx_t RowOf(const Vector& vector, idx_t row) {
    return vector.vector_type() == VectorType::CONSTANT ? 0 : row;
}

} // namespace

namespace {

// Lists of lists of a common element type, maps likewise, structs with the same field names
// field by field.
std::optional<LogicalType> CommonNestedType(const LogicalType& left, const LogicalType& right) {
    if (left.id() != right.id()) {
        return std::nullopt;
    }
    if (left.id() == LogicalTypeId::LIST) {
        auto element = CommonSuperType(left.element(), right.element());
        return element ? std::optional<LogicalType>(LogicalType::List(*element)) : std::nullopt;
    }
    if (left.id() == LogicalTypeId::MAP) {
        auto key = CommonSuperType(left.key(), right.key());
        auto value = CommonSuperType(left.value(), right.value());
        return key && value ? std::optional<LogicalType>(LogicalType::Map(*key, *value))
                            : std::nullopt;
    }
    if (left.fields().size() != right.fields().size()) {
        return std::nullopt;
    }
    std::vector<StructField> fields;
    for (idx_t i = 0; i < left.fields().size(); i++) {
        auto type = CommonSuperType(left.fields()[i].type, right.fields()[i].type);
        if (!type || left.fields()[i].name != right.fields()[i].name) {
            return std::nullopt;
        }
        fields.push_back(StructField{left.fields()[i].name, *type});
    }
    return LogicalType::Struct(std::move(fields));
}

} // namespace

std::optional<LogicalType> CommonSuperType(const LogicalType& left, const LogicalType& right) {
    if (left == right) {
        return left;
    }
    if (left.id() == LogicalTypeId::SQLNULL) {
        return right;
    }
    if (right.id() == LogicalTypeId::SQLNULL) {
        return left;
    }
    if (left.IsInteger() && right.IsInteger() && left.IsUnsigned() != right.IsUnsigned()) {
        // The narrowest signed type holding both (UTINYINT and TINYINT: SMALLINT), as DuckDB's
        // lists, CASE and COALESCE have it; arithmetic widens further (CommonNumericType).
        const LogicalType& unsigned_side = left.IsUnsigned() ? left : right;
        const LogicalType& signed_side = left.IsUnsigned() ? right : left;
        LogicalTypeId holding =
            unsigned_side.id() == LogicalTypeId::UTINYINT    ? LogicalTypeId::SMALLINT
            : unsigned_side.id() == LogicalTypeId::USMALLINT ? LogicalTypeId::INTEGER
            : unsigned_side.id() == LogicalTypeId::UINTEGER  ? LogicalTypeId::BIGINT
                                                             : LogicalTypeId::HUGEINT;
        LogicalType wide = holding;
        return CommonNumericType(signed_side, wide);
    }
    if (left.IsNumeric() && right.IsNumeric()) {
        return CommonNumericType(left, right);
    }
    if (left.IsNested() || right.IsNested()) {
        return CommonNestedType(left, right);
    }
    auto temporal_rank = [](LogicalTypeId id) {
        return id == LogicalTypeId::DATE           ? 1
               : id == LogicalTypeId::TIMESTAMP    ? 2
               : id == LogicalTypeId::TIMESTAMP_TZ ? 3
                                                   : 0;
    };
    int l = temporal_rank(left.id()), r = temporal_rank(right.id());
    if (l > 0 && r > 0) {
        return l > r ? left : right;
    }
    if (left.id() == LogicalTypeId::VARCHAR || right.id() == LogicalTypeId::VARCHAR) {
        return LogicalType(LogicalTypeId::VARCHAR);
    }
    return std::nullopt;
}

BoundFunction BindCase(size_t branch_count, const LogicalType& type) {
    ScalarFunctionBody body = [branch_count](const std::vector<const Vector*>& args, idx_t count,
                                             Vector& result) {
        const Vector& otherwise = *args[2 * branch_count];
        for (idx_t row = 0; row < count; row++) {
            const Vector* chosen = &otherwise;
            for (size_t branch = 0; branch < branch_count; branch++) {
                const Vector& condition = *args[2 * branch];
                idx_t index = RowOf(condition, row);
                if (condition.validity().RowIsValid(index) && condition.data<bool>()[index]) {
                    chosen = args[2 * branch + 1];
                    break;
                }
            }
            result.CopyRow(*chosen, row, row);
        }
    };
    std::vector<LogicalType> arguments;
    for (size_t branch = 0; branch < branch_count; branch++) {
        arguments.push_back(LogicalTypeId::BOOLEAN);
        arguments.push_back(type);
    }
    arguments.push_back(type);
    return BoundFunction{arguments, type, body};
}

BoundFunction BindCoalesce(size_t argument_count, const LogicalType& type) {
    ScalarFunctionBody body = [](const std::vector<const Vector*>& args, idx_t count,
                                 Vector& result) {
        for (idx_t row = 0; row < count; row++) {
            const Vector* chosen = args.back();
            for (const Vector* argument : args) {
                if (argument->validity().RowIsValid(RowOf(*argument, row))) {
                    chosen = argument;
                    break;
                }
            }
            result.CopyRow(*chosen, row, row);
        }
    };
    return BoundFunction{std::vector<LogicalType>(argument_count, type), type, body};
}

namespace {

// The non-NULL constants of an IN list, sorted, and whether a NULL was among them.
template <class T>
struct ConstantSet {
    std::shared_ptr<Vector> owner; // holds the strings the values point into
    std::vector<T> values;
    bool has_null = false;
    // Strings: every constant inlined, and the 16 bytes of each.
    bool all_inlined = false;
    std::vector<std::pair<uint64_t, uint64_t>> words;

    bool Contains(const T& value) const {
        if constexpr (std::is_same_v<T, string_t>) {
            if (all_inlined && values.size() <= 16) {
                // Inlined strings are equal exactly when their 16 bytes are, and no longer
                // string equals one of them (the length is among the bytes).
                uint64_t head, tail;
                value.InlinedWords(head, tail);
                bool found = false;
                for (const auto& [constant_head, constant_tail] : words) {
                    found |= (head == constant_head) & (tail == constant_tail);
                }
                return found;
            }
        }
        if (values.size() <= 16) {
            bool found = false;
            for (const T& candidate : values) {
                found |= candidate == value; // no early exit: the loop stays branch-free
            }
            return found;
        }
        auto found = std::lower_bound(values.begin(), values.end(), value);
        return found != values.end() && *found == value;
    }
};

} // namespace

std::optional<BoundFunction> BindInConstantList(const LogicalType& type,
                                                const std::vector<Value>& constants) {
    PhysicalType physical = type.physical();
    bool covered = physical == PhysicalType::VARCHAR || physical == PhysicalType::INT8 ||
                   physical == PhysicalType::INT16 || physical == PhysicalType::INT32 ||
                   physical == PhysicalType::INT64 || physical == PhysicalType::INT128 ||
                   physical == PhysicalType::UINT8 || physical == PhysicalType::UINT16 ||
                   physical == PhysicalType::UINT32 || physical == PhysicalType::UINT64;
    if (!covered || constants.size() > kVectorSize) {
        return std::nullopt;
    }
    return DispatchPhysical(physical, [&](auto tag) -> std::optional<BoundFunction> {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool> || std::is_floating_point_v<T>) {
            return std::nullopt;
        } else {
            auto set = std::make_shared<ConstantSet<T>>();
            set->owner = std::make_shared<Vector>(type);
            for (idx_t i = 0; i < constants.size(); i++) {
                set->owner->SetValue(i, constants[i]);
                if (constants[i].IsNull()) {
                    set->has_null = true;
                } else {
                    set->values.push_back(set->owner->template data<T>()[i]);
                }
            }
            std::sort(set->values.begin(), set->values.end());
            if constexpr (std::is_same_v<T, string_t>) {
                set->all_inlined = true;
                for (const string_t& value : set->values) {
                    set->all_inlined = set->all_inlined && value.IsInlined();
                    uint64_t head = 0, tail = 0;
                    if (value.IsInlined()) {
                        value.InlinedWords(head, tail);
                    }
                    set->words.emplace_back(head, tail);
                }
            }
            ScalarFunctionBody body = [set](const std::vector<const Vector*>& args, idx_t count,
                                            Vector& result) {
                const Vector& input = *args[0];
                const T* data = input.data<T>();
                bool* out = result.data<bool>();
                if (input.vector_type() == VectorType::FLAT && input.validity().AllValid() &&
                    !set->has_null) {
                    for (idx_t row = 0; row < count; row++) {
                        out[row] = set->Contains(data[row]);
                    }
                    return;
                }
                for (idx_t row = 0; row < count; row++) {
                    idx_t at = RowOf(input, row);
                    if (!input.validity().RowIsValid(at)) {
                        result.SetNull(row);
                    } else if (set->Contains(data[at])) {
                        out[row] = true;
                    } else if (set->has_null) {
                        result.SetNull(row);
                    } else {
                        out[row] = false;
                    }
                }
            };
            std::vector<LogicalType> arguments(constants.size() + 1, type);
            return BoundFunction{std::move(arguments), LogicalTypeId::BOOLEAN, body};
        }
    });
}

BoundFunction BindSingleRowCheck(const LogicalType& type) {
    ScalarFunctionBody body = [](const std::vector<const Vector*>& args, idx_t count,
                                 Vector& result) {
        const Vector& rows = *args[0];
        for (idx_t row = 0; row < count; row++) {
            idx_t at = RowOf(rows, row);
            if (rows.validity().RowIsValid(at) && rows.data<int64_t>()[at] > 1) {
                throw Exception(ErrorKind::InvalidInput,
                                "More than one row returned by a subquery used as an expression "
                                "- scalar subqueries can only return a single row.");
            }
            result.CopyRow(*args[1], row, row);
        }
    };
    return BoundFunction{{LogicalTypeId::BIGINT, type}, type, body};
}

} // namespace sluice
