#pragma once

#include <cstdint>

namespace sluice::tpch {

// The random numbers of one generated row. Every row of every table has its own stream, seeded
// from (table, row number), so any range of rows can be generated on its own, in any order and
// on any thread, and always comes out the same: generation parallelises without coordination
// and a scale factor's data is deterministic.
class RandomStream {
public:
    RandomStream(uint64_t table_seed, uint64_t row)
        : state_(Mix(table_seed * 0x9E3779B97F4A7C15ull + row)) {}

    uint64_t Next() {
        // splitmix64: a full-period 64-bit generator whose outputs pass BigCrush.
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        return Mix(z);
    }
    // Uniform in [low, high] (both inclusive); high - low < 2^32.
    int64_t Uniform(int64_t low, int64_t high) {
        uint64_t range = static_cast<uint64_t>(high - low) + 1;
        return low + static_cast<int64_t>(((Next() >> 32) * range) >> 32);
    }

private:
    static uint64_t Mix(uint64_t z) {
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    uint64_t state_;
};

} // namespace sluice::tpch
