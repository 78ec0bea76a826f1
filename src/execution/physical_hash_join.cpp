#include "execution/physical_hash_join.hpp"

#include "common/memory_size.hpp"
#include "execution/expression_executor.hpp"

#include <algorithm>

namespace sluice {

namespace {

struct BuildLocal : public LocalState {
    // Moves the rows this task holds to the spill's partitions.
    void MoveTo(JoinSpill& spill) {
        for (const auto& held : chunks) {
            spill.AppendBuild(*held);
        }
        chunks.clear();
        filling = nullptr;
        reservation.Resize(0);
    }

    BuildLocal(MemoryManager* memory, MemoryStatistics* statistics)
        : held(std::make_unique<MemoryReservation>(memory, "a hash join build", statistics)),
          reservation(*held) {}
    std::vector<std::unique_ptr<DataChunk>> chunks;
    DataChunk* filling = nullptr; // the chunk of `chunks` sparse input is copied into
    // Handed to the sink with the rows by Combine: they stay reserved as long as the table lives.
    std::unique_ptr<MemoryReservation> held;
    MemoryReservation& reservation;
};

} // namespace

std::unique_ptr<LocalState> HashJoinBuildSink::InitLocal() {
    return std::make_unique<BuildLocal>(memory_, &state_->statistics);
}

JoinSpill* HashJoinBuildSink::StartSpilling() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (!state_->spill) {
        state_->spill =
            std::make_shared<JoinSpill>(*memory_, table_->key_count(), table_->types(),
                                        state_->probe_types, state_->emits_unmatched_build);
        spilling_.store(state_->spill.get());
    }
    return state_->spill.get();
}

SinkResult HashJoinBuildSink::Sink(DataChunk& chunk, LocalState* local, idx_t /*batch_index*/) {
    auto& state = *static_cast<BuildLocal*>(local);
    if (JoinSpill* spill = spilling_.load()) {
        state.MoveTo(*spill);
        spill->AppendBuild(chunk);
        return SinkResult::NeedMoreInput;
    }
    idx_t wanted =
        state.reservation.size() + AppendRowsCompactly(state.chunks, state.filling, chunk);
    if (!state.reservation.TryResize(wanted)) {
        if (!CanSpill()) {
            // The Out of Memory error, unless another task freed memory since TryResize.
            state.reservation.Resize(wanted);
        } else {
            state.MoveTo(*StartSpilling());
        }
    }
    return SinkResult::NeedMoreInput;
}

void HashJoinBuildSink::Combine(LocalState* local) {
    auto& state = *static_cast<BuildLocal*>(local);
    if (JoinSpill* spill = spilling_.load()) {
        state.MoveTo(*spill);
        return;
    }
    table_->Append(std::move(state.chunks));
    std::lock_guard<std::mutex> guard(mutex_);
    reservations_.push_back(std::move(state.held));
}

void HashJoinBuildSink::Finalize() {
    if (!spilling_.load() &&
        !index_reservation_.TryResize(table_->IndexMemory(table_->RowCount()))) {
        if (!CanSpill()) {
            // The error, unless another query freed memory since TryResize.
            index_reservation_.Resize(table_->IndexMemory(table_->RowCount()));
        } else {
            StartSpilling(); // the rows fit, their index does not
        }
    }
    if (JoinSpill* spill = spilling_.load()) {
        // Rows that tasks combined before the first spill are partitioned too; then as many
        // partitions as fit in half of the free memory come back to be probed as usual.
        for (const auto& chunk : table_->TakeChunks()) {
            spill->AppendBuild(*chunk);
        }
        reservations_.clear();
        idx_t limit = memory_->limit(), used = memory_->used();
        spill->LoadResident(*table_, limit > used ? (limit - used) / 2 : 0, index_reservation_);
    }
    table_->Build();
    if (!spilling_.load()) {
        PublishKeyFilters();
    }
}

