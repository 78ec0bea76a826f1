#include "execution/physical_window.hpp"

#include "common/exception.hpp"
#include "common/memory_size.hpp"
#include "execution/window_evaluator.hpp"

#include <algorithm>
#include <bit>

namespace sluice {

namespace {

struct WindowLocal : public LocalState {
    struct Bucket {
        std::vector<std::unique_ptr<DataChunk>> chunks;
        std::vector<uint64_t> hashes;
        std::vector<RowLocation> rows;    // chunks numbered within `chunks` until Combine
        std::vector<idx_t> chunk_batches; // without PARTITION BY: each chunk's batch index
    };
    WindowLocal(MemoryManager* memory, MemoryStatistics* statistics, idx_t buckets)
        : reservation(std::make_unique<MemoryReservation>(memory, "WINDOW", statistics)),
          buckets(buckets), selections(buckets) {}
    std::unique_ptr<MemoryReservation> reservation;
    std::vector<Bucket> buckets;
    std::vector<uint64_t> row_hashes;
    std::vector<std::vector<idx_t>> selections; // an input chunk's rows per bucket
    // Once the rows go to the external sort: its task state, and the rows handed so far.
    std::unique_ptr<LocalState> sort_local;
    int64_t handed = 0;
};

struct SourceLocal : public LocalState {
    explicit SourceLocal(std::unique_ptr<MemoryReservation> held) : reservation(std::move(held)) {}
    std::vector<std::unique_ptr<DataChunk>> pending;
    idx_t next = 0;
    // The computed bucket's rows until they are emitted: counted, so that other operators see
    // the memory is taken (and spill), though a bucket itself cannot spill.
    std::unique_ptr<MemoryReservation> reservation;
    std::unique_ptr<WindowSink::SortedResults> sorted; // external: the one task's stream
    idx_t next_result = 0;
};

// Per row evaluated after an external sort, besides its columns: its place in the layout (row,
// partition, peer group, peer start).
constexpr idx_t kLayoutBytesPerRow = sizeof(RowLocation) + 3 * sizeof(uint32_t);

idx_t IndexIn(const Vector& vector, idx_t row) {
    return vector.vector_type() == VectorType::CONSTANT ? 0 : row;
}

// Sorts `entries` by `less` in kRadixRanges ranges: `range_of` (below kRadixRanges, in the order
// `less` puts entries) places each entry with a counting pass; each range is then sorted alone.
template <typename Entry, typename Less, typename RangeOf>
void SortInRanges(std::vector<Entry>& entries, const Less& less, const RangeOf& range_of) {
    constexpr idx_t kRanges = WindowSink::kRadixRanges;
    std::vector<size_t> starts(kRanges + 1, 0);
    for (const Entry& entry : entries) {
        starts[range_of(entry) + 1]++;
    }
    for (idx_t range = 0; range < kRanges; range++) {
        starts[range + 1] += starts[range];
    }
    std::vector<Entry> split(entries.size());
    std::vector<size_t> next(starts.begin(), starts.end() - 1);
    for (const Entry& entry : entries) {
        split[next[range_of(entry)]++] = entry;
    }
    for (idx_t range = 0; range < kRanges; range++) {
        std::sort(split.begin() + static_cast<std::ptrdiff_t>(starts[range]),
                  split.begin() + static_cast<std::ptrdiff_t>(starts[range + 1]), less);
    }
    entries.swap(split);
}

} // namespace

WindowSink::WindowSink(std::vector<LogicalType> input_types, idx_t passthrough,
                       std::vector<idx_t> partition_columns, std::vector<SortKey> order_keys,
                       std::vector<WindowFunction> functions, MemoryManager* memory)
    : input_types_(std::move(input_types)), passthrough_(passthrough),
      partition_columns_(std::move(partition_columns)), order_keys_(std::move(order_keys)),
      functions_(std::move(functions)), memory_(memory),
      buckets_(partition_columns_.empty() ? 1 : kBuckets) {
    if (partition_columns_.empty()) {
        // Ties keep the input's order: by batch index, then the place in a task's input.
        std::vector<LogicalType> types = input_types_;
        types.push_back(LogicalTypeId::BIGINT);
        types.push_back(LogicalTypeId::BIGINT);
        std::vector<SortKey> keys = order_keys_;
        keys.push_back({input_types_.size()});
        keys.push_back({input_types_.size() + 1});
        sort_ =
            std::make_unique<OrderSink>(std::move(types), std::move(keys), std::nullopt, memory);
        // Evaluating the sorted rows needs memory beside the merge.
        sort_->SetMergeMemoryShare(0.125);
    }
    prefix_keys_ = std::min(kPrefixKeys, order_keys_.size());
    for (idx_t k = 0; k < prefix_keys_; k++) {
        PhysicalType type = input_types_[order_keys_[k].column].physical();
        exact_prefix_[k] = type != PhysicalType::VARCHAR && type != PhysicalType::INT128 &&
                           type != PhysicalType::FLOAT && type != PhysicalType::DOUBLE;
    }
}

std::vector<LogicalType> WindowSink::OutputTypes() const {
    std::vector<LogicalType> types(
        input_types_.begin(), input_types_.begin() + static_cast<std::ptrdiff_t>(passthrough_));
    for (const auto& function : functions_) {
        types.push_back(function.type);
    }
    return types;
}

std::unique_ptr<LocalState> WindowSink::InitLocal() {
    return std::make_unique<WindowLocal>(memory_, &statistics_, buckets_.size());
}

SinkResult WindowSink::Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) {
    auto& state = *static_cast<WindowLocal*>(local);
    idx_t count = chunk.size();
    if (count == 0) {
        return SinkResult::NeedMoreInput;
    }
    state.row_hashes.assign(count, 0);
    for (idx_t i = 0; i < partition_columns_.size(); i++) {
        HashVector(chunk.column(partition_columns_[i]), count, state.row_hashes.data(), i == 0);
    }
    if (buckets_.size() == 1 && external_.load()) {
        HandToSort(state);
        AppendToSort(state, chunk, batch_index);
        return SinkResult::NeedMoreInput;
    }
    if (buckets_.size() == 1) {
        auto& bucket = state.buckets[0];
        auto index = static_cast<uint32_t>(bucket.chunks.size());
        bucket.chunks.push_back(ReferenceChunk(chunk));
        bucket.chunk_batches.push_back(batch_index);
        for (idx_t row = 0; row < count; row++) {
            bucket.rows.push_back({index, static_cast<uint32_t>(row)});
            bucket.hashes.push_back(0);
        }
    } else {
        for (idx_t row = 0; row < count; row++) {
            // The high bits choose the bucket; the sort compares whole hashes first.
            state.selections[(state.row_hashes[row] >> 56) % buckets_.size()].push_back(row);
        }
        for (idx_t b = 0; b < buckets_.size(); b++) {
            auto& selection = state.selections[b];
            auto& bucket = state.buckets[b];
            for (idx_t done = 0; done < selection.size();) {
                if (bucket.chunks.empty() || bucket.chunks.back()->size() == kVectorSize) {
                    bucket.chunks.push_back(std::make_unique<DataChunk>(input_types_));
                }
                DataChunk& target = *bucket.chunks.back();
                idx_t take = std::min(selection.size() - done, kVectorSize - target.size());
                for (idx_t i = 0; i < take; i++) {
                    bucket.rows.push_back({static_cast<uint32_t>(bucket.chunks.size() - 1),
                                           static_cast<uint32_t>(target.size() + i)});
                    bucket.hashes.push_back(state.row_hashes[selection[done + i]]);
                }
                target.AppendSelected(chunk, selection.data() + done, take);
                done += take;
            }
            selection.clear();
        }
    }
    // The rows, and their places in the buckets.
    idx_t wanted = state.reservation->size() + ChunkMemory(chunk) + count * sizeof(Entry);
    if (state.reservation->TryResize(wanted)) {
        return SinkResult::NeedMoreInput;
    }
    TemporaryDirectory* directory = memory_ ? memory_->temporary_directory() : nullptr;
    if (!directory) {
        // Nothing can spill: the Out of Memory error, unless another task freed memory since.
        state.reservation->Resize(wanted);
        return SinkResult::NeedMoreInput;
    }
    if (buckets_.size() == 1) {
        // One partition cannot be split by hash: every task's rows go to the external sort.
        external_.store(true);
        HandToSort(state);
        return SinkResult::NeedMoreInput;
    }
    SpillBuckets(state);
    return SinkResult::NeedMoreInput;
}

