#pragma once

#include "common/string_heap.hpp"
#include "common/vector.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// An aggregate chosen for concrete argument types. States are plain bytes (trivially copyable,
// `state_size` each) that the hash table lays out per group.
struct AggregateFunction {
    std::string name;
    std::vector<LogicalType> argument_types; // the binder casts arguments to these
    LogicalType return_type;
    idx_t state_size = 0;
    std::function<void(uint8_t* state)> initialize;
    // Adds rows [0, count) of `arguments` to the states at `states[row] + offset` (one per row,
    // possibly the same one repeatedly; `states` points at each row's group, `offset` at this
    // aggregate within it). Long strings kept in a state are copied into `heap`.
    std::function<void(const std::vector<const Vector*>& arguments, idx_t count, uint8_t** states,
                       idx_t offset, StringHeap& heap)>
        update;
    // Optional, for aggregates whose update is a running total: adds the rows `rows[0, count)`
    // (ascending) of `arguments` to the one state at `state`, as `update` would with every row
    // pointing there. The table uses it when groups are few: one tight loop per group instead
    // of a read and write of some group's state per row.
    std::function<void(const std::vector<const Vector*>& arguments, const uint32_t* rows,
                       idx_t count, uint8_t* state)>
        update_one_state;
    // Folds `source` into `target` (states of two partial aggregations of the same group); what
    // the target must own afresh is allocated in `heap`, the target's owner's (the source's
    // memory may belong to another table, or be combined into several targets).
    std::function<void(const uint8_t* source, uint8_t* target, StringHeap& heap)> combine;
    // Optional: combine for a source that is never read again and whose memory stays alive with
    // its owner (a hash table merged into another): may take the source's memory over instead
    // of copying it.
    std::function<void(uint8_t* source, uint8_t* target)> absorb;
    std::function<void(const uint8_t* state, Vector& result, idx_t row)> finalize;
    // Frees what a state owns (DISTINCT sets); absent for plain states.
    std::function<void(uint8_t* state)> destroy;
    // Spilling: appends a state's bytes to `out`, and reads them back (advancing `in`) into an
    // initialised state, long strings into `heap`. Absent: the state's raw bytes are the form.
    std::function<void(const uint8_t* state, std::string& out)> serialize;
    std::function<void(const uint8_t*& in, uint8_t* state, StringHeap& heap)> deserialize;
    // States can be spilled (false for DISTINCT sets: an aggregate with one cannot spill).
    bool spillable = true;
};

// `inner` over the distinct non-NULL values of its argument: count(DISTINCT x), sum(DISTINCT x).
AggregateFunction MakeDistinct(AggregateFunction inner);

// Runs `aggregate` in a fresh state over the rows `feed` hands to its callback (one Value per
// argument each, in order) and writes the result to row `row` of `result`: how the DISTINCT and
// ordered wrappers finish their groups.
using ValueRowSink = std::function<void(const Value* arguments)>;
void AggregateValueRows(const AggregateFunction& aggregate,
                        const std::function<void(const ValueRowSink&)>& feed, Vector& result,
                        idx_t row);

// sum, avg, min, max, count, count_star over `arguments`' types, with DuckDB's result types
// (sum of integers is HUGEINT, of DECIMAL(p, s) DECIMAL(38, s); avg is DOUBLE). nullopt when
// the name or the types do not fit.
std::optional<AggregateFunction> BindAggregateFunction(const std::string& name,
                                                       const std::vector<LogicalType>& arguments);
bool IsAggregateFunctionName(const std::string& name);

} // namespace sluice
