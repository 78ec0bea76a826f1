// libFuzzer target: arbitrary bytes as a whole Parquet file. Reads the footer, then plans and
// decodes every row group's readable columns. Anything but a sluice::Exception is a bug.
#include "formats/parquet/parquet_reader.hpp"
#include "memory_file.hpp"

using namespace sluice;
using namespace sluice::parquet;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        MemoryFileHandle file(data, size);
        std::shared_ptr<const ParquetFileReader> reader = ParquetFileReader::Open(file);
        std::vector<size_t> column_ids;
        std::vector<LogicalType> types;
        for (size_t i = 0; i < reader->columns().size(); i++) {
            if (reader->columns()[i].unsupported.empty()) {
                column_ids.push_back(i);
                types.push_back(reader->columns()[i].type);
            }
        }
        for (size_t group = 0; group < reader->RowGroupCount() && group < 64; group++) {
            if (reader->RowGroupRows(group) == 0) {
                continue;
            }
            std::vector<ByteBuffer> buffers;
            for (const ByteRange& range : reader->PlanRowGroup(group, column_ids)) {
                buffers.push_back(ByteBuffer::Allocate(range.length));
                file.Read(buffers.back().get(), range.length, range.offset);
            }
            RowGroupDecoder decoder(reader, group, column_ids, std::move(buffers));
            DataChunk chunk(types);
            for (int batches = 0; batches < 1000; batches++) {
                chunk.Reset();
                if (!decoder.Next(chunk)) {
                    break;
                }
            }
        }
    } catch (const Exception&) {
        // A clear error is the expected outcome for most inputs.
    }
    return 0;
}