void WindowSink::HandToSort(LocalState& local) {
    auto& state = static_cast<WindowLocal&>(local);
    WindowLocal::Bucket& bucket = state.buckets[0];
    for (idx_t i = 0; i < bucket.chunks.size(); i++) {
        AppendToSort(state, *bucket.chunks[i], bucket.chunk_batches[i]);
    }
    bucket = WindowLocal::Bucket();
    state.reservation->Resize(0);
}

void WindowSink::AppendToSort(LocalState& local, const DataChunk& chunk, idx_t batch_index) {
    auto& state = static_cast<WindowLocal&>(local);
    if (!state.sort_local) {
        state.sort_local = sort_->InitLocal();
    }
    DataChunk extended(sort_->types());
    for (idx_t column = 0; column < input_types_.size(); column++) {
        extended.column(column).Reference(chunk.column(column));
    }
    idx_t count = chunk.size();
    extended.column(input_types_.size())
        .SetConstant(Value::Integer(LogicalTypeId::BIGINT, static_cast<int64_t>(batch_index)));
    auto* handed = extended.column(input_types_.size() + 1).data<int64_t>();
    for (idx_t row = 0; row < count; row++) {
        handed[row] = state.handed++;
    }
    extended.SetSize(count);
    sort_->Sink(extended, state.sort_local.get(), batch_index);
}

