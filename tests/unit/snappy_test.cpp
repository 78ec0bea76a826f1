// Sluice's snappy decoder against Debian's libsnappy: the same bytes for every kind of data the
// Parquet writers compress, and errors, never crashes, for corrupt or cut blocks.
#include "formats/parquet/snappy_decoder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <snappy-c.h>
#include <stdexcept>
#include <string>
#include <vector>

using sluice::parquet::SnappyDecode;

namespace {

std::vector<uint8_t> Compress(const std::vector<uint8_t>& data) {
    std::vector<uint8_t> block(snappy_max_compressed_length(data.size()));
    size_t length = block.size();
    EXPECT_EQ(snappy_compress(reinterpret_cast<const char*>(data.data()), data.size(),
                              reinterpret_cast<char*>(block.data()), &length),
              SNAPPY_OK);
    block.resize(length);
    return block;
}

// Data shaped like Parquet pages: random bytes, little-endian integers with zero high bytes,
// short repeating periods (1 to 20 bytes, which exercise overlapping matches), text.
std::vector<uint8_t> Sample(std::mt19937_64& random, size_t kind, size_t size) {
    std::vector<uint8_t> data(size);
    switch (kind) {
    case 0:
        for (auto& byte : data) {
            byte = static_cast<uint8_t>(random());
        }
        break;
    case 1:
        for (size_t i = 0; i + 8 <= size; i += 8) {
            uint64_t value = random() % 10000000;
            std::memcpy(&data[i], &value, 8);
        }
        break;
    case 2: {
        size_t period = 1 + random() % 20;
        for (size_t i = 0; i < size; i++) {
            data[i] = static_cast<uint8_t>(i < period ? random() : data[i - period]);
        }
        break;
    }
    default: {
        static const char* kWords[] = {"furiously ", "regular ", "deposits ", "sleep ",
                                       "a ",         "quickly ", "final ",    "packages "};
        std::string text;
        while (text.size() < size) {
            text += kWords[random() % 8];
        }
        std::copy(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(size), data.begin());
        break;
    }
    }
    return data;
}

bool Decodes(const std::vector<uint8_t>& block, size_t size, std::vector<uint8_t>& out) {
    out.assign(size, 0);
    try {
        SnappyDecode(block.data(), block.size(), out.data(), size);
        return true;
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("snappy"), std::string::npos);
        return false;
    }
}

} // namespace

TEST(SnappyDecoder, GivesLibsnappysBytesForEveryKindOfData) {
    std::mt19937_64 random(7);
    for (size_t kind = 0; kind < 4; kind++) {
        for (size_t size : {0, 1, 15, 16, 63, 64, 65, 79, 80, 81, 200, 4096, 70000, 1 << 20}) {
            std::vector<uint8_t> data = Sample(random, kind, size);
            std::vector<uint8_t> out;
            ASSERT_TRUE(Decodes(Compress(data), size, out)) << kind << " " << size;
            EXPECT_EQ(out, data) << "kind " << kind << ", " << size << " bytes";
        }
    }
}

TEST(SnappyDecoder, DecodesLongLiteralsAndFarMatchesWrittenByHand) {
    // A 100-byte literal (length in one extra byte), then a 4-byte-offset copy of 64 bytes from
    // the start and a 2-byte-offset copy of 30 bytes overlapping itself (offset 3).
    std::vector<uint8_t> block = {194, 1, 60 << 2, 99}; // length 194; literal of 99 + 1
    std::vector<uint8_t> expected;
    for (int i = 0; i < 100; i++) {
        block.push_back(static_cast<uint8_t>(i * 7));
        expected.push_back(static_cast<uint8_t>(i * 7));
    }
    block.insert(block.end(), {(63 << 2) | 3, 100, 0, 0, 0});
    for (int i = 0; i < 64; i++) {
        expected.push_back(expected[i]);
    }
    block.insert(block.end(), {(29 << 2) | 2, 3, 0});
    for (int i = 0; i < 30; i++) {
        expected.push_back(expected[expected.size() - 3]);
    }
    ASSERT_EQ(expected.size(), 194u);
    std::vector<uint8_t> out;
    ASSERT_TRUE(Decodes(block, expected.size(), out));
    EXPECT_EQ(out, expected);
}

TEST(SnappyDecoder, RefusesWhatLibsnappyRefuses) {
    std::mt19937_64 random(11);
    for (int round = 0; round < 3000; round++) {
        std::vector<uint8_t> data = Sample(random, round % 4, 1 + random() % 3000);
        std::vector<uint8_t> block = Compress(data);
        // Cut, flip a byte, or both.
        if (round % 3 != 1) {
            block.resize(random() % block.size());
        }
        if (round % 3 != 0 && !block.empty()) {
            block[random() % block.size()] ^= static_cast<uint8_t>(1 + random() % 255);
        }
        size_t length = 0;
        if (snappy_uncompressed_length(reinterpret_cast<const char*>(block.data()), block.size(),
                                       &length) != SNAPPY_OK ||
            length > (1 << 22)) {
            std::vector<uint8_t> out;
            EXPECT_FALSE(Decodes(block, data.size(), out));
            continue;
        }
        std::vector<char> expected(length);
        bool library = snappy_uncompress(reinterpret_cast<const char*>(block.data()), block.size(),
                                         expected.data(), &length) == SNAPPY_OK;
        std::vector<uint8_t> out;
        bool ours = Decodes(block, expected.size(), out);
        ASSERT_EQ(ours, library) << "round " << round;
        if (ours && !out.empty()) {
            EXPECT_EQ(std::memcmp(out.data(), expected.data(), out.size()), 0);
        }
    }
}

TEST(SnappyDecoder, ReadsA4ByteLiteralLengthIn32BitsAsLibsnappyDoes) {
    // Found by the fuzzer: length 0, then a literal whose stored length - 1 is 0xffffffff. Both
    // decoders take it as an empty literal.
    std::vector<uint8_t> block = {0x00, 0xfc, 0xff, 0xff, 0xff, 0xff};
    size_t length = 1;
    ASSERT_EQ(snappy_uncompressed_length(reinterpret_cast<const char*>(block.data()), block.size(),
                                         &length),
              SNAPPY_OK);
    ASSERT_EQ(length, 0u);
    char unused = 0;
    EXPECT_EQ(snappy_uncompress(reinterpret_cast<const char*>(block.data()), block.size(), &unused,
                                &length),
              SNAPPY_OK);
    uint8_t out = 0;
    EXPECT_NO_THROW(SnappyDecode(block.data(), block.size(), &out, 0));
}

TEST(SnappyDecoder, RefusesALengthOtherThanTheExpectedOne) {
    std::vector<uint8_t> data(1000, 'x');
    std::vector<uint8_t> block = Compress(data);
    std::vector<uint8_t> out(999);
    EXPECT_THROW(SnappyDecode(block.data(), block.size(), out.data(), 999), std::runtime_error);
}
