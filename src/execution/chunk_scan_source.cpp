#include "execution/chunk_scan_source.hpp"

#include <algorithm>

namespace sluice {

namespace {

struct ChunkScanLocal : public LocalState {
    idx_t chunk = 0;
};

} // namespace

ChunkScanSource::ChunkScanSource(std::vector<LogicalType> types, Provider provider,
                                 std::vector<idx_t> column_ids)
    : types_(std::move(types)), provider_(std::move(provider)), column_ids_(std::move(column_ids)) {
}

std::vector<LogicalType> ChunkScanSource::OutputTypes() const {
    std::vector<LogicalType> types;
    for (idx_t id : column_ids_) {
        types.push_back(types_[id]);
    }
    return types;
}

std::unique_ptr<LocalState> ChunkScanSource::InitLocal() {
    return std::make_unique<ChunkScanLocal>();
}

SourceResult ChunkScanSource::GetData(DataChunk& out, LocalState* local, TaskContext& /*context*/) {
    std::call_once(fetched_, [&] { chunks_ = provider_(); });
    idx_t index = next_chunk_.fetch_add(1);
    if (!chunks_ || index >= chunks_->ChunkCount()) {
        return SourceResult::Finished;
    }
    static_cast<ChunkScanLocal*>(local)->chunk = index;
    // Held by `out` (through the references) as long as it needs the chunk: a chunk read back
    // from a spill file lives no longer.
    std::shared_ptr<const DataChunk> chunk = chunks_->Chunk(index);
    for (idx_t i = 0; i < column_ids_.size(); i++) {
        out.column(i).Reset();
        out.column(i).Reference(chunk->column(column_ids_[i]));
    }
    out.SetSize(chunk->size());
    return SourceResult::HaveMoreOutput;
}

idx_t ChunkScanSource::BatchIndex(LocalState* local) const {
    return static_cast<ChunkScanLocal*>(local)->chunk;
}

double ChunkScanSource::Progress() const {
    if (!chunks_ || chunks_->ChunkCount() == 0) {
        return -1;
    }
    return std::min(1.0, static_cast<double>(next_chunk_.load()) / chunks_->ChunkCount());
}

} // namespace sluice