void WindowSink::SpillBuckets(LocalState& local) {
    auto& state = static_cast<WindowLocal&>(local);
    for (idx_t b = 0; b < buckets_.size(); b++) {
        WindowLocal::Bucket& bucket = state.buckets[b];
        if (bucket.chunks.empty()) {
            continue;
        }
        SpillFile* file;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            auto& spill = buckets_[b].spill;
            if (!spill) {
                spill =
                    std::make_unique<SpillFile>(*memory_->temporary_directory(),
                                                "a window's input needs more than memory_limit (" +
                                                    FormatMemorySize(memory_->limit()) + ")",
                                                kSpillBuffer);
                statistics_.spill_files.fetch_add(1);
            }
            file = spill.get();
        }
        for (const auto& chunk : bucket.chunks) {
            statistics_.spilled_bytes.fetch_add(file->Append(*chunk));
        }
        bucket.chunks.clear();
        bucket.rows.clear();
        bucket.hashes.clear();
    }
    spilled_.store(true);
    state.reservation->Resize(0);
}

void WindowSink::Combine(LocalState* local) {
    auto& state = *static_cast<WindowLocal*>(local);
    if (spilled_.load() && buckets_.size() > 1) {
        // Buckets are computed one at a time: once some went to disk, all go, so that memory is
        // free for computing them.
        SpillBuckets(state);
    }
    if (buckets_.size() == 1 && external_.load()) {
        HandToSort(state);
        if (state.sort_local) {
            sort_->Combine(state.sort_local.get());
        }
        return;
    }
    if (buckets_.size() == 1) {
        // One partition: each task sorts its rows here, in parallel, as a run that
        // ComputeBucket merges with the others'.
        WindowLocal::Bucket& source = state.buckets[0];
        std::vector<Entry> run;
        run.reserve(source.rows.size());
        for (const RowLocation& row : source.rows) {
            run.push_back({0, {0, 0}, row});
        }
        SetPrefixes(source.chunks, run);
        SortBucket(source.chunks, run, true, &source.chunk_batches);
        Bucket& target = buckets_[0];
        uint32_t base;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            base = static_cast<uint32_t>(target.chunks->size());
            for (auto& chunk : source.chunks) {
                target.chunks->push_back(std::move(chunk));
            }
            target.chunk_batches.insert(target.chunk_batches.end(), source.chunk_batches.begin(),
                                        source.chunk_batches.end());
        }
        for (Entry& entry : run) {
            entry.location.chunk += base;
        }
        std::lock_guard<std::mutex> guard(mutex_);
        target.runs.push_back(std::move(run));
        reservations_.push_back(std::move(state.reservation));
        return;
    }
    std::lock_guard<std::mutex> guard(mutex_);
    for (idx_t b = 0; b < buckets_.size(); b++) {
        Bucket& target = buckets_[b];
        WindowLocal::Bucket& source = state.buckets[b];
        auto base = static_cast<uint32_t>(target.chunks->size());
        for (auto& chunk : source.chunks) {
            target.chunks->push_back(std::move(chunk));
        }
        for (idx_t i = 0; i < source.rows.size(); i++) {
            target.entries.push_back(
                {source.hashes[i], {0, 0}, {source.rows[i].chunk + base, source.rows[i].row}});
        }
    }
    reservations_.push_back(std::move(state.reservation));
}

std::unique_ptr<MemoryReservation> WindowSink::BucketReservation() {
    return std::make_unique<MemoryReservation>(memory_, "WINDOW", &statistics_);
}

std::string WindowSink::ProfileDetails() const {
    if (external_.load()) {
        return statistics_.Render() + "    one partition larger than memory: external sort\n" +
               sort_->ProfileDetails();
    }
    return statistics_.Render();
}

void WindowSink::SetPrefixes(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                             std::vector<Entry>& entries) const {
    for (idx_t k = 0; k < prefix_keys_; k++) {
        const SortKey& key = order_keys_[k];
        for (Entry& entry : entries) {
            entry.prefix[k] = OrderPrefix(chunks[entry.location.chunk]->column(key.column),
                                          entry.location.row, key.descending, key.nulls_first);
        }
    }
}

