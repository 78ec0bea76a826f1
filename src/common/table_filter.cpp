#include "common/table_filter.hpp"

#include <cmath>

namespace sluice {

bool MayMatch(const TableFilter& filter, const ColumnStatistics& statistics) {
    using Op = TableFilter::Op;
    bool all_null = statistics.null_count && *statistics.null_count == statistics.row_count &&
                    statistics.row_count > 0;
    if (filter.op == Op::IsNull) {
        return !statistics.null_count || *statistics.null_count > 0;
    }
    if (filter.op == Op::IsNotNull) {
        return !all_null;
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
