#include "execution/physical_order.hpp"

#include <algorithm>

namespace sluice {

namespace {

struct OrderLocal : public LocalState {
    std::vector<std::unique_ptr<DataChunk>> chunks;
};

struct ScanLocal : public LocalState {
    idx_t chunk = 0;
};

} // namespace

OrderSink::OrderSink(std::vector<LogicalType> types, std::vector<SortKey> keys,
                     std::optional<idx_t> limit)
    : types_(std::move(types)), keys_(std::move(keys)), limit_(limit) {
}

std::unique_ptr<LocalState> OrderSink::InitLocal() {
    return std::make_unique<OrderLocal>();
}

SinkResult OrderSink::Sink(DataChunk& chunk, LocalState* local, idx_t /*batch_index*/) {
    static_cast<OrderLocal*>(local)->chunks.push_back(ReferenceChunk(chunk));
    return SinkResult::NeedMoreInput;
}

bool OrderSink::Less(const std::vector<std::unique_ptr<DataChunk>>& chunks, const RowLocation& a,
                     const RowLocation& b) const {
    const DataChunk& left = *chunks[a.chunk];
    const DataChunk& right = *chunks[b.chunk];
    for (const SortKey& key : keys_) {
        const Vector& l = left.column(key.column);
        const Vector& r = right.column(key.column);
        bool l_valid = l.RowIsValid(a.row), r_valid = r.RowIsValid(b.row);
        if (!l_valid || !r_valid) {
            if (l_valid == r_valid) {
                continue;
            }
            // NULLS FIRST puts the NULL before, whatever the direction.
            return key.nulls_first ? !l_valid : l_valid;
        }
        int order = CompareRows(l, a.row, r, b.row);
        if (order != 0) {
            return key.descending ? order > 0 : order < 0;
        }
    }
    return false;
}

void OrderSink::SortRun(Run& run) const {
    for (idx_t c = 0; c < run.chunks.size(); c++) {
        for (idx_t row = 0; row < run.chunks[c]->size(); row++) {
            run.order.push_back({static_cast<uint32_t>(c), static_cast<uint32_t>(row)});
        }
    }
    auto less = [&](const RowLocation& a, const RowLocation& b) { return Less(run.chunks, a, b); };
    if (limit_ && *limit_ < run.order.size()) {
        std::partial_sort(run.order.begin(), run.order.begin() + *limit_, run.order.end(), less);
        run.order.resize(*limit_);
        // Stable among equals is not promised by SQL; keep it simple.
    } else {
        std::stable_sort(run.order.begin(), run.order.end(), less);
    }
}

void OrderSink::Combine(LocalState* local) {
    auto run = std::make_unique<Run>();
    run->chunks = std::move(static_cast<OrderLocal*>(local)->chunks);
    SortRun(*run);
    std::lock_guard<std::mutex> guard(mutex_);
    runs_.push_back(std::move(run));
}

void OrderSink::Finalize() {
    // Concatenate the runs' chunks, renumbering their rows, then merge run by run.
    chunks_ = std::make_shared<std::vector<std::unique_ptr<DataChunk>>>();
    std::vector<RowLocation> merged;
    for (auto& run : runs_) {
        auto base = static_cast<uint32_t>(chunks_->size());
        for (auto& chunk : run->chunks) {
            chunks_->push_back(std::move(chunk));
        }
        std::vector<RowLocation> next;
        next.reserve(merged.size() + run->order.size());
        auto less = [&](const RowLocation& a, const RowLocation& b) {
            return Less(*chunks_, a, b);
        };
        std::vector<RowLocation> renumbered;
        renumbered.reserve(run->order.size());
        for (const RowLocation& location : run->order) {
            renumbered.push_back({location.chunk + base, location.row});
        }
        std::merge(merged.begin(), merged.end(), renumbered.begin(), renumbered.end(),
                   std::back_inserter(next), less);
        merged = std::move(next);
        if (limit_ && merged.size() > *limit_) {
            merged.resize(*limit_);
        }
    }
    order_ = std::move(merged);
    runs_.clear();
}

void OrderSink::Scan(idx_t offset, idx_t count, DataChunk& out) const {
    std::shared_ptr<const void> owner = chunks_;
    for (idx_t column = 0; column < types_.size(); column++) {
        out.column(column).Reset();
        GatherRows(*chunks_, column, order_.data() + offset, count, out.column(column), 0, owner);
    }
    out.SetSize(count);
}

std::unique_ptr<LocalState> OrderSource::InitLocal() {
    return std::make_unique<ScanLocal>();
}

SourceResult OrderSource::GetData(DataChunk& out, LocalState* local, TaskContext& /*context*/) {
    idx_t chunk = next_chunk_.fetch_add(1);
    idx_t offset = chunk * kVectorSize;
    if (offset >= sink_->RowCount()) {
        return SourceResult::Finished;
    }
    static_cast<ScanLocal*>(local)->chunk = chunk;
    sink_->Scan(offset, std::min(kVectorSize, sink_->RowCount() - offset), out);
    return SourceResult::HaveMoreOutput;
}

idx_t OrderSource::BatchIndex(LocalState* local) const {
    return static_cast<ScanLocal*>(local)->chunk;
}

} // namespace sluice
