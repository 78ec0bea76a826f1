#include "execution/physical_order.hpp"

#include <algorithm>

namespace sluice {

namespace {

struct OrderLocal : public LocalState {
    explicit OrderLocal(MemoryManager* memory) : reservation(memory, "ORDER BY") {}
    std::vector<std::unique_ptr<DataChunk>> chunks;
    idx_t rows = 0;
    MemoryReservation reservation;
};

struct ScanLocal : public LocalState {
    idx_t chunk = 0;
};

} // namespace

OrderSink::OrderSink(std::vector<LogicalType> types, std::vector<SortKey> keys,
                     std::optional<idx_t> limit, MemoryManager* memory)
    : types_(std::move(types)), keys_(std::move(keys)), limit_(limit), memory_(memory) {
}

std::unique_ptr<LocalState> OrderSink::InitLocal() {
    return std::make_unique<OrderLocal>(memory_);
}

SinkResult OrderSink::Sink(DataChunk& chunk, LocalState* local, idx_t /*batch_index*/) {
    auto& state = *static_cast<OrderLocal*>(local);
    state.chunks.push_back(ReferenceChunk(chunk));
    state.rows += chunk.size();
    state.reservation.Resize(state.reservation.size() + ChunkMemory(*state.chunks.back()) +
                             chunk.size() * sizeof(RowLocation));
    if (limit_ && state.rows > std::max<idx_t>(2 * *limit_, 16 * kVectorSize)) {
        // Top-N: keep only the first `limit` rows seen so far, so memory stays bounded.
        Run run;
        run.chunks = std::move(state.chunks);
        SortRun(run);
        auto owner =
            std::make_shared<std::vector<std::unique_ptr<DataChunk>>>(std::move(run.chunks));
        state.chunks.clear();
        state.rows = 0;
        idx_t bytes = 0;
        for (idx_t offset = 0; offset < run.order.size(); offset += kVectorSize) {
            idx_t count = std::min(kVectorSize, run.order.size() - offset);
            auto top = std::make_unique<DataChunk>(types_);
            for (idx_t column = 0; column < types_.size(); column++) {
                Vector& target = top->column(column);
                if (types_[column].physical() != PhysicalType::VARCHAR) {
                    GatherRows(*owner, column, run.order.data() + offset, count, target, 0, owner);
                    continue;
                }
                // Strings are copied, so that the discarded rows' memory is freed.
                for (idx_t i = 0; i < count; i++) {
                    const RowLocation& location = run.order[offset + i];
                    target.CopyRow((*owner)[location.chunk]->column(column), location.row, i);
                }
            }
            top->SetSize(count);
            state.rows += count;
            bytes += ChunkMemory(*top) + count * sizeof(RowLocation);
            state.chunks.push_back(std::move(top));
        }
        state.reservation.Resize(bytes);
    }
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
    auto& state = *static_cast<OrderLocal*>(local);
    auto run = std::make_unique<Run>();
    run->chunks = std::move(state.chunks);
    SortRun(*run);
    auto kept = std::make_unique<MemoryReservation>(memory_, "ORDER BY");
    kept->Resize(state.reservation.size());
    state.reservation.Resize(0);
    std::lock_guard<std::mutex> guard(mutex_);
    runs_.push_back(std::move(run));
    reservations_.push_back(std::move(kept));
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
