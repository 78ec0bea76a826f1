#pragma once

#include "common/join_key_filter.hpp"
#include "common/value.hpp"
#include "common/vector.hpp"

#include <optional>
#include <vector>

namespace sluice {

// A predicate on one column against a constant, pushed from WHERE into a scan so the scan can
// skip data whose statistics prove that no row matches, and drop rows that fail it while it
// decodes; or the keys of a hash join above the scan (JoinKeys). A scan may return rows that do
// not match; the filter or join above it keeps the query correct.
struct TableFilter {
    enum class Op : uint8_t {
        Equal,
        NotEqual,
        Less,
        LessEqual,
        Greater,
        GreaterEqual,
        IsNull,
        IsNotNull,
        In,      // equal to one of `values`
        JoinKeys // among the keys of a hash join's build side (`join_keys`)
    };

    idx_t column = 0; // the table function's column index
    Op op = Op::Equal;
    Value constant;            // of the column's type; for the comparisons
    std::vector<Value> values; // In: of the column's type, not NULL (NULL never matches)
    // A filter on a field of a STRUCT column (s.a.b): the field indexes from the column down,
    // through structs only. "The column's type" is then the field's. Empty: the column itself.
    std::vector<idx_t> fields = {};
    // JoinKeys: the optimizer numbers the join and the filter it hands to the scan below its
    // probe (`join_filter`); the physical planner makes the filter the two share.
    idx_t join_filter = 0;
    std::shared_ptr<const JoinKeyFilter> join_keys = nullptr;
};

// What statistics say about a column over some rows. min/max bound the non-NULL values.
struct ColumnStatistics {
    std::optional<Value> min;
    std::optional<Value> max;
    std::optional<uint64_t> null_count;
    uint64_t row_count = 0;
    // Floating-point statistics leave NaN out, and NaN compares above every number: comparisons
    // that NaN can satisfy cannot be ruled out by min/max.
    bool may_contain_nan = false;
};

// False only when the statistics prove that no row can satisfy `filter`.
bool MayMatch(const TableFilter& filter, const ColumnStatistics& statistics);

// Keeps those of the rows `rows[0..count)` of the flat vector `values` that satisfy `filter`,
// in place and in order, and returns how many. Compares exactly as the SQL operators do (NaN
// equal to itself and above every number, strings as unsigned bytes; NULL satisfies only IS
// NULL). `filter.constant` must have the vector's type.
size_t FilterRows(const TableFilter& filter, const Vector& values, uint32_t* rows, size_t count);
// The same for the conjunction of `filters`.
size_t FilterRows(const std::vector<TableFilter>& filters, const Vector& values, uint32_t* rows,
                  size_t count);

} // namespace sluice
