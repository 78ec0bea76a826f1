#include "execution/physical_hash_aggregate.hpp"

#include "common/memory_size.hpp"

#include <algorithm>

namespace sluice {

namespace {

struct AggregateLocal : public LocalState {
    std::unique_ptr<AggregateHashTable> table;
    std::unique_ptr<MemoryReservation> reservation;
};

struct AggregateScanLocal : public LocalState {
    idx_t chunk = 0;
    // Partitioned results: the partition this task merged and scans (freed when it moves on:
    // the chunks it produced share the memory they show).
    std::unique_ptr<AggregateHashTable> partition;
    std::unique_ptr<MemoryReservation> reservation;
    idx_t partition_index = 0;
    idx_t next_chunk = 0;
};

// Above this many groups the final merge runs per partition on all threads.
constexpr idx_t kPartitionedMergeGroups = 100000;
constexpr idx_t kMergePartitions = 32;
// Spilled groups are read back in pieces of this size, one partition at a time.
constexpr size_t kSpillReadBuffer = 128 << 10;

} // namespace

HashAggregateSink::HashAggregateSink(std::vector<LogicalType> key_types,
                                     std::vector<AggregateFunction> aggregates,
                                     std::vector<std::vector<idx_t>> argument_columns,
                                     MemoryManager* memory)
    : key_types_(std::move(key_types)),
      aggregates_(std::make_shared<const std::vector<AggregateFunction>>(std::move(aggregates))),
      argument_columns_(std::move(argument_columns)), memory_(memory) {
}

std::vector<LogicalType> HashAggregateSink::OutputTypes() const {
    std::vector<LogicalType> types = key_types_;
    for (const auto& aggregate : *aggregates_) {
        types.push_back(aggregate.return_type);
    }
    return types;
}

std::unique_ptr<LocalState> HashAggregateSink::InitLocal() {
    auto local = std::make_unique<AggregateLocal>();
    local->table = std::make_unique<AggregateHashTable>(key_types_, aggregates_);
    local->reservation =
        std::make_unique<MemoryReservation>(memory_, "a hash aggregate", &statistics_);
    return local;
}

bool HashAggregateSink::CanSpill(const AggregateHashTable& table) const {
    return memory_ && memory_->temporary_directory() && !key_types_.empty() && table.Spillable() &&
           table.GroupCount() > 0;
}

HashAggregateSink::SpilledTable HashAggregateSink::Spill(AggregateHashTable& table) {
    SpilledTable spilled;
    spilled.file = std::make_unique<SpillFile>(*memory_->temporary_directory(),
                                               "a hash aggregate needs more than memory_limit (" +
                                                   FormatMemorySize(memory_->limit()) + ")");
    table.SpillTo(*spilled.file, kMergePartitions, spilled.offsets);
    spilled.file->Flush();
    statistics_.spilled_bytes.fetch_add(spilled.file->bytes());
    statistics_.spill_files.fetch_add(1);
    return spilled;
}

SinkResult HashAggregateSink::Sink(DataChunk& chunk, LocalState* local, idx_t /*batch_index*/) {
    auto& state = *static_cast<AggregateLocal*>(local);
    // What the table may take while it takes this chunk is reserved first.
    idx_t peak = state.table->MemoryForSink(chunk.size());
    if (!state.reservation->TryResize(std::max(peak, state.reservation->size()))) {
        if (state.table->GroupCount() == 0 ||
            (state.table->GroupCount() == 1 && state.table->Spillable())) {
            // An empty table (or a single group of fixed size): the least the task needs to
            // progress. A DISTINCT set of one group grows with its input, and fails below.
            state.reservation->ForceResize(peak);
        } else if (!CanSpill(*state.table)) {
            // The Out of Memory error, unless another task freed memory since TryResize.
            state.reservation->Resize(peak);
        } else {
            // Out of memory: this table's groups go to disk and the task starts an empty table.
            SpilledTable spilled = Spill(*state.table);
            state.table = std::make_unique<AggregateHashTable>(key_types_, aggregates_);
            state.reservation->ForceResize(state.table->MemoryForSink(chunk.size()));
            std::lock_guard<std::mutex> guard(mutex_);
            spilled_.push_back(std::move(spilled));
        }
    }
    state.table->Sink(chunk, argument_columns_);
    // What it holds now (long strings of keys and min/max states are known only now; the
    // room for growth not taken goes back).
    state.reservation->ForceResize(state.table->MemoryUsage());
    return SinkResult::NeedMoreInput;
}

void HashAggregateSink::Combine(LocalState* local) {
    auto& state = *static_cast<AggregateLocal*>(local);
    bool spilling;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        spilling = !spilled_.empty();
    }
    if (spilling && CanSpill(*state.table)) {
        // Once anything spilled, every table is merged from disk.
        SpilledTable spilled = Spill(*state.table);
        state.table.reset();
        state.reservation.reset();
        std::lock_guard<std::mutex> guard(mutex_);
        spilled_.push_back(std::move(spilled));
        return;
    }
    std::lock_guard<std::mutex> guard(mutex_);
    tables_.push_back(std::move(state.table));
    reservations_.push_back(std::move(state.reservation));
}

