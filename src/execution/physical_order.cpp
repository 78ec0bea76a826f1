#include "execution/physical_order.hpp"

#include "common/exception.hpp"
#include "common/memory_size.hpp"
#include "parallel/cancellation.hpp"

#include <algorithm>

namespace sluice {

namespace {

struct OrderLocal : public LocalState {
    OrderLocal(MemoryManager* memory, MemoryStatistics* statistics)
        : held(std::make_unique<MemoryReservation>(memory, "ORDER BY", statistics)),
          reservation(*held) {}
    std::vector<std::unique_ptr<DataChunk>> chunks;
    idx_t rows = 0;
    // Handed to the sink with the rows by Combine.
    std::unique_ptr<MemoryReservation> held;
    MemoryReservation& reservation;
};

struct OrderScanLocal : public LocalState {
    idx_t batch = 0;
    idx_t next_chunk = 0, end_chunk = 0; // of the batch
};

// Read buffer of each run while merging: large enough for sequential reads, small enough that
// many runs merge at once.
constexpr size_t kMergeReadBuffer = 128 << 10;

} // namespace

OrderSink::OrderSink(std::vector<LogicalType> types, std::vector<SortKey> keys,
                     std::optional<idx_t> limit, MemoryManager* memory)
    : types_(std::move(types)), keys_(std::move(keys)), limit_(limit), memory_(memory) {
}

std::unique_ptr<LocalState> OrderSink::InitLocal() {
    return std::make_unique<OrderLocal>(memory_, &statistics_);
}

SinkResult OrderSink::Sink(DataChunk& chunk, LocalState* local, idx_t /*batch_index*/) {
    auto& state = *static_cast<OrderLocal*>(local);
    state.chunks.push_back(ReferenceChunk(chunk));
    state.rows += chunk.size();
    idx_t wanted = state.reservation.size() + ChunkMemory(*state.chunks.back()) +
                   chunk.size() * sizeof(RowLocation);
    bool fits = state.reservation.TryResize(wanted);
    TemporaryDirectory* directory = memory_ ? memory_->temporary_directory() : nullptr;
    if (!fits && limit_) {
        // A top-N holds at most a few times its limit in rows: it needs no disk.
        state.reservation.ForceResize(wanted);
    } else if (!fits && !directory) {
        // The Out of Memory error, unless another task freed memory since TryResize.
        state.reservation.Resize(wanted);
    } else if (!fits) {
        // Out of memory: this task's rows become a sorted run on disk.
        Run run;
        run.chunks = std::move(state.chunks);
        SortRun(run);
        auto file = SpillRun(run);
        state.chunks.clear();
        state.rows = 0;
        state.reservation.Resize(0);
        std::lock_guard<std::mutex> guard(mutex_);
        spilled_.push_back(std::move(file));
        return SinkResult::NeedMoreInput;
    }
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
        state.reservation.ForceResize(bytes);
    }
    return SinkResult::NeedMoreInput;
}

