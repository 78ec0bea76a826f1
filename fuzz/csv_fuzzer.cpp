// libFuzzer target: arbitrary bytes as a CSV file, sniffed, then read twice: as one job, and cut
// into tiny jobs (the first byte picks their size) decoded in order. Anything but a
// sluice::Exception is a bug, and when both reads succeed they must find the same rows.
#include "common/exception.hpp"
#include "expected_errors.hpp"
#include "formats/csv/csv_scan_format.hpp"
#include "memory_file.hpp"

#include <cstdlib>

using namespace sluice;

namespace {

// Rows of the file read with jobs of `buffer_size` bytes; throws on the first error.
uint64_t CountRows(MemoryFileSystem& file_system, uint64_t buffer_size) {
    csv::CsvReadOptions options;
    options.buffer_size = buffer_size;
    options.max_line_size = 1 << 16;
    CsvScanFormat format(options, false, true);
    std::shared_ptr<ScanFile> file = format.Open(file_system, "fuzz.csv", {});
    FileProjection projection;
    for (size_t i = 0; i < file->Columns().size(); i++) {
        projection.columns.push_back(i);
        projection.positions.push_back(i);
    }
    std::vector<LogicalType> types;
    for (const ScanColumn& column : file->Columns()) {
        types.push_back(column.type);
    }
    FileJobs planned = file->PlanJobs(projection, {});
    uint64_t rows = 0;
    DataChunk chunk(types);
    for (const ScanJobPlan& job : planned.jobs) {
        ByteBuffer bytes = ByteBuffer::Allocate(job.ranges[0].length);
        file->handle()->Read(bytes.get(), job.ranges[0].length, job.ranges[0].offset, {});
        std::unique_ptr<ScanJobDecoder> decoder = file->Decode(job, {bytes}, {});
        if (!decoder->Ready(Waker())) {
            abort(); // jobs decoded in order always know where they start
        }
        while (true) {
            chunk.Reset();
            if (!decoder->Next(chunk)) {
                break;
            }
            rows += chunk.size();
        }
    }
    return rows;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    uint64_t tiny = 8 + uint64_t{data[0]} * 4; // 8 to 1028 bytes
    MemoryFileSystem file_system(data + 1, size - 1);
    uint64_t whole = 0;
    try {
        whole = CountRows(file_system, uint64_t{1} << 30);
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
        return 0; // a clear error is the expected outcome for most inputs
    }
    try {
        if (CountRows(file_system, tiny) != whole) {
            abort(); // rows lost or read twice at a job boundary
        }
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
        // The boundary check may refuse a split it cannot prove right; that is an error too.
    }
    return 0;
}
