#pragma once

#include "execution/chunk_scan_source.hpp"
#include "execution/result_collector.hpp"
#include "sql/table_function.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

// A common table expression computed once and read by each of its references, as DuckDB does for
// a CTE named more than once (or written AS MATERIALIZED). Besides saving the work, this keeps the
// references consistent: a floating-point SUM summed twice in parallel can differ in its last
// bit, and TPC-H Q15 compares the CTE's maximum with its own rows.
class MaterializedCte {
public:
    MaterializedCte(std::string name, std::vector<std::string> names,
                    std::vector<LogicalType> types);

    const std::string& Name() const { return name_; }

    // The table function every reference scans. Its rows are the collected result, taken when
    // the first scan starts (after the pipeline filling `Collector()` has finished).
    const std::shared_ptr<BoundTableFunction>& Function() const { return function_; }
    // The sink of the CTE's own pipeline, its rows reserved against `memory` (and spilled).
    std::shared_ptr<ResultCollector> Collector(MemoryManager* memory) const;

private:
    struct Rows {
        std::shared_ptr<ResultCollector> collector;
        std::once_flag taken;
        std::shared_ptr<const ChunkSequence> chunks;
        std::shared_ptr<const ChunkSequence> Chunks();
    };
    std::string name_;
    std::vector<LogicalType> types_;
    std::shared_ptr<Rows> rows_;
    std::shared_ptr<BoundTableFunction> function_;
};

} // namespace sluice