bool WindowSink::EntryBefore(const std::vector<std::unique_ptr<DataChunk>>& chunks, const Entry& a,
                             const Entry& b, bool trust_hash,
                             const std::vector<idx_t>* chunk_batches) const {
    static const std::vector<idx_t> kNone;
    // Trusting the hash, rows that share it are one partition: only ORDER BY keys remain.
    const std::vector<idx_t>& partition_columns = trust_hash ? kNone : partition_columns_;
    if (a.hash != b.hash) {
        return a.hash < b.hash;
    }
    idx_t first_key = 0;
    if (trust_hash) {
        // The prefixes in key order, as far as each one decides its key.
        for (; first_key < prefix_keys_; first_key++) {
            if (a.prefix[first_key] != b.prefix[first_key]) {
                return a.prefix[first_key] < b.prefix[first_key];
            }
            if (!PrefixDecides(first_key, a.prefix[first_key])) {
                break;
            }
        }
        if (first_key == order_keys_.size()) {
            return ArrivedBefore(a, b, chunk_batches);
        }
    }
    const DataChunk& left = *chunks[a.location.chunk];
    const DataChunk& right = *chunks[b.location.chunk];
    // Partition keys: any consistent order keeps a partition's rows together.
    for (idx_t column : partition_columns) {
        const Vector& l = left.column(column);
        const Vector& r = right.column(column);
        idx_t l_row = IndexIn(l, a.location.row), r_row = IndexIn(r, b.location.row);
        bool l_valid = l.RowIsValid(l_row), r_valid = r.RowIsValid(r_row);
        if (l_valid != r_valid) {
            return !l_valid;
        }
        if (l_valid) {
            int order = CompareRows(l, l_row, r, r_row);
            if (order != 0) {
                return order < 0;
            }
        }
    }
    for (idx_t k = first_key; k < order_keys_.size(); k++) {
        const SortKey& key = order_keys_[k];
        const Vector& l = left.column(key.column);
        const Vector& r = right.column(key.column);
        idx_t l_row = IndexIn(l, a.location.row), r_row = IndexIn(r, b.location.row);
        bool l_valid = l.RowIsValid(l_row), r_valid = r.RowIsValid(r_row);
        if (l_valid != r_valid) {
            return key.nulls_first ? !l_valid : l_valid;
        }
        if (l_valid) {
            int order = CompareRows(l, l_row, r, r_row);
            if (order != 0) {
                return key.descending ? order > 0 : order < 0;
            }
        }
    }
    return ArrivedBefore(a, b, chunk_batches);
}

bool WindowSink::ArrivedBefore(const Entry& a, const Entry& b,
                               const std::vector<idx_t>* chunk_batches) {
    if (chunk_batches) {
        idx_t a_batch = (*chunk_batches)[a.location.chunk];
        idx_t b_batch = (*chunk_batches)[b.location.chunk];
        if (a_batch != b_batch) {
            return a_batch < b_batch;
        }
    }
    if (a.location.chunk != b.location.chunk) {
        return a.location.chunk < b.location.chunk;
    }
    return a.location.row < b.location.row;
}

void WindowSink::SortBucket(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                            std::vector<Entry>& entries, bool trust_hash,
                            const std::vector<idx_t>* chunk_batches) const {
    if (!trust_hash) {
        std::sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
            return EntryBefore(chunks, a, b, false, chunk_batches);
        });
        return;
    }
    EntryLess less{*this, chunks, chunk_batches};
    if (entries.size() < 4 * kRadixRanges) {
        std::sort(entries.begin(), entries.end(), less);
        return;
    }
    // A counting pass splits the entries into small ranges that follow in sort order, each then
    // sorted in cache: by the hash bits below those that chose the bucket, or without PARTITION
    // BY (one hash) by the highest bits in which the first ORDER BY prefixes differ.
    if (!partition_columns_.empty()) {
        // The bucket is the top 8 bits: the range the next ones.
        constexpr int kShift = 56 - std::bit_width(kRadixRanges - 1);
        SortInRanges(entries, less, [](const Entry& entry) {
            return (entry.hash >> kShift) & (kRadixRanges - 1);
        });
        return;
    }
    uint64_t low = ~uint64_t(0), high = 0;
    for (const Entry& entry : entries) {
        low = std::min(low, entry.prefix[0]);
        high = std::max(high, entry.prefix[0]);
    }
    if (prefix_keys_ == 0 || low == high) {
        std::sort(entries.begin(), entries.end(), less);
        return;
    }
    // (high - low) >> shift is below kRadixRanges.
    auto bits = static_cast<int>(std::bit_width(high - low));
    int shift = std::max(0, bits - static_cast<int>(std::bit_width(kRadixRanges - 1)));
    SortInRanges(entries, less,
                 [low, shift](const Entry& entry) { return (entry.prefix[0] - low) >> shift; });
}

bool WindowSink::LayOut(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                        const std::vector<Entry>& entries, bool trust_hash,
                        WindowLayout& layout) const {
    idx_t n = entries.size();
    layout.rows.clear();
    layout.partition_start.clear();
    layout.peer_start.clear();
    layout.partition_of.resize(n);
    layout.peer_of.resize(n);
    layout.rows.reserve(n);
    layout.peer_start.reserve(n + 1);
    for (const Entry& entry : entries) {
        layout.rows.push_back(entry.location);
    }
    for (idx_t position = 0; position < n; position++) {
        const Entry& entry = entries[position];
        bool new_partition = position == 0 || entry.hash != entries[position - 1].hash;
        if (!new_partition && !SameKeys(chunks, partition_columns_, entry, entries[position - 1])) {
            if (trust_hash) {
                return false; // two partitions share a hash
            }
            new_partition = true;
        }
        if (new_partition) {
            layout.partition_start.push_back(static_cast<uint32_t>(position));
        }
        if (new_partition || !Peers(chunks, entry, entries[position - 1])) {
            layout.peer_start.push_back(static_cast<uint32_t>(position));
        }
        layout.partition_of[position] = static_cast<uint32_t>(layout.partition_start.size() - 1);
        layout.peer_of[position] = static_cast<uint32_t>(layout.peer_start.size() - 1);
    }
    layout.partition_start.push_back(static_cast<uint32_t>(n));
    layout.peer_start.push_back(static_cast<uint32_t>(n));
    return true;
}

