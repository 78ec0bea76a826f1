#include "scan/file_plan.hpp"

#include "parallel/trace_recorder.hpp"

namespace sluice {

FilePlan PlanFile(ScanFormat& format, const MultiFileBinding& binding, size_t path,
                  const std::vector<idx_t>& column_ids, const std::vector<LeafMask>& leaf_masks,
                  const std::vector<TableFilter>& filters, uint64_t max_job_bytes,
                  MemoryManager* memory, FileSystem& file_system, const IoContext& context) {
    ScopedTraceSpan span("plan file");
    FilePlan plan;
    plan.file = binding.opened[path];
    if (!plan.file) {
        plan.file = format.Open(file_system, binding.paths[path], context);
    }
    plan.projected = binding.Project(path, *plan.file, column_ids, leaf_masks, filters);
    plan.projected.projection.max_job_bytes = max_job_bytes;
    plan.projected.projection.memory = memory;
    plan.planned = plan.file->PlanJobs(plan.projected.projection, context);
    return plan;
}

} // namespace sluice