void HashJoinBuildSink::PublishKeyFilters() {
    for (idx_t k = 0; k < key_filters_.size(); k++) {
        if (!key_filters_[k]) {
            continue;
        }
        // Without room for its bloom filter, a filter keeps the keys' range only.
        idx_t bloom = JoinKeyFilter::BloomBytes(table_->RowCount());
        bool with_bloom =
            bloom > 0 && filter_reservation_.TryResize(filter_reservation_.size() + bloom);
        key_filters_[k]->Publish(table_->chunks(), k, table_->RowCount(), with_bloom);
    }
}

std::string HashJoinBuildSink::ProfileDetails() const {
    std::string details = state_->statistics.Render();
    if (table_->perfect()) {
        details += "    index: heads indexed by the key itself (" +
                   std::to_string(table_->KeyRange()) + " values)\n";
    }
    for (const auto& filter : key_filters_) {
        if (filter) {
            details += "    keys handed to the probe side's scan: " + filter->Describe() + "\n";
        }
    }
    if (state_->spill) {
        idx_t resident = 0;
        for (idx_t p = 0; p < JoinSpill::kPartitions; p++) {
            resident += state_->spill->resident(p) ? 1 : 0;
        }
        details += "    spilled: " + std::to_string(JoinSpill::kPartitions - resident) + " of " +
                   std::to_string(JoinSpill::kPartitions) + " partitions joined from disk";
        if (uint64_t splits = state_->spill->splits()) {
            details += " (" + std::to_string(splits) + " split again: too large alone)";
        }
        details += "; " + state_->spill->statistics().Render().substr(4);
    }
    return details;
}

// Where the probe of one input chunk stands between calls.
class HashJoinProbe::ProbeState : public LocalState {
public:
    bool started = false;
    idx_t row = 0;      // the probe row whose chain is being walked
    uint32_t entry = 0; // the next chain entry of `row` to look at (0: start the chain)
    bool chain_started = false;
    bool pairs_done = false;
    std::vector<std::unique_ptr<Vector>> keys;
    std::vector<const Vector*> key_pointers;
    uint64_t hashes[kVectorSize] = {}; // unset (0) for a table indexed by its key
    uint32_t first_entry[kVectorSize];
    bool key_null[kVectorSize];
    bool found[kVectorSize];
    ExpressionExecutor executor;
    DataChunk pairs;
    // The input rows probed now when others went to a spilled partition's probe file.
    DataChunk resident_input;
    const DataChunk* current = nullptr;
};

HashJoinProbe::HashJoinProbe(PhysicalJoinType type, std::vector<LogicalType> probe_types,
                             std::vector<ExpressionPtr> probe_keys,
                             std::shared_ptr<HashJoinState> state, ExpressionPtr residual)
    : type_(type), probe_types_(std::move(probe_types)), probe_keys_(std::move(probe_keys)),
      state_(std::move(state)), table_(state_->table), residual_(std::move(residual)) {
    pair_types_ = probe_types_;
    const auto& build_types = table_->types();
    pair_types_.insert(pair_types_.end(), build_types.begin() + table_->key_count(),
                       build_types.end());
}

std::string HashJoinProbe::Name() const {
    static const char* kTypes[] = {"INNER", "LEFT", "SEMI", "ANTI", "MARK", "RIGHT", "FULL"};
    return std::string("HASH_JOIN ") + kTypes[static_cast<int>(type_)] + " (probe)";
}

std::vector<LogicalType> HashJoinProbe::OutputTypes() const {
    switch (type_) {
    case PhysicalJoinType::Inner:
    case PhysicalJoinType::Left:
    case PhysicalJoinType::Right:
    case PhysicalJoinType::Full:
        return pair_types_;
    case PhysicalJoinType::Semi:
    case PhysicalJoinType::Anti:
        return probe_types_;
    case PhysicalJoinType::Mark: {
        auto types = probe_types_;
        types.push_back(LogicalTypeId::BOOLEAN);
        return types;
    }
    }
    return probe_types_;
}

std::unique_ptr<LocalState> HashJoinProbe::InitLocal() {
    auto state = std::make_unique<ProbeState>();
    for (const auto& key : probe_keys_) {
        state->keys.push_back(std::make_unique<Vector>(key->type));
        state->key_pointers.push_back(state->keys.back().get());
    }
    state->pairs.Initialize(pair_types_);
    state->resident_input.Initialize(probe_types_);
    return state;
}