bool WindowSink::SameKeys(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                          const std::vector<idx_t>& columns, const Entry& a, const Entry& b) {
    for (idx_t column : columns) {
        if (!RowsEqual(chunks[a.location.chunk]->column(column), a.location.row,
                       chunks[b.location.chunk]->column(column), b.location.row)) {
            return false;
        }
    }
    return true;
}

bool WindowSink::Peers(const std::vector<std::unique_ptr<DataChunk>>& chunks, const Entry& a,
                       const Entry& b) const {
    for (idx_t k = 0; k < order_keys_.size(); k++) {
        if (k < prefix_keys_) {
            if (a.prefix[k] != b.prefix[k]) {
                return false;
            }
            if (PrefixDecides(k, a.prefix[k])) {
                continue;
            }
        }
        idx_t column = order_keys_[k].column;
        if (!RowsEqual(chunks[a.location.chunk]->column(column), a.location.row,
                       chunks[b.location.chunk]->column(column), b.location.row)) {
            return false;
        }
    }
    return true;
}

void WindowSink::Finalize() {
    if (external_.load()) {
        // Tasks that finished before the switch left their rows here: to the sort as well, in
        // their order (each task's chunks follow one another).
        WindowLocal rest(memory_, &statistics_, 1);
        rest.buckets[0].chunks = std::move(*buckets_[0].chunks);
        rest.buckets[0].chunk_batches = std::move(buckets_[0].chunk_batches);
        buckets_[0] = Bucket();
        HandToSort(rest);
        if (rest.sort_local) {
            sort_->Combine(rest.sort_local.get());
        }
        reservations_.clear();
        sort_->Finalize();
        return;
    }
    for (auto& bucket : buckets_) {
        if (bucket.spill) {
            bucket.spill->Flush();
        }
    }
}

std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>>
WindowSink::ReadBackBucket(idx_t bucket, std::vector<Entry>& entries) const {
    // The rows in memory (referenced) and those on disk (read back), hashed again.
    auto chunks = std::make_shared<std::vector<std::unique_ptr<DataChunk>>>();
    for (const auto& chunk : *buckets_[bucket].chunks) {
        chunks->push_back(ReferenceChunk(*chunk));
    }
    const SpillFile& file = *buckets_[bucket].spill;
    statistics_.read_back_bytes.fetch_add(file.bytes());
    SpillFile::Reader reader(file, kSpillBuffer);
    std::vector<uint64_t> hashes;
    while (true) {
        auto chunk = std::make_unique<DataChunk>(input_types_);
        if (!reader.Next(*chunk)) {
            break;
        }
        idx_t count = chunk->size();
        hashes.assign(count, 0);
        for (idx_t i = 0; i < partition_columns_.size(); i++) {
            HashVector(chunk->column(partition_columns_[i]), count, hashes.data(), i == 0);
        }
        auto index = static_cast<uint32_t>(chunks->size());
        for (idx_t row = 0; row < count; row++) {
            entries.push_back({hashes[row], {0, 0}, {index, static_cast<uint32_t>(row)}});
        }
        chunks->push_back(std::move(chunk));
    }
    return chunks;
}

std::vector<std::unique_ptr<DataChunk>> WindowSink::ComputeBucket(idx_t bucket) {
    ComputedBucket computed;
    PrepareBucket(bucket, false, computed);
    return std::move(computed.output);
}

