// The Thrift compact reader on hostile bytes: errors, never a crash.
#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/thrift_compact_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace sluice;

TEST(ThriftCompactReader, MapsOfMapsNestedTooDeeplyAreAnErrorNotAStackOverflow) {
    // Found by the thrift fuzzer's 10-minute run: skipping a map whose keys are maps, 100,000
    // levels deep, recursed without the depth limit lists and structs have.
    std::vector<uint8_t> bytes;
    for (int i = 0; i < 100000; i++) {
        bytes.push_back(0x01); // one entry
        bytes.push_back(0xBB); // key and value: maps
    }
    ThriftCompactReader reader(bytes.data(), bytes.size());
    try {
        reader.Skip(0x0B); // a map
        FAIL() << "no error";
    } catch (const parquet::CorruptData& error) {
        EXPECT_NE(std::string(error.what()).find("nested too deeply"), std::string::npos)
            << error.what();
    }
}
