// ExportChunkCopy: a record batch of a chunk its producer goes on to reuse owns every buffer
// it shows; ExportChunk of an owned chunk shares the fixed-width ones.
#include "formats/arrow/arrow_c_data.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace sluice {
namespace {

std::vector<LogicalType> Types() {
    return {LogicalType(LogicalTypeId::BIGINT), LogicalType(LogicalTypeId::VARCHAR),
            LogicalType::Decimal(15, 2), LogicalType(LogicalTypeId::BOOLEAN)};
}

void Fill(DataChunk& chunk, idx_t rows, int64_t base) {
    for (idx_t row = 0; row < rows; row++) {
        int64_t value = base + static_cast<int64_t>(row);
        if (row % 7 == 3) {
            chunk.SetValue(0, row, Value::Null(LogicalType(LogicalTypeId::BIGINT)));
        } else {
            chunk.SetValue(0, row, Value::Integer(LogicalTypeId::BIGINT, value));
        }
        chunk.SetValue(
            1, row, Value::Varchar("a string longer than twelve bytes " + std::to_string(value)));
        chunk.SetValue(2, row, Value::Decimal(15, 2, value * 100 + 5));
        chunk.SetValue(3, row, Value::Boolean(value % 2 == 0));
    }
    chunk.SetSize(rows);
}

// The rows of a batch as text, read through the Arrow layout alone.
std::vector<std::string> Rows(const ArrowArray& batch) {
    std::vector<std::string> rows;
    const ArrowArray& ints = *batch.children[0];
    const ArrowArray& strings = *batch.children[1];
    const ArrowArray& decimals = *batch.children[2];
    const ArrowArray& booleans = *batch.children[3];
    for (int64_t row = 0; row < batch.length; row++) {
        auto valid = [&](const ArrowArray& array) {
            const auto* bits = static_cast<const uint8_t*>(array.buffers[0]);
            return bits == nullptr || ((bits[row / 8] >> (row % 8)) & 1) != 0;
        };
        std::string text = valid(ints)
                               ? std::to_string(static_cast<const int64_t*>(ints.buffers[1])[row])
                               : "NULL";
        const auto* offsets = static_cast<const int32_t*>(strings.buffers[1]);
        const char* bytes = static_cast<const char*>(strings.buffers[2]);
        text += "|" + std::string(bytes + offsets[row], offsets[row + 1] - offsets[row]);
        int64_t low;
        std::memcpy(&low, static_cast<const char*>(decimals.buffers[1]) + 16 * row, 8);
        text += "|" + std::to_string(low);
        const auto* flags = static_cast<const uint8_t*>(booleans.buffers[1]);
        text += ((flags[row / 8] >> (row % 8)) & 1) != 0 ? "|true" : "|false";
        rows.push_back(text);
    }
    return rows;
}

TEST(ArrowExport, ACopiedBatchOutlivesTheChunkBeingReused) {
    DataChunk chunk(Types());
    Fill(chunk, 1000, 0);
    auto owned = std::make_shared<DataChunk>(Types());
    Fill(*owned, 1000, 0);
    ArrowArray shared{};
    ExportChunk(owned, &shared);
    std::vector<std::string> expected = Rows(shared);
    ASSERT_EQ(expected[3].substr(0, 5), "NULL|");
    ASSERT_EQ(expected[4], "4|a string longer than twelve bytes 4|405|true");

    ArrowArray copied{};
    ExportChunkCopy(chunk, &copied);
    EXPECT_EQ(copied.children[0]->null_count, shared.children[0]->null_count);
    // The producer writes its next rows into the same chunk: the batch keeps the first ones.
    chunk.Reset();
    Fill(chunk, 1000, 5000);
    EXPECT_EQ(Rows(copied), expected);
    EXPECT_NE(copied.children[0]->buffers[1], chunk.column(0).data<int64_t>());
    copied.release(&copied);
    EXPECT_EQ(copied.release, nullptr);
    shared.release(&shared);
}

TEST(ArrowExport, ManyBatchesReleasedInAnyOrderReuseTheirMemory) {
    DataChunk chunk(Types());
    std::vector<ArrowArray> batches(64);
    std::vector<std::vector<std::string>> expected;
    for (size_t i = 0; i < batches.size(); i++) {
        chunk.Reset();
        Fill(chunk, 2048, static_cast<int64_t>(i) * 10000);
        ExportChunkCopy(chunk, &batches[i]);
        auto owned = std::make_shared<DataChunk>(Types());
        Fill(*owned, 2048, static_cast<int64_t>(i) * 10000);
        ArrowArray reference{};
        ExportChunk(owned, &reference);
        expected.push_back(Rows(reference));
        reference.release(&reference);
    }
    // Every other batch released first; the rest still read as they were.
    for (size_t i = 0; i < batches.size(); i += 2) {
        batches[i].release(&batches[i]);
    }
    for (size_t i = 1; i < batches.size(); i += 2) {
        EXPECT_EQ(Rows(batches[i]), expected[i]) << "batch " << i;
        batches[i].release(&batches[i]);
    }
}

} // namespace
} // namespace sluice
