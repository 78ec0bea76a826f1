#pragma once

#include "common/data_chunk.hpp"
#include "common/value.hpp"

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace sluice {

struct ColumnStatistics;

// The keys on the build side of a hash join, handed sideways to the scan below its probe: a
// probe row whose key the build side lacks cannot match, so the scan drops it while it decodes,
// before the other columns of the row are decoded and before any join probes it. Holds the
// keys' range and a bloom filter (a 64-bit word per key, four bits set in it: one cache line
// per lookup, about 2% false positives at 8 bits a key).
//
// Published once, by the join's build when its table is complete; until then, and for builds
// that spilled, it passes every row. A probe pipeline starts after its builds, so its scan sees
// the filter published.
class JoinKeyFilter {
public:
    explicit JoinKeyFilter(LogicalType type) : type_(std::move(type)) {}

    // Keys of integer physical types (integers, DECIMAL, DATE, TIMESTAMP, ...) compare as their
    // bits: only those are filtered.
    static bool Supports(const LogicalType& type);
    // The bytes the bloom filter over `keys` keys takes (0: too many keys to be worth one).
    static idx_t BloomBytes(idx_t keys);

    const LogicalType& type() const { return type_; }
    bool ready() const { return ready_.load(std::memory_order_acquire); }
    // False once the rows it has seen show that it lets nearly all of them through (the build
    // holds nearly every key of the probe side): a lookup per row for nothing. It then passes
    // every row, and scans starting later leave it out.
    bool worthwhile() const { return worthwhile_.load(std::memory_order_relaxed); }

    // Collects column `column` of `chunks` (`keys` non-NULL values among them at most), with a
    // bloom filter when `with_bloom`, and publishes the result. Called once.
    void Publish(const std::vector<std::unique_ptr<DataChunk>>& chunks, idx_t column, idx_t keys,
                 bool with_bloom);

    // Keeps those of the rows `rows[0..count)` of the flat vector `values` whose key may be on
    // the build side (never a NULL), in place and in order; returns how many.
    size_t Select(const Vector& values, uint32_t* rows, size_t count) const;
    // False only when no key of the build side falls within the statistics' range.
    bool MayMatch(const ColumnStatistics& statistics) const;
    // For EXPLAIN ANALYZE: the keys' count, range and bloom size, or "not built".
    std::string Describe() const;

private:
    bool MayContain(uint64_t key) const;

    LogicalType type_;
    std::atomic<bool> ready_{false};
    // What Select has seen and let through, until it decides it is not worthwhile.
    mutable std::atomic<uint64_t> rows_seen_{0}, rows_passed_{0};
    mutable std::atomic<bool> worthwhile_{true};
    bool empty_ = true;           // no non-NULL key: nothing matches
    uint64_t min_ = 0, max_ = 0;  // of the keys, in the type's own bits
    std::vector<uint64_t> bloom_; // empty: range only
    uint64_t bloom_mask_ = 0;
    std::optional<Value> min_value_, max_value_;
    idx_t keys_ = 0;
};

} // namespace sluice