bool HashJoinProbe::GathersBuildPayload() const {
    idx_t payload_count = table_->types().size() - table_->key_count();
    for (idx_t payload = 0; payload < payload_count; payload++) {
        if (payload >= payload_keys_.size() || payload_keys_[payload] < 0) {
            return true;
        }
    }
    return false;
}

bool HashJoinProbe::NextPairs(ProbeState& state, const DataChunk& input, DataChunk& output) {
    idx_t probe_rows[kVectorSize];
    RowLocation build_rows[kVectorSize];
    uint32_t build_entries[kVectorSize];
    idx_t pair_count = 0;
    // Semi, anti and mark joins without a residual only need to know whether a match exists.
    bool existence_only = residual_ == nullptr &&
                          (type_ == PhysicalJoinType::Semi || type_ == PhysicalJoinType::Anti ||
                           type_ == PhysicalJoinType::Mark);
    bool gathers_payload = GathersBuildPayload();
    while (state.row < input.size() && pair_count < kVectorSize) {
        idx_t row = state.row;
        if (state.key_null[row]) {
            state.row++;
            state.chain_started = false;
            continue;
        }
        if (!state.chain_started) {
            state.entry = state.first_entry[row];
            state.chain_started = true;
        }
        while (state.entry != 0 && pair_count < kVectorSize) {
            uint32_t entry = state.entry;
            state.entry = table_->NextEntry(entry);
            if (!table_->Matches(entry, state.hashes[row], state.key_pointers, row)) {
                continue;
            }
            if (existence_only) {
                state.found[row] = true;
                state.entry = 0;
                break;
            }
            probe_rows[pair_count] = row;
            if (gathers_payload) {
                build_rows[pair_count] = table_->EntryRow(entry);
            }
            build_entries[pair_count] = entry;
            pair_count++;
        }
        if (state.entry == 0) {
            state.row++;
            state.chain_started = false;
        }
    }
    bool done = state.row >= input.size();
    if (pair_count == 0) {
        return done;
    }
    // Materialise the pairs: probe columns, then the build payload.
    DataChunk& pairs = EmitsPairs(type_) && residual_ == nullptr ? output : state.pairs;
    pairs.Reset();
    for (idx_t column = 0; column < probe_types_.size(); column++) {
        pairs.column(column).Gather(input.column(column), probe_rows, pair_count);
    }
    idx_t key_count = table_->key_count();
    for (idx_t column = key_count; column < table_->types().size(); column++) {
        Vector& target = pairs.column(probe_types_.size() + column - key_count);
        idx_t payload = column - key_count;
        if (payload < payload_keys_.size() && payload_keys_[payload] >= 0) {
            target.Gather(*state.keys[static_cast<idx_t>(payload_keys_[payload])], probe_rows,
                          pair_count);
        } else {
            table_->Gather(column, build_rows, pair_count, target, table_);
        }
    }
    pairs.SetSize(pair_count);
    bool track_build = EmitsUnmatchedBuild(type_);
    if (residual_ == nullptr) {
        for (idx_t i = 0; i < pair_count; i++) {
            state.found[probe_rows[i]] = true;
            if (track_build) {
                table_->MarkMatched(build_entries[i]);
            }
        }
        return done;
    }
    idx_t selection[kVectorSize];
    idx_t passing = state.executor.Select(*residual_, pairs, selection);
    for (idx_t i = 0; i < passing; i++) {
        state.found[probe_rows[selection[i]]] = true;
        if (track_build) {
            table_->MarkMatched(build_entries[selection[i]]);
        }
    }
    if (EmitsPairs(type_)) {
        output.AppendSelected(pairs, selection, passing);
    }
    return done;
}

