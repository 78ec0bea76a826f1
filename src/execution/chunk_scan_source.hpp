#pragma once

#include "execution/materialized_rows.hpp"
#include "parallel/pipeline.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice {

// Scans chunks materialised earlier: an in-memory table's, or a UNION input's. The chunks are
// fetched from `provider` on first use (after the pipelines producing them have finished), and
// scanned in parallel, a chunk per call, projecting `column_ids`.
class ChunkScanSource : public PipelineSource {
public:
    std::string Name() const override { return "CHUNK_SCAN"; }
    using Provider = std::function<std::shared_ptr<const ChunkSequence>()>;

    ChunkScanSource(std::vector<LogicalType> types, Provider provider,
                    std::vector<idx_t> column_ids);

    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    SourceResult GetData(DataChunk& out, LocalState* local, TaskContext& context) override;
    idx_t MaxThreads() const override { return 64; }
    idx_t BatchIndex(LocalState* local) const override;
    double Progress() const override;

private:
    std::vector<LogicalType> types_;
    Provider provider_;
    std::vector<idx_t> column_ids_;
    std::once_flag fetched_;
    std::shared_ptr<const ChunkSequence> chunks_;
    std::atomic<idx_t> next_chunk_{0};
};

} // namespace sluice
