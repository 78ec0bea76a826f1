#pragma once

#include "formats/scan_format.hpp"
#include "scan/multi_file_reader.hpp"

#include <memory>
#include <vector>

namespace sluice {

// A file of a scan opened, placed into the scan's columns and cut into jobs.
struct FilePlan {
    std::shared_ptr<ScanFile> file;
    ProjectedFile projected;
    FileJobs planned;
};

// Opens file `path` of `binding` (unless binding opened it already) and plans its jobs for a scan
// of the binding's `column_ids` (of nested ones the leaves `leaf_masks` select), in jobs of at most
// about `max_job_bytes` where the format can cut its units (0: never), whose decoders reserve
// their buffers with `memory` (null: unaccounted). Blocking I/O under `context`: called on the
// ASYNC pool, or by a synchronous scan's own task.
FilePlan PlanFile(ScanFormat& format, const MultiFileBinding& binding, size_t path,
                  const std::vector<idx_t>& column_ids, const std::vector<LeafMask>& leaf_masks,
                  const std::vector<TableFilter>& filters, uint64_t max_job_bytes,
                  MemoryManager* memory, FileSystem& file_system, const IoContext& context);

} // namespace sluice
