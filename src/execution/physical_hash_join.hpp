#pragma once

#include "common/join_key_filter.hpp"
#include "execution/expression.hpp"
#include "execution/join_hash_table.hpp"
#include "execution/join_spill.hpp"
#include "memory/memory_manager.hpp"
#include "parallel/pipeline.hpp"

#include <memory>

namespace sluice {

enum class PhysicalJoinType : uint8_t {
    Inner, // probe columns + build payload, for every matching pair
    Left,  // as Inner, plus unmatched probe rows with NULL payload
    Semi,  // probe rows with a match
    Anti,  // probe rows without a match
    Mark,  // every probe row + BOOLEAN "has a match" (NULL when unknown, as IN decides)
    Right, // as Inner, plus unmatched build rows with NULL probe columns (after every probe)
    Full,  // as Left and Right at once
};

// The join's output has a row for every matching pair (and the columns of both sides).
inline bool EmitsPairs(PhysicalJoinType type) {
    return type == PhysicalJoinType::Inner || type == PhysicalJoinType::Left ||
           type == PhysicalJoinType::Right || type == PhysicalJoinType::Full;
}
// Build rows without a match are emitted too, once every probe is done.
inline bool EmitsUnmatchedBuild(PhysicalJoinType type) {
    return type == PhysicalJoinType::Right || type == PhysicalJoinType::Full;
}

// What a join's build sink, probe and spilled-partition source share: the table, and the
// partitions on disk when the build side did not fit (set by the build, before any probe).
struct HashJoinState {
    HashJoinState(idx_t key_count, std::vector<LogicalType> build_types)
        : table(std::make_shared<JoinHashTable>(key_count, std::move(build_types))) {}
    std::shared_ptr<JoinHashTable> table;
    std::vector<LogicalType> probe_types;
    std::shared_ptr<JoinSpill> spill;
    bool emits_unmatched_build = false; // a right or full join: keep build-only partitions
    MemoryManager* memory = nullptr;
    MemoryStatistics statistics; // of the build rows and index
};

// The sink of a join's build pipeline. Input chunks are [keys..., payload...]. When the rows
// do not fit under memory_limit, they are partitioned to disk (JoinSpill) instead. Once the
// table is built, it publishes the keys of condition k into `key_filters[k]` (when set) for
// the scan below the probe side; a spilled build publishes none.
class HashJoinBuildSink : public PipelineSink {
public:
    std::string Name() const override { return "HASH_JOIN (build)"; }
    HashJoinBuildSink(std::shared_ptr<HashJoinState> state, MemoryManager* memory,
                      std::vector<std::shared_ptr<JoinKeyFilter>> key_filters = {})
        : state_(std::move(state)), table_(state_->table), memory_(memory),
          index_reservation_(memory, "a hash join", &state_->statistics),
          key_filters_(std::move(key_filters)),
          filter_reservation_(memory, "a hash join's key filters", &state_->statistics) {}

    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    void Finalize() override;
    std::string ProfileDetails() const override;

private:
    // An equi-join with a temporary directory can spill; a cross product cannot.
    bool CanSpill() const {
        return memory_ && memory_->temporary_directory() && table_->key_count() > 0;
    }
    // The spill, created by the first task that runs out of memory.
    JoinSpill* StartSpilling();
    // Fills key_filters_ from the built table.
    void PublishKeyFilters();

    std::shared_ptr<HashJoinState> state_;
    std::shared_ptr<JoinHashTable> table_;
    MemoryManager* memory_;
    std::mutex mutex_;
    std::atomic<JoinSpill*> spilling_{nullptr};
    std::vector<std::unique_ptr<MemoryReservation>> reservations_; // the build rows, per task
    MemoryReservation index_reservation_;
    std::vector<std::shared_ptr<JoinKeyFilter>> key_filters_;
    MemoryReservation filter_reservation_; // their bloom filters
};

// Probes the finished table with each input chunk. `probe_keys` are evaluated over the input;
// `residual` (optional) is a further condition over [probe columns..., build payload...] that a
// pair must satisfy.
class HashJoinProbe : public PipelineOperator {
public:
    std::string Name() const override;
    HashJoinProbe(PhysicalJoinType type, std::vector<LogicalType> probe_types,
                  std::vector<ExpressionPtr> probe_keys, std::shared_ptr<HashJoinState> state,
                  ExpressionPtr residual);

    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

    // The same join over one spilled partition's table.
    std::unique_ptr<HashJoinProbe> ForPartition(std::shared_ptr<JoinHashTable> table) const;
    // The source of the pipeline that finishes the join after every pipeline that runs this
    // probe and feeds the operators after it: the build rows without a match (right and full
    // joins), and the partitions left on disk when the build spilled.
    std::shared_ptr<PipelineSource> MakeContinuationSource() const;
    // Equi-joins can spill (a join without keys, a cross product, cannot), and right and full
    // joins emit their unmatched build rows last: both need the continuation.
    bool NeedsContinuation() const { return !probe_keys_.empty() || EmitsUnmatchedBuild(type_); }
    // The build rows of `table` at positions [from, to) that found no match, with NULL probe
    // columns, into `output` (at most a vector's worth of positions).
    void EmitUnmatchedBuild(const std::shared_ptr<JoinHashTable>& table, idx_t from, idx_t to,
                            DataChunk& output) const;
    // The hashes of the probe keys of `input`, as the probe computes them (to split a spilled
    // partition's probe rows further).
    void HashKeys(DataChunk& input, uint64_t* hashes) const;
    // Per build payload column, the condition whose build key it is (-1: none). A pair's value
    // of such a column is its probe key's, when keys are equal only when their bits are
    // (integers): taken from the probe rows, not gathered from random build rows.
    void SetPayloadKeys(std::vector<int> payload_keys) { payload_keys_ = std::move(payload_keys); }

private:
    class ProbeState;
    // Evaluates the keys of `input` and looks up the first chain entries.
    void Prepare(ProbeState& state, const DataChunk& input);
    // Fills `output` with up to a chunk of key-matching pairs; true when the input is exhausted.
    bool NextPairs(ProbeState& state, const DataChunk& input, DataChunk& output);
    void EmitRemaining(ProbeState& state, const DataChunk& input, DataChunk& output);
    // Some payload column of a pair comes from its build row (not from the probe keys).
    bool GathersBuildPayload() const;

    PhysicalJoinType type_;
    std::vector<LogicalType> probe_types_;
    std::vector<ExpressionPtr> probe_keys_;
    std::shared_ptr<HashJoinState> state_;
    std::shared_ptr<JoinHashTable> table_;
    ExpressionPtr residual_;
    std::vector<LogicalType> pair_types_; // probe columns + payload
    std::vector<int> payload_keys_;
};

} // namespace sluice
