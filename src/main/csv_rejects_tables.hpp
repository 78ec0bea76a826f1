#pragma once

#include "formats/csv/csv_scan_format.hpp"
#include "main/database.hpp"
#include "scan/multi_file_reader.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <string>

namespace sluice {

// Where read_csv's store_rejects puts what it rejected, with DuckDB's columns: one row per file
// with rejected rows in `scans_table` (rejects_scan, default reject_scans) and one per rejected
// row in `errors_table` (rejects_table, default reject_errors). The tables are created when
// missing and appended to after each scan, each scan under a new scan_id.
struct CsvRejectsTarget {
    std::shared_ptr<csv::CsvRejects> rejects;
    std::string scans_table = "reject_scans";
    std::string errors_table = "reject_errors";
    std::string columns;        // the columns option as DuckDB shows it, if given
    std::string user_arguments; // the other options, "name=value, ..."
    std::optional<std::string> date_format;
    std::optional<std::string> timestamp_format;
};

// The finish step of a read_csv scan with store_rejects: moves the rejected rows into the tables.
std::function<void()> StoreCsvRejects(Database& database, CsvRejectsTarget target,
                                      std::shared_ptr<CsvScanFormat> format,
                                      std::shared_ptr<const MultiFileBinding> binding,
                                      std::shared_ptr<std::atomic<uint64_t>> scan_ids);

} // namespace sluice
