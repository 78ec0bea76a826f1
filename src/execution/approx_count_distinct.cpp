#include "execution/approx_count_distinct.hpp"

#include "execution/row_operations.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace sluice {

namespace {

constexpr int kIndexBits = 10;
constexpr size_t kRegisters = size_t(1) << kIndexBits;

struct Registers {
    uint8_t rank[kRegisters]; // the most leading zeros (+1) seen among the register's hashes
};

Registers& RegistersOf(uint8_t* state) {
    return *reinterpret_cast<Registers*>(state);
}
const Registers& RegistersOf(const uint8_t* state) {
    return *reinterpret_cast<const Registers*>(state);
}

void Add(Registers& registers, uint64_t hash) {
    size_t index = hash >> (64 - kIndexBits);
    uint64_t rest = hash << kIndexBits;
    // Leading zeros of the remaining 54 bits, plus one; all zero counts as 55.
    auto rank = static_cast<uint8_t>(rest == 0 ? 64 - kIndexBits + 1 : __builtin_clzll(rest) + 1);
    registers.rank[index] = std::max(registers.rank[index], rank);
}

int64_t Estimate(const Registers& registers) {
    double m = static_cast<double>(kRegisters);
    double sum = 0;
    size_t zeros = 0;
    for (uint8_t rank : registers.rank) {
        sum += std::ldexp(1.0, -rank);
        zeros += rank == 0;
    }
    double alpha = 0.7213 / (1 + 1.079 / m);
    double estimate = alpha * m * m / sum;
    if (estimate <= 2.5 * m && zeros > 0) {
        estimate = m * std::log(m / static_cast<double>(zeros)); // linear counting
    }
    return static_cast<int64_t>(std::llround(estimate));
}

} // namespace

AggregateFunction ApproxCountDistinct(const LogicalType& argument) {
    AggregateFunction function;
    function.name = "approx_count_distinct";
    function.argument_types = {argument};
    function.return_type = LogicalTypeId::BIGINT;
    function.state_size = sizeof(Registers);
    function.initialize = [](uint8_t* state) { std::memset(state, 0, sizeof(Registers)); };
    function.update = [](const std::vector<const Vector*>& args, idx_t count, uint8_t** states,
                         idx_t offset, StringHeap&) {
        // The same hash as grouping and joins: equal values (NaN, -0.0 included) count once.
        uint64_t hashes[kVectorSize];
        HashVector(*args[0], count, hashes, true);
        const Vector& input = *args[0];
        bool constant = input.vector_type() == VectorType::CONSTANT;
        for (idx_t row = 0; row < count; row++) {
            if (input.validity().RowIsValid(constant ? 0 : row)) {
                Add(RegistersOf(states[row] + offset), hashes[row]);
            }
        }
    };
    function.combine = [](const uint8_t* source, uint8_t* target, StringHeap& /*heap*/) {
        const Registers& from = RegistersOf(source);
        Registers& to = RegistersOf(target);
        for (size_t i = 0; i < kRegisters; i++) {
            to.rank[i] = std::max(to.rank[i], from.rank[i]);
        }
    };
    function.finalize = [](const uint8_t* state, Vector& result, idx_t row) {
        result.data<int64_t>()[row] = Estimate(RegistersOf(state));
    };
    return function;
}

} // namespace sluice