void WindowSink::PrepareBucket(idx_t bucket, bool defer_ranges, ComputedBucket& computed) {
    std::vector<Entry> entries = std::move(buckets_[bucket].entries);
    std::shared_ptr<std::vector<std::unique_ptr<DataChunk>>> owner = buckets_[bucket].chunks;
    if (buckets_[bucket].spill) {
        owner = ReadBackBucket(bucket, entries);
    }
    const auto& chunks = *owner;
    auto& runs = buckets_[bucket].runs;
    // Without PARTITION BY, rows equal in every ORDER BY key keep the input's order (batch
    // order, as DuckDB keeps insertion order); with it, their order within the bucket.
    const std::vector<idx_t>* chunk_batches =
        buckets_.size() == 1 ? &buckets_[bucket].chunk_batches : nullptr;
    if (runs.empty()) {
        SetPrefixes(chunks, entries);
        SortBucket(chunks, entries, true, chunk_batches);
    } else {
        // Sorted runs, one per task: merged pairwise, left to right, ties to the left.
        entries = std::move(runs[0]);
        for (idx_t run = 1; run < runs.size(); run++) {
            std::vector<Entry> merged;
            merged.reserve(entries.size() + runs[run].size());
            std::merge(entries.begin(), entries.end(), runs[run].begin(), runs[run].end(),
                       std::back_inserter(merged), EntryLess{*this, chunks, chunk_batches});
            entries = std::move(merged);
            runs[run] = std::vector<Entry>();
        }
        runs.clear();
    }
    computed.owner = owner;
    std::vector<std::unique_ptr<DataChunk>>& output = computed.output;
    if (entries.empty()) {
        return;
    }
    WindowLayout& layout = computed.layout;
    layout.chunks = &chunks;
    // Rows of one hash are taken to be one partition; should two partitions' keys share a
    // hash, the bucket is sorted again comparing the keys themselves.
    if (!LayOut(chunks, entries, true, layout)) {
        SortBucket(chunks, entries, false, chunk_batches);
        LayOut(chunks, entries, false, layout);
    }
    idx_t n = entries.size();

    // Deferring every function, each range makes its own output chunks when it is computed.
    bool all_deferred =
        defer_ranges && std::all_of(functions_.begin(), functions_.end(), EvaluatesInRanges);
    output.resize((n + kVectorSize - 1) / kVectorSize);
    for (idx_t chunk = 0; chunk < output.size() && !all_deferred; chunk++) {
        NewOutputChunk(computed, chunk);
        if (!defer_ranges) {
            GatherPassthrough(computed, chunk);
        }
    }
    entries = std::vector<Entry>();
    EvaluateFunctions(layout, output, passthrough_,
                      defer_ranges ? Deferral::NotInRanges : Deferral::None);
}

void WindowSink::NewOutputChunk(ComputedBucket& computed, idx_t chunk) const {
    computed.output[chunk] = std::make_unique<DataChunk>(OutputTypes());
    computed.output[chunk]->SetSize(
        std::min(kVectorSize, computed.layout.size() - chunk * kVectorSize));
}

void WindowSink::GatherPassthrough(ComputedBucket& computed, idx_t chunk) const {
    DataChunk& target = *computed.output[chunk];
    const RowLocation* rows = computed.layout.rows.data() + chunk * kVectorSize;
    for (idx_t column = 0; column < passthrough_; column++) {
        GatherRows(*computed.owner, column, rows, target.size(), target.column(column), 0,
                   computed.owner);
    }
}

void WindowSink::EvaluateRange(ComputedBucket& computed, idx_t begin, idx_t end) const {
    for (idx_t chunk = begin / kVectorSize; chunk * kVectorSize < end; chunk++) {
        if (!computed.output[chunk]) {
            NewOutputChunk(computed, chunk);
        }
        GatherPassthrough(computed, chunk);
    }
    EvaluateFunctions(computed.layout, computed.output, passthrough_, Deferral::OnlyInRanges, begin,
                      end);
}

void WindowSink::EvaluateFunctions(const WindowLayout& layout,
                                   std::vector<std::unique_ptr<DataChunk>>& output,
                                   idx_t first_column, Deferral deferral, idx_t begin,
                                   idx_t end) const {
    idx_t order_key = order_keys_.empty() ? 0 : order_keys_[0].column;
    bool descending = !order_keys_.empty() && order_keys_[0].descending;
    for (idx_t i = 0; i < functions_.size(); i++) {
        bool in_ranges = EvaluatesInRanges(functions_[i]);
        if ((deferral == Deferral::NotInRanges && in_ranges) ||
            (deferral == Deferral::OnlyInRanges && !in_ranges)) {
            continue;
        }
        EvaluateWindowFunction(functions_[i], layout, order_key, descending,
                               {&output, first_column + i}, begin, std::min(end, layout.size()));
    }
}

bool WindowSink::AnyInRanges() const {
    return std::any_of(functions_.begin(), functions_.end(),
                       [](const WindowFunction& function) { return EvaluatesInRanges(function); });
}

void WindowSink::LayOutSorted(const std::vector<std::unique_ptr<DataChunk>>& chunks,
                              WindowLayout& layout) const {
    auto chunk = static_cast<uint32_t>(chunks.size() - 1);
    for (idx_t row = 0; row < chunks.back()->size(); row++) {
        RowLocation location{chunk, static_cast<uint32_t>(row)};
        bool peer = !layout.rows.empty();
        for (idx_t k = 0; k < order_keys_.size() && peer; k++) {
            const RowLocation& last = layout.rows.back();
            idx_t column = order_keys_[k].column;
            peer = RowsEqual(chunks[last.chunk]->column(column), last.row,
                             chunks[chunk]->column(column), row);
        }
        if (!peer) {
            layout.peer_start.push_back(static_cast<uint32_t>(layout.rows.size()));
        }
        layout.rows.push_back(location);
        layout.partition_of.push_back(0);
        layout.peer_of.push_back(static_cast<uint32_t>(layout.peer_start.size() - 1));
    }
}

