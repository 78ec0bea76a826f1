#include "sql/planner.hpp"

#include "execution/physical_filter.hpp"
#include "execution/physical_limit.hpp"
#include "execution/physical_projection.hpp"
#include "execution/rows_source.hpp"

namespace sluice {

Pipeline& PlanSelect(BoundSelect select, Executor& executor) {
    Pipeline& pipeline = executor.AddPipeline();
    if (select.from) {
        pipeline.source = select.from->make_source(select.column_ids, select.filters);
    } else {
        pipeline.source = RowsSource::SingleRow();
    }
    std::vector<LogicalType> types = pipeline.source->OutputTypes();
    if (select.where) {
        pipeline.operators.push_back(
            std::make_shared<PhysicalFilter>(types, std::move(select.where)));
    }
    pipeline.operators.push_back(
        std::make_shared<PhysicalProjection>(std::move(select.projections)));
    if (select.limit || select.offset > 0) {
        pipeline.operators.push_back(
            std::make_shared<PhysicalLimit>(select.types, select.limit, select.offset));
        pipeline.max_threads = 1; // LIMIT counts rows in arrival order
    }
    return pipeline;
}

} // namespace sluice
