#include "formats/csv/csv_rejects.hpp"

#include <algorithm>

namespace sluice::csv {

const char* CsvErrorTypeName(CsvErrorType type) {
    switch (type) {
    case CsvErrorType::Cast:
        return "CAST";
    case CsvErrorType::MissingColumns:
        return "MISSING COLUMNS";
    case CsvErrorType::TooManyColumns:
        return "TOO MANY COLUMNS";
    case CsvErrorType::UnquotedValue:
        return "UNQUOTED VALUE";
    case CsvErrorType::LineSizeOverMaximum:
        return "LINE SIZE OVER MAXIMUM";
    case CsvErrorType::InvalidEncoding:
        return "INVALID ENCODING";
    }
    return "INVALID STATE";
}

bool CsvRejects::Wants(const std::string& path) {
    std::lock_guard<std::mutex> guard(mutex_);
    auto kept = std::find_if(kept_per_file_.begin(), kept_per_file_.end(),
                             [&](const auto& entry) { return entry.first == path; });
    if (kept == kept_per_file_.end()) {
        kept_per_file_.emplace_back(path, 0);
        kept = kept_per_file_.end() - 1;
    }
    if (limit_ > 0 && kept->second >= limit_) {
        return false;
    }
    kept->second++;
    return true;
}

void CsvRejects::Add(CsvRejectedRow row, std::shared_ptr<const CsvLineResolver> resolver,
                     size_t job, uint64_t lines_in_job) {
    std::lock_guard<std::mutex> guard(mutex_);
    entries_.push_back({std::move(row), std::move(resolver), job, lines_in_job});
}

std::vector<CsvRejectedRow> CsvRejects::Take() {
    std::vector<Entry> entries;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        entries.swap(entries_);
    }
    std::vector<CsvRejectedRow> rows;
    for (Entry& entry : entries) {
        if (entry.resolver) {
            entry.row.line = entry.resolver->Line(entry.job, entry.lines_in_job);
        }
        rows.push_back(std::move(entry.row));
    }
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.path != b.path ? a.path < b.path : a.line_byte_position < b.line_byte_position;
    });
    return rows;
}

} // namespace sluice::csv
