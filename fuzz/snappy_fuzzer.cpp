// libFuzzer target: Sluice's snappy decoder against Debian's libsnappy. The first byte picks the
// mode: even, the rest is a compressed block that both decoders must accept or refuse alike,
// with the same bytes when they accept; odd, the rest is data that libsnappy compresses and the
// decoder must give back unchanged.
#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/snappy_decoder.hpp"

#include <cstdlib>
#include <cstring>
#include <snappy-c.h>
#include <stdexcept>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    bool round_trip = data[0] & 1;
    data++;
    size--;
    std::vector<char> block;
    if (round_trip) {
        block.resize(snappy_max_compressed_length(size));
        size_t compressed = block.size();
        if (snappy_compress(reinterpret_cast<const char*>(data), size, block.data(), &compressed) !=
            SNAPPY_OK) {
            std::abort();
        }
        block.resize(compressed);
    } else {
        block.assign(data, data + size);
    }
    size_t length = 0;
    if (snappy_uncompressed_length(block.data(), block.size(), &length) != SNAPPY_OK ||
        length > (1 << 20)) {
        return 0;
    }
    std::vector<char> expected(length);
    size_t expected_length = length;
    bool library_accepts = snappy_uncompress(block.data(), block.size(), expected.data(),
                                             &expected_length) == SNAPPY_OK;
    // Exactly the output's size, so that the sanitizer sees any write past it.
    auto* output = static_cast<uint8_t*>(std::malloc(length == 0 ? 1 : length));
    bool accepts = true;
    try {
        sluice::parquet::SnappyDecode(reinterpret_cast<const uint8_t*>(block.data()), block.size(),
                                      output, length);
    } catch (const sluice::parquet::CorruptData&) {
        accepts = false;
    }
    if (accepts != library_accepts ||
        (accepts && length > 0 && std::memcmp(output, expected.data(), length) != 0) ||
        (round_trip &&
         (!accepts || length != size || (size > 0 && std::memcmp(output, data, size) != 0)))) {
        std::abort();
    }
    std::free(output);
    return 0;
}
