#include "execution/csv_copy_sink.hpp"

#include "common/memory_size.hpp"

namespace sluice {

struct CsvCopySink::Local : TaskState {
    std::string text; // the batch's rows, formatted
    uint64_t rows = 0;
};

CsvCopySink::CsvCopySink(std::string path, const std::vector<std::string>& names,
                         const csv::CsvWriteOptions& options, MemoryManager* memory)
    : formatter_(options), memory_(memory), reservation_(memory, "COPY_TO_CSV"),
      writer_(std::move(path), names, options) {
}

std::unique_ptr<OrderedBatchSink::TaskState> CsvCopySink::NewTaskState() {
    return std::make_unique<Local>();
}

void CsvCopySink::Append(DataChunk& chunk, TaskState& task) {
    auto& local = static_cast<Local&>(task);
    formatter_.AppendRows(chunk, 0, chunk.size(), local.text);
    local.rows += chunk.size();
}

void CsvCopySink::FinishBatch(TaskState& task) {
    auto& local = static_cast<Local&>(task);
    std::lock_guard<std::mutex> guard(mutex_);
    if (local.rows == 0) {
        return;
    }
    Held held;
    held.rows = local.rows;
    TemporaryDirectory* directory = memory_ ? memory_->temporary_directory() : nullptr;
    idx_t wanted = held_bytes_ + local.text.size();
    bool fits = wanted <= kHeldBytes && reservation_.TryResize(wanted);
    if (!fits && !directory) {
        reservation_.Resize(wanted); // else the Out of Memory error: nothing can spill
        fits = true;
    }
    if (!fits) {
        // Waiting behind a slow batch: the text waits on disk.
        if (!spill_) {
            spill_ = std::make_unique<SpillFile>(
                *directory, "COPY TO CSV holds more than " +
                                FormatMemorySize(std::min<idx_t>(kHeldBytes, memory_->limit())) +
                                " waiting for earlier rows");
        }
        DataChunk text({LogicalTypeId::VARCHAR}, 1);
        text.column(0).data<string_t>()[0] = text.column(0).AddString(local.text);
        text.SetSize(1);
        held.spilled = true;
        held.spill_start = spill_->bytes();
        spill_->Append(text);
        held.spill_end = spill_->bytes();
    } else {
        held_bytes_ += local.text.size();
        held.text = std::move(local.text);
    }
    held_.emplace(local.batch, std::move(held));
    local.text = std::string();
    local.rows = 0;
}

void CsvCopySink::WriteReady() {
    while (true) {
        std::unique_lock<std::mutex> writing(write_mutex_, std::try_to_lock);
        if (!writing.owns_lock()) {
            return; // the task writing takes ours too (it looks again before it lets go)
        }
        std::vector<Held> ready;
        {
            std::lock_guard<std::mutex> guard(mutex_);
            idx_t watermark = watermark_.Lowest();
            for (auto entry = held_.begin(); entry != held_.end() && entry->first < watermark;) {
                Held& held = entry->second;
                if (held.spilled) {
                    // Read back under the lock: appends to the file happen under it too.
                    spill_->Flush();
                    SpillFile::Reader reader(*spill_, held.spill_start, held.spill_end, 1 << 20);
                    DataChunk text({LogicalTypeId::VARCHAR}, 1);
                    reader.Next(text);
                    string_t value = text.column(0).data<string_t>()[0];
                    held.text.assign(value.data(), value.size());
                } else {
                    held_bytes_ -= held.text.size();
                    reservation_.Resize(held_bytes_);
                }
                ready.push_back(std::move(held));
                entry = held_.erase(entry);
            }
        }
        if (ready.empty()) {
            writing.unlock();
            // A batch may have become complete while another task found the file taken.
            std::lock_guard<std::mutex> guard(mutex_);
            if (held_.empty() || held_.begin()->first >= watermark_.Lowest()) {
                return;
            }
            continue;
        }
        for (const Held& held : ready) {
            writer_.Write(held.text, held.rows);
        }
    }
}

void CsvCopySink::Finalize() {
    WriteReady(); // every task has combined: every held batch is complete
    writer_.Finish();
}

} // namespace sluice
