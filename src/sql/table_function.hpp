#pragma once

#include "common/table_filter.hpp"
#include "common/value.hpp"
#include "parallel/pipeline.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace sluice {

// A table function after binding its arguments: the columns it can produce and a factory for a
// pipeline source producing only the columns a query needs (projection pushdown).
struct BoundTableFunction {
    std::vector<std::string> names;
    std::vector<LogicalType> types;
    // Rows the source will produce, as far as known before reading (negative: unknown); the
    // optimizer orders joins by it.
    double estimated_rows = -1;
    // Per column, at most how many distinct values it holds (negative or absent: unknown).
    std::vector<double> distinct_estimates;
    // The source drops rows that fail `filters` while it reads: only then is it handed the keys
    // of a join above it (TableFilter::Op::JoinKeys).
    bool filters_rows = false;
    // `column_ids` index `names`; the source's chunks hold those columns in that order. `filters`
    // (on columns by their index in `names`) may be used to skip data; they need not be applied.
    // `leaf_masks` (per column id, or empty) say which leaves of nested columns the query reads:
    // a source may leave the others NULL.
    std::function<std::shared_ptr<PipelineSource>(const std::vector<idx_t>& column_ids,
                                                  const std::vector<TableFilter>& filters,
                                                  const std::vector<LeafMask>& leaf_masks)>
        make_source;
    // Runs once after a query that scanned this function has finished without error (read_csv
    // with store_rejects fills its rejects tables here).
    std::function<void()> finish;
};

// A positional argument: one value, or the values of a list literal ['a', 'b'].
struct TableFunctionArgument {
    std::vector<Value> values;
    bool is_list = false;
};

struct TableFunctionInput {
    std::vector<TableFunctionArgument> positional;
    std::map<std::string, Value> named;                    // name = value; names lower-cased
    std::map<std::string, std::vector<Value>> named_lists; // name = [a, b]
    std::map<std::string, std::vector<std::pair<std::string, Value>>> named_structs; // {'k': v}

    // Positional argument `index` as one value; throws a Binder error naming `function`.
    const Value& Scalar(size_t index, const std::string& function) const;
    // A named boolean parameter (default false).
    bool Flag(const std::string& name, const std::string& function) const;
    // Throws unless every named parameter is among `known`.
    void CheckNamed(const std::vector<std::string>& known, const std::string& function) const;
};

struct TableFunction {
    std::string name;
    std::function<BoundTableFunction(const TableFunctionInput& input)> bind;
};

// The table functions a database knows (sluice_settings, later read_parquet ...).
class TableFunctionCatalog {
public:
    void Register(TableFunction function);
    const TableFunction* Find(const std::string& name) const;
    std::vector<std::string> Names() const;

private:
    std::map<std::string, TableFunction> functions_;
};

} // namespace sluice
