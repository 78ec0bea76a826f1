#pragma once

#include "execution/ordered_batch_sink.hpp"
#include "formats/csv/csv_writer.hpp"
#include "memory/memory_manager.hpp"
#include "memory/spill_file.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sluice {

// The sink of COPY (query) TO 'file.csv' on as many tasks as the query runs on, the file's rows
// in the query's order all the same. Each task formats the rows of the batch it is producing
// (the expensive part); a finished batch's text is held until the batches before it are
// complete (BatchWatermark), then written in order by whichever task comes by (one at a time).
// Past kHeldBytes held, or past what memory_limit allows (the text held counts against it),
// more text goes to a temporary file until its turn comes.
class CsvCopySink : public OrderedBatchSink {
public:
    CsvCopySink(std::string path, const std::vector<std::string>& names,
                const csv::CsvWriteOptions& options, MemoryManager* memory);

    std::string Name() const override { return "COPY_TO_CSV"; }
    void Finalize() override;
    uint64_t rows_written() const { return writer_.rows_written(); }
    // Text that waited on disk (after Finalize).
    uint64_t spilled_bytes() const { return spill_ ? spill_->bytes() : 0; }

    static constexpr size_t kHeldBytes = 64 << 20;

private:
    struct Held {
        std::string text;
        bool spilled = false; // the text is in spill_, between these offsets
        uint64_t spill_start = 0;
        uint64_t spill_end = 0;
        uint64_t rows = 0;
    };
    struct Local;

    std::unique_ptr<TaskState> NewTaskState() override;
    void Append(DataChunk& chunk, TaskState& task) override;
    void FinishBatch(TaskState& task) override;
    void AfterWatermarkMoved(bool /*task_done*/) override { WriteReady(); }
    // Writes the complete batches in order, unless another task is at it (it then writes them).
    void WriteReady();

    csv::CsvFormatter formatter_;
    MemoryManager* memory_;

    // Under mutex_:
    std::map<idx_t, Held> held_;
    size_t held_bytes_ = 0;
    MemoryReservation reservation_; // of held_bytes_
    std::unique_ptr<SpillFile> spill_;

    std::mutex write_mutex_; // the file: held by the task writing
    csv::CsvFileWriter writer_;
};

} // namespace sluice
