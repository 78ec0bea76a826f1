#include "sql/materialized_cte.hpp"

namespace sluice {

MaterializedCte::MaterializedCte(std::string name, std::vector<std::string> names,
                                 std::vector<LogicalType> types)
    : name_(std::move(name)), types_(types), rows_(std::make_shared<Rows>()),
      function_(std::make_shared<BoundTableFunction>()) {
    function_->names = std::move(names);
    function_->types = types;
    function_->make_source = [rows = rows_, types](const std::vector<idx_t>& column_ids,
                                                   const std::vector<TableFilter>&,
                                                   const std::vector<LeafMask>&) {
        return std::make_shared<ChunkScanSource>(
            types, [rows] { return rows->Chunks(); }, column_ids);
    };
}

std::shared_ptr<ResultCollector> MaterializedCte::Collector(MemoryManager* memory) const {
    rows_->collector = std::make_shared<ResultCollector>(types_, memory);
    return rows_->collector;
}

std::shared_ptr<const ChunkSequence> MaterializedCte::Rows::Chunks() {
    std::call_once(taken, [&] { chunks = collector->TakeRows(); });
    return chunks;
}

} // namespace sluice
