#include "formats/parquet/snappy_decoder.hpp"

#include "formats/parquet/corrupt_data.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace sluice::parquet {

namespace {

[[noreturn]] void Corrupt(const std::string& reason) {
    throw CorruptData("corrupt snappy data: " + reason);
}

// Far enough from either end for one element's unchecked wide moves: a tag, 4 length or offset
// bytes and a literal or match of up to 64 bytes copied as whole 16-byte blocks.
constexpr size_t kInputSlack = 1 + 4 + 64;
constexpr size_t kOutputSlack = 64 + 16;

uint32_t LoadLittleEndian(const uint8_t* data, size_t bytes) {
    uint32_t value = 0;
    for (size_t i = 0; i < bytes; i++) {
        value |= uint32_t(data[i]) << (8 * i);
    }
    return value;
}

void Copy16(uint8_t* to, const uint8_t* from) {
    std::memcpy(to, from, 16);
}

// Copies `length` bytes from `offset` bytes back in the output, the source overlapping the
// destination when offset < length (the bytes repeat with period `offset`). With `wide`, may
// write up to 15 bytes past the match (still inside the output, overwritten later).
inline void CopyMatch(uint8_t* op, size_t offset, size_t length, bool wide) {
    const uint8_t* from = op - offset;
    if (wide && offset >= 16) {
        for (size_t i = 0; i < length; i += 16) {
            Copy16(op + i, from + i);
        }
        return;
    }
    if (wide && offset >= 8) {
        for (size_t i = 0; i < length; i += 8) {
            std::memcpy(op + i, from + i, 8);
        }
        return;
    }
    if (wide) {
        // A short period: write out its smallest multiple of at least 8 bytes byte by byte,
        // then copy 8 bytes at a time from that far behind.
        size_t period = offset * ((8 + offset - 1) / offset);
        size_t i = 0;
        for (; i < period && i < length; i++) {
            op[i] = from[i];
        }
        for (; i < length; i += 8) {
            std::memcpy(op + i, op + i - period, 8);
        }
        return;
    }
    for (size_t i = 0; i < length; i++) {
        op[i] = from[i];
    }
}

} // namespace

void SnappyDecode(const uint8_t* input, size_t input_size, uint8_t* output, size_t output_size) {
    const uint8_t* ip = input;
    const uint8_t* const ip_end = input + input_size;
    // The preamble: the uncompressed length as a little-endian base-128 varint of <= 5 bytes.
    uint64_t declared = 0;
    for (int shift = 0;; shift += 7) {
        if (ip == ip_end || shift > 28) {
            Corrupt("bad length preamble");
        }
        uint8_t byte = *ip++;
        declared |= uint64_t(byte & 0x7f) << shift;
        if ((byte & 0x80) == 0) {
            break;
        }
    }
    if (declared != output_size) {
        Corrupt("the block holds " + std::to_string(declared) + " bytes, not the expected " +
                std::to_string(output_size));
    }
    uint8_t* op = output;
    uint8_t* const op_end = output + output_size;
    const uint8_t* const ip_fast_end = input_size > kInputSlack ? ip_end - kInputSlack : input;
    uint8_t* const op_fast_end = output_size > kOutputSlack ? op_end - kOutputSlack : output;

    while (ip < ip_end) {
        // Inside the fast region every wide move stays within both buffers.
        bool wide = ip < ip_fast_end && op < op_fast_end;
        uint8_t tag = *ip++;
        size_t length;
        size_t offset;
        switch (tag & 3) {
        case 0: { // literal
            length = (tag >> 2) + 1;
            if (length > 60) {
                size_t bytes = length - 60;
                if (size_t(ip_end - ip) < bytes) {
                    Corrupt("literal length cut off");
                }
                // In 32 bits, as google/snappy computes it: a stored 0xffffffff is a literal
                // of length 0 there, and here.
                length = size_t(uint32_t(LoadLittleEndian(ip, bytes) + 1));
                ip += bytes;
            }
            if (wide && length <= 64) {
                // Whole 16-byte moves: both sides have the room.
                Copy16(op, ip);
                if (length > 16) {
                    Copy16(op + 16, ip + 16);
                    Copy16(op + 32, ip + 32);
                    Copy16(op + 48, ip + 48);
                }
            } else {
                if (length > size_t(ip_end - ip)) {
                    Corrupt("literal runs past the input");
                }
                if (length > size_t(op_end - op)) {
                    Corrupt("literal runs past the declared length");
                }
                std::memcpy(op, ip, length);
            }
            ip += length;
            op += length;
            continue;
        }
        case 1: // copy, 1-byte offset
            if (ip == ip_end) {
                Corrupt("copy offset cut off");
            }
            length = 4 + ((tag >> 2) & 7);
            offset = (size_t(tag >> 5) << 8) | *ip++;
            break;
        case 2: // copy, 2-byte offset
            if (ip_end - ip < 2) {
                Corrupt("copy offset cut off");
            }
            length = (tag >> 2) + 1;
            offset = LoadLittleEndian(ip, 2);
            ip += 2;
            break;
        default: // copy, 4-byte offset
            if (ip_end - ip < 4) {
                Corrupt("copy offset cut off");
            }
            length = (tag >> 2) + 1;
            offset = LoadLittleEndian(ip, 4);
            ip += 4;
            break;
        }
        if (offset == 0 || offset > size_t(op - output)) {
            Corrupt("copy from offset " + std::to_string(offset) + " at output byte " +
                    std::to_string(op - output));
        }
        if (length > size_t(op_end - op)) {
            Corrupt("copy runs past the declared length");
        }
        CopyMatch(op, offset, length, wide);
        op += length;
    }
    if (op != op_end) {
        Corrupt("the block ends after " + std::to_string(op - output) + " of " +
                std::to_string(output_size) + " bytes");
    }
}

} // namespace sluice::parquet