std::vector<bool> WindowSink::ColumnsEvaluated() const {
    std::vector<bool> evaluated(input_types_.size(), false);
    for (const SortKey& key : order_keys_) {
        evaluated[key.column] = true;
    }
    auto offset_column = [&](const WindowFrameBound& bound) {
        bool offset =
            bound.kind == FrameBoundKind::Preceding || bound.kind == FrameBoundKind::Following;
        if (offset && !bound.constant) {
            evaluated[bound.column] = true;
        }
    };
    for (const WindowFunction& function : functions_) {
        for (idx_t column : function.arguments) {
            evaluated[column] = true;
        }
        if (function.filter) {
            evaluated[*function.filter] = true;
        }
        offset_column(function.frame.start);
        offset_column(function.frame.end);
    }
    return evaluated;
}

WindowSink::SortedResults WindowSink::EvaluateSorted(MemoryReservation& reservation) {
    // First reading: the columns the functions read, the others NULL constants (no memory).
    std::vector<bool> evaluated = ColumnsEvaluated();
    idx_t result_bytes = 0;
    for (const auto& function : functions_) {
        result_bytes += PhysicalTypeSize(function.type.physical());
    }
    auto chunks = std::make_shared<std::vector<std::unique_ptr<DataChunk>>>();
    WindowLayout layout;
    layout.chunks = chunks.get();
    {
        SortedRows rows(*sort_);
        while (true) {
            DataChunk sorted(sort_->types());
            if (!rows.Next(sorted)) {
                break;
            }
            auto narrow = std::make_unique<DataChunk>(input_types_, 1);
            for (idx_t column = 0; column < input_types_.size(); column++) {
                if (evaluated[column]) {
                    narrow->column(column).Reference(sorted.column(column));
                } else {
                    narrow->column(column).SetConstant(Value::Null(input_types_[column]));
                }
            }
            idx_t count = sorted.size();
            narrow->SetSize(count);
            idx_t wanted = reservation.size() + ChunkMemory(*narrow) +
                           count * (kLayoutBytesPerRow + result_bytes);
            if (!reservation.TryResize(wanted)) {
                throw Exception(ErrorKind::OutOfMemory,
                                "a window without PARTITION BY keeps the columns its functions "
                                "read (ORDER BY keys, arguments) in memory, the other columns "
                                "spilled: " +
                                    FormatMemorySize(wanted) + " for its first " +
                                    std::to_string(layout.size() + count) +
                                    " rows is more than memory_limit (" +
                                    FormatMemorySize(memory_->limit()) + ", " +
                                    FormatMemorySize(memory_->used()) + " in use) allows");
            }
            chunks->push_back(std::move(narrow));
            LayOutSorted(*chunks, layout);
        }
    }
    layout.partition_start = {0, static_cast<uint32_t>(layout.size())};
    layout.peer_start.push_back(static_cast<uint32_t>(layout.size()));
    std::vector<LogicalType> types;
    for (const auto& function : functions_) {
        types.push_back(function.type);
    }
    SortedResults sorted;
    idx_t bytes = 0;
    for (idx_t start = 0; start < layout.size(); start += kVectorSize) {
        sorted.results.push_back(std::make_unique<DataChunk>(types));
        sorted.results.back()->SetSize(std::min(kVectorSize, layout.size() - start));
    }
    EvaluateFunctions(layout, sorted.results, 0);
    for (const auto& chunk : sorted.results) {
        bytes += ChunkMemory(*chunk);
    }
    reservation.ForceResize(bytes);
    // The second reading streams the whole rows out beside these results.
    sorted.types = sort_->types();
    sorted.rows = std::make_unique<SortedRows>(*sort_);
    return sorted;
}

std::unique_ptr<LocalState> WindowSource::InitLocal() {
    return std::make_unique<SourceLocal>(sink_->BucketReservation());
}

SourceResult WindowSource::GetData(DataChunk& out, LocalState* local, TaskContext& context) {
    auto& state = *static_cast<SourceLocal*>(local);
    if (sink_->external()) {
        return GetSorted(out, state);
    }
    bool one_partition = sink_->BucketCount() == 1 && sink_->AnyInRanges();
    while (state.next == state.pending.size()) {
        SourceResult result = one_partition ? NextRange(state, context) : NextBucket(state);
        if (result != SourceResult::HaveMoreOutput) {
            return result;
        }
    }
    std::unique_ptr<DataChunk> chunk = std::move(state.pending[state.next++]);
    for (idx_t column = 0; column < chunk->ColumnCount(); column++) {
        out.column(column).Reset();
        out.column(column).Reference(chunk->column(column));
    }
    out.SetSize(chunk->size());
    return SourceResult::HaveMoreOutput;
}

