#pragma once

#include <cstdint>

namespace sluice::tpch {

// One of dbgen's random number streams: Park and Miller's "minimal standard" generator
// (x' = 16807 x mod 2^31 - 1), one stream per generated column, exactly as TPC's dbgen 2.x draws
// them. dbgen keeps every stream in step with the rows: a row may draw at most `boundary`
// numbers from a stream, and when the row ends the stream is moved on to the boundary whatever
// the row used. Row r's numbers therefore start r x boundary draws after the stream's seed, so
// any range of rows can be generated on its own, on any thread (dbgen's own -C/-S children do
// the same).
class DbgenStream {
public:
    static constexpr int64_t kModulus = 2147483647; // 2^31 - 1
    static constexpr int64_t kMultiplier = 16807;

    DbgenStream() = default;
    DbgenStream(int64_t seed, int64_t boundary) : seed_(seed), value_(seed), boundary_(boundary) {}

    // Positions the stream at the start of row `row` (counted from 0).
    void SeekRow(uint64_t row) {
        value_ = Advance(seed_, row * static_cast<uint64_t>(boundary_));
        used_ = 0;
    }
    // Moves the stream on to the start of the next row.
    void EndRow() {
        value_ = Advance(value_, static_cast<uint64_t>(boundary_ - used_));
        used_ = 0;
    }
    void Skip(uint64_t draws) {
        value_ = Advance(value_, draws);
        used_ += static_cast<int64_t>(draws);
    }

    // dbgen's UnifInt: uniform in [low, high], computed in doubles exactly as dbgen computes it
    // (the same rounding gives the same numbers).
    int64_t Uniform(int64_t low, int64_t high) {
        Next();
        auto range = static_cast<double>(high - low + 1);
        return low + static_cast<int64_t>((static_cast<double>(value_) / kModulusAsDouble) * range);
    }
    // The draw a_rnd makes for random characters, UnifInt(0, 2^31 - 1). dbgen computes that
    // range, 2^31, in 32-bit arithmetic where it wraps to -2^31, so these numbers are negative;
    // their low bits pick the characters.
    int64_t CharacterBits() {
        Next();
        return static_cast<int64_t>((static_cast<double>(value_) / kModulusAsDouble) *
                                    -2147483648.0);
    }

    // `value` after `draws` more draws: 16807^draws x value mod 2^31 - 1, by squaring.
    static int64_t Advance(int64_t value, uint64_t draws) {
        int64_t multiplier = kMultiplier;
        while (draws > 0) {
            if (draws & 1) {
                value = value * multiplier % kModulus;
            }
            draws >>= 1;
            multiplier = multiplier * multiplier % kModulus;
        }
        return value;
    }

private:
    static constexpr double kModulusAsDouble = 2147483647.0;

    void Next() {
        // x mod 2^31 - 1 without a division: fold the bits above 31 back in (2^31 = 1 mod it).
        int64_t product = value_ * kMultiplier;
        int64_t folded = (product & kModulus) + (product >> 31);
        value_ = folded >= kModulus ? folded - kModulus : folded;
        used_++;
    }

    int64_t seed_ = 1;
    int64_t value_ = 1;
    int64_t boundary_ = 1;
    int64_t used_ = 0; // draws in the current row
};

} // namespace sluice::tpch
