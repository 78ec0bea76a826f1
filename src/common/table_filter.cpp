#include "common/table_filter.hpp"

#include "common/physical_dispatch.hpp"
#include "common/total_order.hpp"

#include <algorithm>
#include <cmath>

namespace sluice {

bool MayMatch(const TableFilter& filter, const ColumnStatistics& statistics) {
    using Op = TableFilter::Op;
    bool all_null = statistics.null_count && *statistics.null_count == statistics.row_count &&
                    statistics.row_count > 0;
    if (filter.op == Op::IsNull) {
        return !statistics.null_count || *statistics.null_count > 0;
    }
    if (filter.op == Op::JoinKeys) {
        return !filter.join_keys || filter.join_keys->MayMatch(statistics);
    }
    if (filter.op == Op::IsNotNull) {
        return !all_null;
    }
    if (filter.op == Op::In) {
        // One of the values may be there.
        for (const Value& value : filter.values) {
            TableFilter equal{filter.column, Op::Equal, value, {}};
            if (MayMatch(equal, statistics)) {
                return true;
            }
        }
        return false;
    }
    // A comparison is never true for NULL.
    if (all_null) {
        return false;
    }
    if (!statistics.min || !statistics.max || filter.constant.IsNull()) {
        return true;
    }
    if (statistics.may_contain_nan) {
        bool nan_constant =
            filter.constant.type().IsFloating() && std::isnan(filter.constant.GetDouble());
        if (nan_constant || filter.op == Op::Greater || filter.op == Op::GreaterEqual ||
            filter.op == Op::NotEqual) {
            return true;
        }
    }
    int below_min = filter.constant.Compare(*statistics.min); // constant vs min
    int above_max = filter.constant.Compare(*statistics.max); // constant vs max
    switch (filter.op) {
    case Op::Equal:
        return below_min >= 0 && above_max <= 0;
    case Op::NotEqual:
        return !(below_min == 0 && above_max == 0);
    case Op::Less: // col < c: some value below c exists iff min < c
        return below_min > 0;
    case Op::LessEqual:
        return below_min >= 0;
    case Op::Greater:
        return above_max < 0;
    case Op::GreaterEqual:
        return above_max <= 0;
    default:
        return true;
    }
}

} // namespace sluice

namespace sluice {

namespace {

// Keeps the rows whose valid value satisfies `keep`, without a branch per row.
template <class T, class Keep>
size_t SelectWhere(const T* data, const ValidityMask& validity, uint32_t* rows, size_t count,
                   Keep keep) {
    size_t kept = 0;
    if (validity.AllValid()) {
        for (size_t i = 0; i < count; i++) {
            uint32_t row = rows[i];
            rows[kept] = row;
            kept += keep(data[row]);
        }
        return kept;
    }
    for (size_t i = 0; i < count; i++) {
        uint32_t row = rows[i];
        rows[kept] = row;
        kept += validity.RowIsValid(row) && keep(data[row]);
    }
    return kept;
}

template <class T>
size_t SelectComparison(TableFilter::Op op, const T& constant, const Vector& values, uint32_t* rows,
                        size_t count) {
    using Op = TableFilter::Op;
    const T* data = values.data<T>();
    const ValidityMask& validity = values.validity();
    switch (op) {
    case Op::Equal:
        return SelectWhere(data, validity, rows, count,
                           [&](const T& v) { return TotalOrderEqual(v, constant); });
    case Op::NotEqual:
        return SelectWhere(data, validity, rows, count,
                           [&](const T& v) { return !TotalOrderEqual(v, constant); });
    case Op::Less:
        return SelectWhere(data, validity, rows, count,
                           [&](const T& v) { return TotalOrderLess(v, constant); });
    case Op::LessEqual:
        return SelectWhere(data, validity, rows, count,
                           [&](const T& v) { return !TotalOrderLess(constant, v); });
    case Op::Greater:
        return SelectWhere(data, validity, rows, count,
                           [&](const T& v) { return TotalOrderLess(constant, v); });
    case Op::GreaterEqual:
        return SelectWhere(data, validity, rows, count,
                           [&](const T& v) { return !TotalOrderLess(v, constant); });
    default:
        throw Exception(ErrorKind::Internal, "FilterRows: not a comparison");
    }
}

// Keeps the rows equal to one of `constants`: a linear scan of a few, a binary search of many.
size_t SelectIn(const std::vector<Value>& constants, const Vector& values, uint32_t* rows,
                size_t count) {
    if (constants.empty()) {
        return 0;
    }
    Vector holder(values.type(), constants.size());
    for (size_t i = 0; i < constants.size(); i++) {
        holder.SetValue(i, constants[i]);
    }
    return DispatchPhysical(values.type().physical(), [&](auto tag) {
        using T = decltype(tag);
        // Sorted in place in the holder (strings keep pointing into its heap).
        T* sorted = holder.data<T>();
        T* end = sorted + constants.size();
        std::sort(sorted, end, TotalOrderLess<T>);
        const T* data = values.data<T>();
        if (constants.size() <= 8) {
            return SelectWhere(data, values.validity(), rows, count, [&](const T& v) {
                bool found = false;
                for (const T* candidate = sorted; candidate != end; candidate++) {
                    found |= TotalOrderEqual(v, *candidate);
                }
                return found;
            });
        }
        return SelectWhere(data, values.validity(), rows, count, [&](const T& v) {
            const T* at = std::lower_bound(static_cast<const T*>(sorted),
                                           static_cast<const T*>(end), v, TotalOrderLess<T>);
            return at != end && TotalOrderEqual(*at, v);
        });
    });
}

} // namespace

size_t FilterRows(const TableFilter& filter, const Vector& values, uint32_t* rows, size_t count) {
    using Op = TableFilter::Op;
    if (values.vector_type() != VectorType::FLAT) {
        throw Exception(ErrorKind::Internal, "FilterRows needs a flat vector");
    }
    const ValidityMask& validity = values.validity();
    if (filter.op == Op::IsNull || filter.op == Op::IsNotNull) {
        bool want_valid = filter.op == Op::IsNotNull;
        if (validity.AllValid()) {
            return want_valid ? count : 0;
        }
        size_t kept = 0;
        for (size_t i = 0; i < count; i++) {
            uint32_t row = rows[i];
            rows[kept] = row;
            kept += validity.RowIsValid(row) == want_valid;
        }
        return kept;
    }
    if (filter.op == Op::In) {
        return SelectIn(filter.values, values, rows, count);
    }
    if (filter.op == Op::JoinKeys) {
        bool usable = filter.join_keys && filter.join_keys->type() == values.type();
        return usable ? filter.join_keys->Select(values, rows, count) : count;
    }
    if (filter.constant.IsNull()) {
        return 0; // a comparison with NULL is never true
    }
    // The constant in the vector's own layout (strings point into `holder`).
    Vector holder(values.type(), 1);
    holder.SetValue(0, filter.constant);
    return DispatchPhysical(values.type().physical(), [&](auto tag) {
        using T = decltype(tag);
        return SelectComparison<T>(filter.op, holder.data<T>()[0], values, rows, count);
    });
}

size_t FilterRows(const std::vector<TableFilter>& filters, const Vector& values, uint32_t* rows,
                  size_t count) {
    for (const TableFilter& filter : filters) {
        count = FilterRows(filter, values, rows, count);
    }
    return count;
}

} // namespace sluice
