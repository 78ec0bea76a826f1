#include "execution/conditional_functions.hpp"

#include "common/exception.hpp"

namespace sluice {

namespace {

idx_t RowOf(const Vector& vector, idx_t row) {
    return vector.vector_type() == VectorType::CONSTANT ? 0 : row;
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
    if (left.IsNumeric() && right.IsNumeric()) {
        return CommonNumericType(left, right);
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