void HashJoinProbe::EmitRemaining(ProbeState& state, const DataChunk& input, DataChunk& output) {
    idx_t selection[kVectorSize];
    idx_t count = 0;
    switch (type_) {
    case PhysicalJoinType::Inner:
    case PhysicalJoinType::Right:
        return;
    case PhysicalJoinType::Left:
    case PhysicalJoinType::Full: {
        for (idx_t row = 0; row < input.size(); row++) {
            if (!state.found[row]) {
                selection[count++] = row;
            }
        }
        for (idx_t column = 0; column < probe_types_.size(); column++) {
            output.column(column).Gather(input.column(column), selection, count);
        }
        for (idx_t column = probe_types_.size(); column < pair_types_.size(); column++) {
            for (idx_t i = 0; i < count; i++) {
                output.column(column).SetNull(i);
            }
        }
        output.SetSize(count);
        return;
    }
    case PhysicalJoinType::Semi:
    case PhysicalJoinType::Anti: {
        bool want = type_ == PhysicalJoinType::Semi;
        for (idx_t row = 0; row < input.size(); row++) {
            if (state.found[row] == want) {
                selection[count++] = row;
            }
        }
        for (idx_t column = 0; column < probe_types_.size(); column++) {
            output.column(column).Gather(input.column(column), selection, count);
        }
        output.SetSize(count);
        return;
    }
    case PhysicalJoinType::Mark: {
        for (idx_t column = 0; column < probe_types_.size(); column++) {
            output.column(column).Reference(input.column(column));
        }
        Vector& mark = output.column(probe_types_.size());
        mark.Reset();
        for (idx_t row = 0; row < input.size(); row++) {
            if (state.found[row]) {
                mark.data<bool>()[row] = true;
            } else if (!table_->BuildSideEmpty() &&
                       (state.key_null[row] || table_->has_null_key())) {
                mark.SetNull(row); // x IN (...) is NULL when x or a list element is NULL
            } else {
                mark.data<bool>()[row] = false;
            }
        }
        output.SetSize(input.size());
        return;
    }
    }
}

void HashJoinProbe::EmitUnmatchedBuild(const std::shared_ptr<JoinHashTable>& owner, idx_t from,
                                       idx_t to, DataChunk& output) const {
    const JoinHashTable& table = *owner;
    RowLocation rows[kVectorSize];
    idx_t count = table.CollectUnmatched(from, to, rows);
    for (idx_t column = 0; column < probe_types_.size(); column++) {
        for (idx_t i = 0; i < count; i++) {
            output.column(column).SetNull(i);
        }
    }
    idx_t key_count = table.key_count();
    for (idx_t column = key_count; column < table.types().size(); column++) {
        table.Gather(column, rows, count, output.column(probe_types_.size() + column - key_count),
                     owner);
    }
    output.SetSize(count);
}

void HashJoinProbe::HashKeys(DataChunk& input, uint64_t* hashes) const {
    ExpressionExecutor executor;
    if (probe_keys_.empty()) {
        std::fill(hashes, hashes + input.size(), 0);
    }
    for (idx_t k = 0; k < probe_keys_.size(); k++) {
        Vector key(probe_keys_[k]->type);
        executor.Execute(*probe_keys_[k], input, key);
        HashVector(key, input.size(), hashes, k == 0);
    }
}

void HashJoinProbe::Prepare(ProbeState& state, const DataChunk& input) {
    idx_t count = input.size();
    std::fill(state.found, state.found + count, false);
    std::fill(state.key_null, state.key_null + count, false);
    if (probe_keys_.empty()) {
        std::fill(state.hashes, state.hashes + count, 0);
    }
    // A table indexed by its key needs no hashes (unless rows are sent to spilled partitions).
    bool hash = !table_->perfect() || state_->spill;
    for (idx_t k = 0; k < probe_keys_.size(); k++) {
        Vector& key = *state.keys[k];
        state.executor.Execute(*probe_keys_[k], input, key);
        if (hash) {
            HashVector(key, count, state.hashes, k == 0);
        }
        for (idx_t row = 0; row < count; row++) {
            state.key_null[row] |= !key.RowIsValid(row);
        }
    }
}

