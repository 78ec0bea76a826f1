#include "execution/physical_hash_join.hpp"

#include "execution/expression_executor.hpp"

namespace sluice {

namespace {

struct BuildLocal : public LocalState {
    explicit BuildLocal(MemoryManager* memory) : reservation(memory, "a hash join build") {}
    std::vector<std::unique_ptr<DataChunk>> chunks;
    MemoryReservation reservation;
};

} // namespace

std::unique_ptr<LocalState> HashJoinBuildSink::InitLocal() {
    return std::make_unique<BuildLocal>(memory_);
}

SinkResult HashJoinBuildSink::Sink(DataChunk& chunk, LocalState* local, idx_t /*batch_index*/) {
    auto& state = *static_cast<BuildLocal*>(local);
    state.chunks.push_back(ReferenceChunk(chunk));
    state.reservation.Resize(state.reservation.size() + ChunkMemory(*state.chunks.back()));
    return SinkResult::NeedMoreInput;
}

void HashJoinBuildSink::Combine(LocalState* local) {
    auto& state = *static_cast<BuildLocal*>(local);
    table_->Append(std::move(state.chunks));
    // The rows stay reserved as long as the table lives.
    auto kept = std::make_unique<MemoryReservation>(memory_, "a hash join build");
    kept->Resize(state.reservation.size());
    state.reservation.Resize(0);
    std::lock_guard<std::mutex> guard(mutex_);
    reservations_.push_back(std::move(kept));
}

void HashJoinBuildSink::Finalize() {
    index_reservation_.Resize(table_->IndexMemory(table_->RowCount()));
    table_->Build();
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
    uint64_t hashes[kVectorSize];
    uint32_t first_entry[kVectorSize];
    bool key_null[kVectorSize];
    bool found[kVectorSize];
    ExpressionExecutor executor;
    DataChunk pairs;
};

HashJoinProbe::HashJoinProbe(PhysicalJoinType type, std::vector<LogicalType> probe_types,
                             std::vector<ExpressionPtr> probe_keys,
                             std::shared_ptr<JoinHashTable> table, ExpressionPtr residual)
    : type_(type), probe_types_(std::move(probe_types)), probe_keys_(std::move(probe_keys)),
      table_(std::move(table)), residual_(std::move(residual)) {
    pair_types_ = probe_types_;
    const auto& build_types = table_->types();
    pair_types_.insert(pair_types_.end(), build_types.begin() + table_->key_count(),
                       build_types.end());
}

std::string HashJoinProbe::Name() const {
    static const char* kTypes[] = {"INNER", "LEFT", "SEMI", "ANTI", "MARK"};
    return std::string("HASH_JOIN ") + kTypes[static_cast<int>(type_)] + " (probe)";
}

std::vector<LogicalType> HashJoinProbe::OutputTypes() const {
    switch (type_) {
    case PhysicalJoinType::Inner:
    case PhysicalJoinType::Left:
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
    return state;
}

bool HashJoinProbe::NextPairs(ProbeState& state, const DataChunk& input, DataChunk& output) {
    idx_t probe_rows[kVectorSize];
    RowLocation build_rows[kVectorSize];
    idx_t pair_count = 0;
    // Semi, anti and mark joins without a residual only need to know whether a match exists.
    bool existence_only = residual_ == nullptr &&
                          (type_ == PhysicalJoinType::Semi || type_ == PhysicalJoinType::Anti ||
                           type_ == PhysicalJoinType::Mark);
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
            if (table_->EntryHash(entry) != state.hashes[row] ||
                !table_->KeysEqual(entry, state.key_pointers, row)) {
                continue;
            }
            if (existence_only) {
                state.found[row] = true;
                state.entry = 0;
                break;
            }
            probe_rows[pair_count] = row;
            build_rows[pair_count] = table_->EntryRow(entry);
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
    DataChunk& pairs = (type_ == PhysicalJoinType::Inner || type_ == PhysicalJoinType::Left) &&
                               residual_ == nullptr
                           ? output
                           : state.pairs;
    pairs.Reset();
    for (idx_t column = 0; column < probe_types_.size(); column++) {
        pairs.column(column).Gather(input.column(column), probe_rows, pair_count);
    }
    idx_t key_count = table_->key_count();
    for (idx_t column = key_count; column < table_->types().size(); column++) {
        GatherRows(table_->chunks(), column, build_rows, pair_count,
                   pairs.column(probe_types_.size() + column - key_count), 0, table_);
    }
    pairs.SetSize(pair_count);
    if (residual_ == nullptr) {
        for (idx_t i = 0; i < pair_count; i++) {
            state.found[probe_rows[i]] = true;
        }
        return done;
    }
    idx_t selection[kVectorSize];
    idx_t passing = state.executor.Select(*residual_, pairs, selection);
    for (idx_t i = 0; i < passing; i++) {
        state.found[probe_rows[selection[i]]] = true;
    }
    if (type_ == PhysicalJoinType::Inner || type_ == PhysicalJoinType::Left) {
        output.AppendSelected(pairs, selection, passing);
    }
    return done;
}

void HashJoinProbe::EmitRemaining(ProbeState& state, const DataChunk& input, DataChunk& output) {
    idx_t selection[kVectorSize];
    idx_t count = 0;
    switch (type_) {
    case PhysicalJoinType::Inner:
        return;
    case PhysicalJoinType::Left: {
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
            } else if (!table_->empty() && (state.key_null[row] || table_->has_null_key())) {
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

OperatorResult HashJoinProbe::Execute(DataChunk& input, DataChunk& output, LocalState* local) {
    auto& state = *static_cast<ProbeState*>(local);
    if (!state.started) {
        state.started = true;
        state.row = 0;
        state.chain_started = false;
        state.pairs_done = false;
        idx_t count = input.size();
        std::fill(state.found, state.found + count, false);
        std::fill(state.key_null, state.key_null + count, false);
        if (probe_keys_.empty()) {
            std::fill(state.hashes, state.hashes + count, 0);
        }
        for (idx_t k = 0; k < probe_keys_.size(); k++) {
            Vector& key = *state.keys[k];
            state.executor.Execute(*probe_keys_[k], input, key);
            HashVector(key, count, state.hashes, k == 0);
            for (idx_t row = 0; row < count; row++) {
                state.key_null[row] |= !key.RowIsValid(row);
            }
        }
        // The chain heads of a large table miss the cache: ask for them all up front.
        if (!table_->empty()) {
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
    if (!state.pairs_done) {
        state.pairs_done = NextPairs(state, input, output);
        if (output.size() > 0 || !state.pairs_done) {
            return OperatorResult::HaveMoreOutput;
        }
    }
    EmitRemaining(state, input, output);
    state.started = false;
    return OperatorResult::NeedMoreInput;
}

} // namespace sluice
