#pragma once

#include "formats/scan_format.hpp"
#include "parallel/pipeline.hpp"
#include "scan/multi_file_reader.hpp"
#include "scan/scan_options.hpp"
#include "scan/scan_statistics.hpp"

#include <memory>

namespace sluice {

// The asynchronous read-ahead scan over the files of a MultiFileBinding, read by its ScanFormat.
// There is no producer thread: a task looking for work first tops the read-ahead queue up (creating
// jobs in file and job order and scheduling their fetches on the ASYNC pool at once; planning later
// files the same way, ahead of need), then claims the oldest job. If the job's bytes are in, it
// decodes; if not, the task parks on the job's countdown and its worker runs other work until the
// last fetch wakes it. Depth and the memory budget bound the queue (see ScanOptions).
class MultiFileScan : public PipelineSource {
public:
    // Produces the binding's columns `column_ids`, of nested ones the leaves `leaf_masks` (per
    // column id, or empty) select; `filters` (on the binding's columns) prune files by partition
    // and let formats skip data.
    MultiFileScan(std::shared_ptr<ScanFormat> format,
                  std::shared_ptr<const MultiFileBinding> binding, std::vector<idx_t> column_ids,
                  std::vector<LeafMask> leaf_masks, std::vector<TableFilter> filters,
                  ScanOptions options, ScanServices services);
    ~MultiFileScan() override;

    std::string Name() const override;
    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override;
    idx_t BatchIndex(LocalState* local) const override;
    double Progress() const override;
    void Cancel() override;
    void StopBackgroundWork() override;
    std::string ProfileDetails() const override;

    const ScanStatistics& statistics() const;

    class State;

private:
    std::shared_ptr<State> state_;
};

} // namespace sluice