void HashAggregateSink::Finalize() {
    bool spill_all = false;
    if (spilled_.empty() && tables_.size() > 1 && !key_types_.empty()) {
        // Folding the tables into one grows it by at most what the others hold: when that does
        // not fit, the result is merged from disk instead.
        idx_t growth = 0;
        for (const auto& table : tables_) {
            growth += table->MemoryUsage();
        }
        MemoryReservation trial(memory_, "a hash aggregate");
        spill_all = !trial.TryResize(growth) && CanSpill(*tables_.front());
    }
    if (spill_all || !spilled_.empty()) {
        // Tables combined before the first spill go to disk too; then the result is merged
        // partition by partition.
        for (auto& table : tables_) {
            if (table->GroupCount() > 0) {
                spilled_.push_back(Spill(*table));
            }
        }
        tables_.clear();
        reservations_.clear();
        partition_count_ = kMergePartitions;
        return;
    }
    if (tables_.empty()) {
        tables_.push_back(std::make_unique<AggregateHashTable>(key_types_, aggregates_));
    }
    idx_t groups = 0;
    for (const auto& table : tables_) {
        groups += table->GroupCount();
    }
    if (!key_types_.empty() && tables_.size() > 1 && groups > kPartitionedMergeGroups) {
        partition_count_ = kMergePartitions;
        for (const auto& table : tables_) {
            partition_groups_.push_back(table->PartitionGroups(partition_count_));
        }
        return;
    }
    // Fold into the largest table: fewest groups to move.
    std::sort(tables_.begin(), tables_.end(),
              [](const auto& a, const auto& b) { return a->GroupCount() > b->GroupCount(); });
    // The largest table grows by what it takes in from the others.
    auto& growth = reservations_.emplace_back(
        std::make_unique<MemoryReservation>(memory_, "a hash aggregate", &statistics_));
    idx_t before = tables_.front()->MemoryUsage();
    for (idx_t i = 1; i < tables_.size(); i++) {
        tables_.front()->Combine(*tables_[i]);
        // Reserved beforehand when it could not fit (or the merge went to disk).
        growth->ForceResize(std::max(tables_.front()->MemoryUsage(), before) - before);
    }
    tables_.front()->EnsureSingleGroup();
}

std::unique_ptr<AggregateHashTable> HashAggregateSink::MergePartition(idx_t partition) {
    auto merged = std::make_unique<AggregateHashTable>(key_types_, aggregates_);
    for (idx_t t = 0; t < tables_.size(); t++) {
        merged->CombineGroups(*tables_[t], partition_groups_[t][partition]);
    }
    if (!spilled_.empty()) {
        DataChunk chunk(merged->SpilledTypes());
        for (const SpilledTable& spilled : spilled_) {
            uint64_t start = spilled.offsets[partition], end = spilled.offsets[partition + 1];
            SpillFile::Reader reader(*spilled.file, start, end, kSpillReadBuffer);
            while (reader.Next(chunk)) {
                merged->CombineSpilled(chunk);
            }
            statistics_.read_back_bytes.fetch_add(end - start);
        }
    }
    return merged;
}

SourceResult AggregateResultSource::ScanPartitions(DataChunk& out, LocalState* local) {
    auto& state = *static_cast<AggregateScanLocal*>(local);
    while (true) {
        if (state.partition && state.next_chunk < state.partition->ChunkCount()) {
            state.chunk = (state.partition_index << 32) | state.next_chunk;
            state.partition->Scan(state.next_chunk++, out);
            return SourceResult::HaveMoreOutput;
        }
        state.partition.reset();
        state.reservation.reset();
        idx_t partition = next_partition_.fetch_add(1);
        if (partition >= sink_->partition_count()) {
            return SourceResult::Finished;
        }
        state.partition = sink_->MergePartition(partition);
        state.reservation = std::make_unique<MemoryReservation>(
            sink_->memory(), "a partition of a hash aggregate", &sink_->statistics());
        state.reservation->ForceResize(state.partition->MemoryUsage());
        state.partition_index = partition;
        state.next_chunk = 0;
    }
}

std::unique_ptr<LocalState> AggregateResultSource::InitLocal() {
    return std::make_unique<AggregateScanLocal>();
}

SourceResult AggregateResultSource::GetData(DataChunk& out, LocalState* local,
                                            TaskContext& /*context*/) {
    if (sink_->partitioned()) {
        return ScanPartitions(out, local);
    }
    const AggregateHashTable& table = sink_->result();
    idx_t chunk = next_chunk_.fetch_add(1);
    if (chunk >= table.ChunkCount()) {
        return SourceResult::Finished;
    }
    static_cast<AggregateScanLocal*>(local)->chunk = chunk;
    table.Scan(chunk, out);
    return SourceResult::HaveMoreOutput;
}

idx_t AggregateResultSource::BatchIndex(LocalState* local) const {
    return static_cast<AggregateScanLocal*>(local)->chunk;
}

} // namespace sluice