bool OrderSink::RowBefore(const DataChunk& left, idx_t a_row, const DataChunk& right,
                          idx_t b_row) const {
    for (const SortKey& key : keys_) {
        const Vector& l = left.column(key.column);
        const Vector& r = right.column(key.column);
        bool l_valid = l.RowIsValid(a_row), r_valid = r.RowIsValid(b_row);
        if (!l_valid || !r_valid) {
            if (l_valid == r_valid) {
                continue;
            }
            // NULLS FIRST puts the NULL before, whatever the direction.
            return key.nulls_first ? !l_valid : l_valid;
        }
        int order = CompareRows(l, a_row, r, b_row);
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
    // A cancelled query stops sorting within a few milliseconds (a comparison throws).
    uint32_t comparisons = 0;
    auto less = [&](const RowLocation& a, const RowLocation& b) {
        if (++comparisons % (1 << 16) == 0 && Cancellation::Requested()) {
            throw Exception(ErrorKind::Interrupted, "Interrupted!");
        }
        return Less(run.chunks, a, b);
    };
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
    std::lock_guard<std::mutex> guard(mutex_);
    runs_.push_back(std::move(run));
    reservations_.push_back(std::move(state.held));
}

RowLess OrderSink::MergeOrder() const {
    return [this](const DataChunk& a, idx_t a_row, const DataChunk& b, idx_t b_row) {
        return RowBefore(a, a_row, b, b_row);
    };
}

std::string OrderSink::SpillReason() const {
    return "ORDER BY needs more than memory_limit (" + FormatMemorySize(memory_->limit()) + ")";
}

std::unique_ptr<SpillFile> OrderSink::SpillRun(const Run& run) {
    auto file = std::make_unique<SpillFile>(*memory_->temporary_directory(), SpillReason());
    auto owner = std::make_shared<std::vector<std::unique_ptr<DataChunk>>>();
    DataChunk out(types_);
    for (idx_t offset = 0; offset < run.order.size(); offset += kVectorSize) {
        idx_t count = std::min(kVectorSize, run.order.size() - offset);
        out.Reset();
        for (idx_t column = 0; column < types_.size(); column++) {
            GatherRows(run.chunks, column, run.order.data() + offset, count, out.column(column), 0,
                       owner);
        }
        out.SetSize(count);
        file->Append(out);
    }
    file->Flush();
    statistics_.spilled_bytes.fetch_add(file->bytes());
    statistics_.spill_files.fetch_add(1);
    return file;
}

void OrderSink::MergePasses(idx_t fan_in) {
    RowLess less = MergeOrder();
    while (spilled_.size() > fan_in) {
        // Merge the first `fan_in` runs into one, appended at the end: every run takes part in
        // a pass before any run takes part in a second.
        std::vector<const SpillFile*> inputs;
        for (idx_t i = 0; i < fan_in; i++) {
            inputs.push_back(spilled_[i].get());
            statistics_.read_back_bytes.fetch_add(spilled_[i]->bytes());
        }
        auto merged = std::make_unique<SpillFile>(*memory_->temporary_directory(), SpillReason());
        SortedRunMerger merger(types_, inputs, less, kMergeReadBuffer);
        DataChunk out(types_);
        while (true) {
            out.Reset();
            if (!merger.Next(out)) {
                break;
            }
            merged->Append(out);
        }
        merged->Flush();
        statistics_.spilled_bytes.fetch_add(merged->bytes());
        statistics_.spill_files.fetch_add(1);
        spilled_.erase(spilled_.begin(), spilled_.begin() + static_cast<std::ptrdiff_t>(fan_in));
        spilled_.push_back(std::move(merged));
        merge_passes_++;
    }
}

void OrderSink::Finalize() {
    if (!spilled_.empty()) {
        // External sort: the runs still in memory join the spilled ones, then the runs are
        // merged with as many cursors as memory allows.
        for (auto& run : runs_) {
            spilled_.push_back(SpillRun(*run));
        }
        runs_.clear();
        reservations_.clear();
        idx_t cursor = SortedRunMerger::CursorMemory(types_, kMergeReadBuffer);
        idx_t limit = memory_->limit();
        idx_t used = memory_->used();
        idx_t free_memory = limit > used ? limit - used : 0;
        auto share = static_cast<idx_t>(static_cast<double>(free_memory) * merge_memory_share_);
        idx_t fan_in = std::clamp<idx_t>(share / cursor, 2, 128);
        merge_reservation_ = std::make_unique<MemoryReservation>(memory_, "ORDER BY", &statistics_);
        // The merge cursors are the least the sort needs to progress.
        merge_reservation_->ForceResize(std::min<idx_t>(fan_in, spilled_.size()) * cursor);
        MergePasses(fan_in);
        std::vector<const SpillFile*> inputs;
        for (const auto& run : spilled_) {
            inputs.push_back(run.get());
            statistics_.read_back_bytes.fetch_add(run->bytes());
        }
        merger_ = std::make_unique<SortedRunMerger>(types_, inputs, MergeOrder(), kMergeReadBuffer);
        external_ = true;
        return;
    }
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

std::unique_ptr<SortedRunMerger> OrderSink::TakeMerger() {
    if (merger_) {
        return std::move(merger_);
    }
    std::vector<const SpillFile*> inputs;
    for (const auto& run : spilled_) {
        inputs.push_back(run.get());
    }
    return std::make_unique<SortedRunMerger>(types_, inputs, MergeOrder(), kMergeReadBuffer);
}

SortedRows::SortedRows(OrderSink& sink) : sink_(sink) {
    if (sink.external()) {
        merger_ = sink.TakeMerger();
    }
}

bool SortedRows::Next(DataChunk& out) {
    if (merger_) {
        return merger_->Next(out);
    }
    if (offset_ >= sink_.RowCount()) {
        return false;
    }
    idx_t count = std::min(kVectorSize, sink_.RowCount() - offset_);
    sink_.Scan(offset_, count, out);
    offset_ += count;
    return true;
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
    return std::make_unique<OrderScanLocal>();
}

std::string OrderSink::ProfileDetails() const {
    std::string details = statistics_.Render();
    if (merge_passes_ > 0) {
        details += "    merge passes before the last: " + std::to_string(merge_passes_) + "\n";
    }
    return details;
}

SourceResult OrderSource::GetData(DataChunk& out, LocalState* local, TaskContext& /*context*/) {
    auto& state = *static_cast<OrderScanLocal*>(local);
    if (sink_->external()) {
        // One task (MaxThreads): the merge is a single ordered stream.
        state.batch = next_batch_.fetch_add(1);
        return sink_->merger().Next(out) ? SourceResult::HaveMoreOutput : SourceResult::Finished;
    }
    if (state.next_chunk == state.end_chunk) {
        state.batch = next_batch_.fetch_add(1);
        state.next_chunk = state.batch * kChunksPerBatch;
        state.end_chunk = state.next_chunk + kChunksPerBatch;
    }
    idx_t offset = state.next_chunk++ * kVectorSize;
    if (offset >= sink_->RowCount()) {
        return SourceResult::Finished;
    }
    sink_->Scan(offset, std::min(kVectorSize, sink_->RowCount() - offset), out);
    return SourceResult::HaveMoreOutput;
}

idx_t OrderSource::BatchIndex(LocalState* local) const {
    return static_cast<OrderScanLocal*>(local)->batch;
}

} // namespace sluice
