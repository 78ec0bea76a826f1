#pragma once

#include "formats/scan_format.hpp"
#include "parallel/task_scheduler.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// How a table function reads many files: the options every format shares, named as DuckDB's.
struct MultiFileOptions {
    bool union_by_name = false;
    bool filename = false;
    bool file_row_number = false;
    // Unset: partition columns when the first file's path has key=value folders.
    std::optional<bool> hive_partitioning;
    std::map<std::string, LogicalType> hive_types; // names lower-cased
};

// Where one output column of a multi-file scan comes from.
struct MultiFileColumn {
    enum class Kind : uint8_t { File, Partition, Filename, FileRowNumber };
    Kind kind = Kind::File;
    size_t index = 0; // File: into MultiFileBinding::file_columns; Partition: into partitions
};

// A file's columns placed into the scan's output: which file columns are decoded where, the
// output columns the file lacks (NULL), filters mapped onto the file's columns.
struct ProjectedFile {
    FileProjection projection;
    std::vector<idx_t> missing;
};

// The files of a read_parquet / read_csv call and the columns they give, fixed at bind time:
// globs expanded, the first file (or, with union_by_name, every file) opened, schemas unified,
// hive partition columns and the virtual filename / file_row_number columns added.
class MultiFileBinding {
public:
    std::vector<std::string> paths;
    // Per path: the file opened at bind time, or null (opened when the scan plans it).
    std::vector<std::shared_ptr<ScanFile>> opened;
    std::vector<ScanColumn> file_columns; // unified over the files
    std::vector<std::string> partition_keys;
    std::vector<LogicalType> partition_types;
    std::vector<std::vector<Value>> partition_values; // per path, per key
    bool union_by_name = false;

    std::vector<std::string> names; // every output column
    std::vector<LogicalType> types;
    std::vector<MultiFileColumn> columns;
    double estimated_rows = -1;
    // Per column (of `names`): at most how many distinct values, from the first file (negative:
    // unknown).
    std::vector<double> distinct_estimates;

    // The files a scan needs: those whose partition values can satisfy `filters` (on output
    // column indices). No request is made for the others.
    std::vector<size_t> FilesMatching(const std::vector<TableFilter>& filters) const;
    // Whether rows [first_row, first_row + rows) of a file can satisfy the filters on
    // file_row_number (a Parquet row group's rows: the job is not read when they cannot, as
    // when scans are cut by row number across the workers of a cluster).
    bool RowsMayMatch(const std::vector<TableFilter>& filters, int64_t first_row,
                      int64_t rows) const;
    // `file` (of `paths`) against the scan's output columns `column_ids`, and the leaves of
    // nested ones `leaf_masks` selects (for a file column of the scan's type). Throws when its
    // columns differ from the first file's and union_by_name is off.
    ProjectedFile Project(size_t file, const ScanFile& opened_file,
                          const std::vector<idx_t>& column_ids,
                          const std::vector<LeafMask>& leaf_masks,
                          const std::vector<TableFilter>& filters) const;
    // Wraps the format's decoder of a job of `file` (starting at row `first_row` of its file, -1
    // unknown) so that it also fills the output columns the format does not: columns the file
    // lacks (NULL), partition values, filename and file_row_number.
    std::unique_ptr<ScanJobDecoder> CompleteDecoder(size_t file, const ProjectedFile& projected,
                                                    const std::vector<idx_t>& column_ids,
                                                    const std::vector<LogicalType>& types,
                                                    std::unique_ptr<ScanJobDecoder> decoder,
                                                    int64_t first_row) const;
    // Throws unless every output column in `column_ids` can be read.
    void CheckReadable(const std::vector<idx_t>& column_ids) const;
};

// Expands `patterns` (paths, globs) in order and binds the files. `function` names the table
// function in errors.
std::shared_ptr<MultiFileBinding> BindMultiFile(ScanFormat& format, FileSystem& file_system,
                                                TaskScheduler& scheduler,
                                                const std::vector<std::string>& patterns,
                                                const MultiFileOptions& options,
                                                const std::string& function);

// The key=value folders of `path`, outermost first.
std::vector<std::pair<std::string, std::string>> HivePartitions(const std::string& path);

} // namespace sluice