OperatorResult HashJoinProbe::Execute(DataChunk& input, DataChunk& output, LocalState* local) {
    auto& state = *static_cast<ProbeState*>(local);
    if (!state.started) {
        state.started = true;
        state.row = 0;
        state.chain_started = false;
        state.pairs_done = false;
        state.current = &input;
        Prepare(state, input);
        if (state_->spill) {
            // Rows of partitions on disk are joined later, by the spilled-partition source.
            idx_t keep[kVectorSize];
            idx_t kept = state_->spill->DeferProbeRows(input, state.hashes, state.key_null, keep);
            if (kept < input.size()) {
                state.resident_input.Reset();
                state.resident_input.AppendSelected(input, keep, kept);
                state.current = &state.resident_input;
                Prepare(state, state.resident_input);
            }
        }
        idx_t count = state.current->size();
        if (table_->perfect() && !table_->empty()) {
            const Vector& keys = *state.keys[0];
            for (idx_t row = 0; row < count; row++) {
                table_->PrefetchHeadOfKey(keys, row);
            }
            // A unique key's match needs its entry only for the build payload.
            bool entries = !table_->perfect_unique() || GathersBuildPayload();
            bool matched = EmitsUnmatchedBuild(type_);
            for (idx_t row = 0; row < count; row++) {
                state.first_entry[row] = table_->FirstEntryOfKey(keys, row);
                if (entries) {
                    table_->PrefetchEntry(state.first_entry[row]);
                }
                if (matched) {
                    table_->PrefetchMatched(state.first_entry[row]);
                }
            }
        } else if (!table_->empty()) {
            // The chain heads of a large table miss the cache: ask for them all up front.
            for (idx_t row = 0; row < count; row++) {
                table_->PrefetchChain(state.hashes[row]);
            }
            for (idx_t row = 0; row < count; row++) {
                state.first_entry[row] = table_->FirstEntry(state.hashes[row]);
                table_->PrefetchEntry(state.first_entry[row]);
            }
        }
        if (table_->empty()) {
            state.row = count; // nothing can match
        }
    }
    const DataChunk& current = *state.current;
    if (!state.pairs_done) {
        state.pairs_done = NextPairs(state, current, output);
        if (output.size() > 0 || !state.pairs_done) {
            return OperatorResult::HaveMoreOutput;
        }
    }
    EmitRemaining(state, current, output);
    state.started = false;
    return OperatorResult::NeedMoreInput;
}

std::unique_ptr<HashJoinProbe>
HashJoinProbe::ForPartition(std::shared_ptr<JoinHashTable> table) const {
    auto state = std::make_shared<HashJoinState>(table->key_count(), table->types());
    state->table = std::move(table);
    state->memory = state_->memory;
    std::vector<ExpressionPtr> keys;
    for (const auto& key : probe_keys_) {
        keys.push_back(key->Copy());
    }
    auto probe =
        std::make_unique<HashJoinProbe>(type_, probe_types_, std::move(keys), std::move(state),
                                        residual_ ? residual_->Copy() : nullptr);
    probe->SetPayloadKeys(payload_keys_);
    return probe;
}

namespace {

// The continuation of a join, run after every pipeline that probes it. Right and full joins
// first emit the build rows that found no match, tasks claiming a vector's worth of positions
// at a time. When the build spilled, each task then claims a partition left on disk, loads its
// build rows into a table of their own, probes the partition's deferred probe rows and (right
// and full joins) emits that table's unmatched rows.
class JoinContinuationSource : public PipelineSource {
public:
    JoinContinuationSource(const HashJoinProbe& probe, PhysicalJoinType type,
                           std::shared_ptr<HashJoinState> state)
        : probe_(probe), emits_unmatched_(EmitsUnmatchedBuild(type)), state_(std::move(state)) {}

    std::string Name() const override {
        return state_->spill ? "HASH_JOIN (spilled partitions)" : "HASH_JOIN (unmatched build)";
    }
    std::vector<LogicalType> OutputTypes() const override { return probe_.OutputTypes(); }
    idx_t MaxThreads() const override {
        return state_->spill ? JoinSpill::kPartitions : (emits_unmatched_ ? kMaxTasks : 1);
    }
    bool HiddenFromProfile() const override { return !state_->spill && !emits_unmatched_; }