SourceResult WindowSource::NextBucket(LocalState& local) {
    auto& state = static_cast<SourceLocal&>(local);
    idx_t bucket = next_bucket_.fetch_add(1);
    if (bucket >= sink_->BucketCount()) {
        return SourceResult::Finished;
    }
    state.pending.clear();
    state.reservation->Resize(0);
    state.pending = sink_->ComputeBucket(bucket);
    state.next = 0;
    idx_t bytes = 0;
    for (const auto& chunk : state.pending) {
        bytes += ChunkMemory(*chunk);
    }
    state.reservation->ForceResize(bytes);
    return SourceResult::HaveMoreOutput;
}

SourceResult WindowSource::NextRange(LocalState& local, TaskContext& context) {
    auto& state = static_cast<SourceLocal&>(local);
    OnePartition& one = one_;
    std::unique_lock<std::mutex> lock(one.mutex);
    if (!one.ready && one.preparing) {
        one.waiting.push_back(context.MakeWaker());
        return SourceResult::Blocked;
    }
    if (!one.ready) {
        one.preparing = true;
        lock.unlock();
        std::vector<Waker> waiting;
        try {
            sink_->PrepareBucket(0, true, one.bucket);
        } catch (...) {
            lock.lock();
            one.ready = one.failed = true;
            waiting.swap(one.waiting);
            lock.unlock();
            for (Waker& waker : waiting) {
                waker.Wake();
            }
            throw;
        }
        // The output's vectors made already; what the ranges make and gather, their tasks count.
        idx_t row_bytes = 0;
        for (const LogicalType& type : sink_->OutputTypes()) {
            row_bytes += PhysicalTypeSize(type.physical());
        }
        idx_t made = std::count_if(one.bucket.output.begin(), one.bucket.output.end(),
                                   [](const auto& chunk) { return chunk != nullptr; });
        one.reservation = sink_->BucketReservation();
        one.reservation->ForceResize(made * kVectorSize * row_bytes);
        lock.lock();
        one.ranges = (one.bucket.layout.size() + kRangeRows - 1) / kRangeRows;
        one.ready = true;
        waiting.swap(one.waiting);
        lock.unlock();
        for (Waker& waker : waiting) {
            waker.Wake();
        }
    } else {
        lock.unlock();
    }
    idx_t range = one.next_range.fetch_add(1);
    if (one.failed || range >= one.ranges) {
        return SourceResult::Finished;
    }
    idx_t begin = range * kRangeRows;
    idx_t end = std::min(begin + kRangeRows, one.bucket.layout.size());
    sink_->EvaluateRange(one.bucket, begin, end);
    // Ranges are whole chunks of the output: each task takes its own.
    state.pending.clear();
    state.next = 0;
    idx_t gathered = 0;
    for (idx_t chunk = begin / kVectorSize; chunk * kVectorSize < end; chunk++) {
        state.pending.push_back(std::move(one.bucket.output[chunk]));
        gathered += ChunkMemory(*state.pending.back());
    }
    state.reservation->ForceResize(gathered);
    if (one.ranges_done.fetch_add(1) + 1 == one.ranges) {
        // The last range done: the layout and the rows it points into are no longer read.
        one.bucket.layout = WindowLayout();
        one.bucket.owner.reset();
        one.reservation->Resize(0);
    }
    return SourceResult::HaveMoreOutput;
}

SourceResult WindowSource::GetSorted(DataChunk& out, LocalState& local) {
    auto& state = static_cast<SourceLocal&>(local);
    if (!state.sorted) {
        state.sorted =
            std::make_unique<WindowSink::SortedResults>(sink_->EvaluateSorted(*state.reservation));
        next_bucket_.store(1);
    }
    DataChunk rows(state.sorted->types);
    if (!state.sorted->rows->Next(rows)) {
        return SourceResult::Finished;
    }
    const DataChunk& results = *state.sorted->results.at(state.next_result++);
    if (results.size() != rows.size()) {
        throw Exception(ErrorKind::Internal, "WINDOW: the sorted rows' second reading differs");
    }
    // The passthrough columns lead both the input and the output; the results follow.
    idx_t passthrough = out.ColumnCount() - results.ColumnCount();
    for (idx_t column = 0; column < out.ColumnCount(); column++) {
        out.column(column).Reset();
        out.column(column).Reference(column < passthrough ? rows.column(column)
                                                          : results.column(column - passthrough));
    }
    out.SetSize(rows.size());
    return SourceResult::HaveMoreOutput;
}

double WindowSource::Progress() const {
    if (one_.ranges_done.load() > 0) {
        // one_.ranges is set before any range is done.
        return static_cast<double>(one_.ranges_done.load()) / static_cast<double>(one_.ranges);
    }
    idx_t buckets = sink_->BucketCount();
    return buckets == 0 ? -1 : std::min(1.0, static_cast<double>(next_bucket_.load()) / buckets);
}

} // namespace sluice
