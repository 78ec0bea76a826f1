#include "sql/materialized_cte.hpp"

namespace sluice {

MaterializedCte::MaterializedCte(std::string name, std::vector<std::string> names,
                                 std::vector<LogicalType> types)
    : name_(std::move(name)), rows_(std::make_shared<Rows>()),
      function_(std::make_shared<BoundTableFunction>()) {
    rows_->collector = std::make_shared<ResultCollector>(types);
    function_->names = std::move(names);
    function_->types = types;
    function_->make_source = [rows = rows_, types](const std::vector<idx_t>& column_ids,
                                                   const std::vector<TableFilter>&) {
        return std::make_shared<ChunkScanSource>(
            types, [rows] { return rows->Chunks(); }, column_ids);
    };
}

std::shared_ptr<const ChunkList> MaterializedCte::Rows::Chunks() {
    std::call_once(taken, [&] {
        auto list = std::make_shared<ChunkList>();
        for (auto& chunk : collector->TakeChunks()) {
            list->push_back(std::move(chunk));
        }
        chunks = std::move(list);
    });
    return chunks;
}

} // namespace sluice
