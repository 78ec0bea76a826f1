#pragma once

#include "execution/expression.hpp"
#include "execution/join_hash_table.hpp"
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
};

// The sink of a join's build pipeline. Input chunks are [keys..., payload...].
class HashJoinBuildSink : public PipelineSink {
public:
    std::string Name() const override { return "HASH_JOIN (build)"; }
    HashJoinBuildSink(std::shared_ptr<JoinHashTable> table, MemoryManager* memory)
        : table_(std::move(table)), memory_(memory), index_reservation_(memory, "a hash join") {}

    std::unique_ptr<LocalState> InitLocal() override;
    SinkResult Sink(DataChunk& chunk, LocalState* local, idx_t batch_index) override;
    void Combine(LocalState* local) override;
    void Finalize() override;

private:
    std::shared_ptr<JoinHashTable> table_;
    MemoryManager* memory_;
    std::mutex mutex_;
    std::vector<std::unique_ptr<MemoryReservation>> reservations_; // the build rows, per task
    MemoryReservation index_reservation_;
};

// Probes the finished table with each input chunk. `probe_keys` are evaluated over the input;
// `residual` (optional) is a further condition over [probe columns..., build payload...] that a
// pair must satisfy.
class HashJoinProbe : public PipelineOperator {
public:
    std::string Name() const override;
    HashJoinProbe(PhysicalJoinType type, std::vector<LogicalType> probe_types,
                  std::vector<ExpressionPtr> probe_keys, std::shared_ptr<JoinHashTable> table,
                  ExpressionPtr residual);

    std::vector<LogicalType> OutputTypes() const override;
    std::unique_ptr<LocalState> InitLocal() override;
    OperatorResult Execute(DataChunk& input, DataChunk& output, LocalState* local) override;

private:
    class ProbeState;
    // Fills `output` with up to a chunk of key-matching pairs; true when the input is exhausted.
    bool NextPairs(ProbeState& state, const DataChunk& input, DataChunk& output);
    void EmitRemaining(ProbeState& state, const DataChunk& input, DataChunk& output);

    PhysicalJoinType type_;
    std::vector<LogicalType> probe_types_;
    std::vector<ExpressionPtr> probe_keys_;
    std::shared_ptr<JoinHashTable> table_;
    ExpressionPtr residual_;
    std::vector<LogicalType> pair_types_; // probe columns + payload
};

} // namespace sluice