    struct Local : public LocalState {
        explicit Local(MemoryManager* memory, MemoryStatistics* statistics)
            : reservation(memory, "a spilled hash join partition", statistics) {}
        std::shared_ptr<JoinHashTable> table; // the partition's
        std::unique_ptr<HashJoinProbe> probe;
        std::unique_ptr<LocalState> probe_state;
        std::shared_ptr<JoinSpill::Part> part;
        std::unique_ptr<SpillFile::Reader> reader;
        std::unique_ptr<DataChunk> input;
        bool input_active = false;
        idx_t unmatched_position = 0; // in the partition's table, once its probe rows are done
        MemoryReservation reservation;
        idx_t batch = 0;
    };

    std::unique_ptr<LocalState> InitLocal() override {
        return std::make_unique<Local>(state_->memory, &state_->statistics);
    }

    SourceResult GetData(DataChunk& out, LocalState* local_state, TaskContext&) override {
        auto& local = *static_cast<Local*>(local_state);
        out.Reset();
        while (emits_unmatched_) {
            const JoinHashTable& table = *state_->table;
            idx_t from = next_position_.fetch_add(kVectorSize);
            if (from >= table.UnmatchedPositions()) {
                break;
            }
            probe_.EmitUnmatchedBuild(
                state_->table, from, std::min(from + kVectorSize, table.UnmatchedPositions()), out);
            if (out.size() > 0) {
                return Emitted(local);
            }
        }
        JoinSpill* spill = state_->spill.get();
        if (!spill) {
            return SourceResult::Finished;
        }
        while (true) {
            if (local.input_active) {
                out.Reset();
                OperatorResult result =
                    local.probe->Execute(*local.input, out, local.probe_state.get());
                local.input_active = result != OperatorResult::NeedMoreInput;
                if (out.size() > 0) {
                    return Emitted(local);
                }
                continue;
            }
            if (local.reader && local.reader->NextCompacted(*local.input)) {
                local.input_active = true;
                continue;
            }
            if (local.table && emits_unmatched_ &&
                local.unmatched_position < local.table->UnmatchedPositions()) {
                idx_t from = local.unmatched_position;
                local.unmatched_position =
                    std::min(from + kVectorSize, local.table->UnmatchedPositions());
                probe_.EmitUnmatchedBuild(local.table, from, local.unmatched_position, out);
                if (out.size() > 0) {
                    return Emitted(local);
                }
                continue;
            }
            local.reader.reset();
            local.probe.reset();
            local.probe_state.reset();
            local.table.reset();
            local.part = spill->NextPart();
            if (!local.part) {
                return SourceResult::Finished;
            }
            local.table = spill->LoadPart(
                *local.part, local.reservation,
                [&](DataChunk& input, uint64_t* hashes) { probe_.HashKeys(input, hashes); });
            if (!local.table) {
                continue; // split into smaller parts, claimed like the others
            }
            local.unmatched_position = 0;
            local.probe = probe_.ForPartition(local.table);
            local.probe_state = local.probe->InitLocal();
            const SpillFile& probe_rows = *local.part->probe;
            local.reader = std::make_unique<SpillFile::Reader>(probe_rows, 64 << 10);
            spill->statistics().read_back_bytes.fetch_add(probe_rows.bytes());
            local.input = std::make_unique<DataChunk>(spill->probe_types());
        }
    }

    // After every batch of the pipelines that ran the probe itself.
    idx_t BatchIndex(LocalState* local) const override {
        return (idx_t(1) << 48) + static_cast<Local*>(local)->batch;
    }

private:
    static constexpr idx_t kMaxTasks = 64;

    SourceResult Emitted(Local& local) {
        local.batch = next_batch_.fetch_add(1);
        return SourceResult::HaveMoreOutput;
    }

    const HashJoinProbe& probe_;
    bool emits_unmatched_;
    std::shared_ptr<HashJoinState> state_;
    std::atomic<idx_t> next_position_{0};
    std::atomic<idx_t> next_batch_{0};
};

} // namespace

std::shared_ptr<PipelineSource> HashJoinProbe::MakeContinuationSource() const {
    return std::make_shared<JoinContinuationSource>(*this, type_, state_);
}

} // namespace sluice
