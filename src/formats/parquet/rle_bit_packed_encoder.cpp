#include "formats/parquet/rle_bit_packed_encoder.hpp"

namespace sluice::parquet {

namespace {

void Varint(uint64_t value, std::vector<uint8_t>& out) {
    while (value >= 0x80) {
        out.push_back(static_cast<uint8_t>(value | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<uint8_t>(value));
}

void FlushPacked(std::vector<uint32_t>& pending, uint32_t bit_width, std::vector<uint8_t>& out) {
    if (pending.empty()) {
        return;
    }
    while (pending.size() % 8 != 0) {
        pending.push_back(0);
    }
    size_t groups = pending.size() / 8;
    Varint((groups << 1) | 1, out);
    // Values go in least significant bits first; 8 values of bit_width bits are exactly
    // bit_width bytes, so nothing is left in the accumulator at the end.
    uint64_t bits = 0;
    uint32_t held = 0;
    for (uint32_t value : pending) {
        bits |= static_cast<uint64_t>(value) << held;
        held += bit_width;
        while (held >= 8) {
            out.push_back(static_cast<uint8_t>(bits));
            bits >>= 8;
            held -= 8;
        }
    }
    pending.clear();
}

void Repeated(uint32_t value, size_t count, uint32_t bit_width, std::vector<uint8_t>& out) {
    Varint(count << 1, out);
    for (uint32_t byte = 0; byte < (bit_width + 7) / 8; byte++) {
        out.push_back(static_cast<uint8_t>(value >> (8 * byte)));
    }
}

} // namespace

void EncodeRleBitPacked(const uint32_t* values, size_t count, uint32_t bit_width,
                        std::vector<uint8_t>& out) {
    std::vector<uint32_t> pending;
    size_t i = 0;
    while (i < count) {
        size_t run = 1;
        while (i + run < count && values[i + run] == values[i]) {
            run++;
        }
        if (run < 8) {
            pending.insert(pending.end(), values + i, values + i + run);
            i += run;
            continue;
        }
        // Literal groups must hold multiples of 8: top them up from this run first.
        size_t top_up = (8 - pending.size() % 8) % 8;
        if (!pending.empty()) {
            pending.insert(pending.end(), top_up, values[i]);
            i += top_up;
            run -= top_up;
            FlushPacked(pending, bit_width, out);
        }
        Repeated(values[i], run, bit_width, out);
        i += run;
    }
    FlushPacked(pending, bit_width, out);
}

} // namespace sluice::parquet
