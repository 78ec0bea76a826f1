// Filters evaluated inside the Parquet readers give exactly the rows of decoding everything and
// filtering afterwards: for every comparison, BETWEEN, IN and IS [NOT] NULL, on generated files
// (every type Sluice writes, NULLs, NaN, dictionary and plain pages, several row groups) and on
// every readable column of the shared Parquet corpus (delta, byte-stream-split, legacy layouts).
// `coalesce(predicate, false)` is the reference: the optimizer does not push it into the scan.
#include "common/exception.hpp"
#include "formats/parquet/parquet_scan_format.hpp"
#include "io/local_file_system.hpp"
#include "main/sluice.hpp"

#include "query_text.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

using namespace sluice;

namespace {

const std::filesystem::path kCorpus =
    std::filesystem::path(SLUICE_SOURCE_DIR) / ".." / "shared" / "corpus" / "parquet-testing";

struct Checker {
    Database database;
    Connection connection{database};
    uint64_t queries = 0;
    uint64_t rows_filtered = 0; // by the readers, over every checked query

    std::string Dump(const std::string& sql) { return QueryText(connection, sql); }

    // `select` over `file` with `predicate` pushed into the readers and evaluated after them.
    void Check(const std::string& file, const std::string& select, const std::string& predicate) {
        std::string from = " FROM read_parquet('" + file + "', file_row_number = true) WHERE ";
        std::string order = " ORDER BY file_row_number";
        std::string pushed = "SELECT file_row_number, " + select + from + predicate + order;
        std::string reference = "SELECT file_row_number, " + select + from + "coalesce(" +
                                predicate + ", false)" + order;
        ASSERT_EQ(Dump(pushed), Dump(reference)) << file << ": " << predicate;
        std::string analyzed = Dump("EXPLAIN ANALYZE " + pushed);
        std::smatch match;
        ASSERT_TRUE(
            std::regex_search(analyzed, match, std::regex("rows filtered while decoding ([0-9]+)")))
            << analyzed;
        rows_filtered += std::stoull(match[1]);
        queries++;
    }

    // Every filter kind on `column` of `file`, with constants taken from the column's values.
    void CheckColumn(const std::string& file, const std::string& column, const LogicalType& type,
                     const std::string& select) {
        std::string quoted = "\"" + column + "\"";
        auto values = connection.Query("SELECT DISTINCT " + quoted + " FROM read_parquet('" + file +
                                       "') WHERE " + quoted + " IS NOT NULL ORDER BY 1");
        Check(file, select, quoted + " IS NULL");
        Check(file, select, quoted + " IS NOT NULL");
        if (values->RowCount() == 0) {
            return;
        }
        auto literal = [&](idx_t row) {
            std::string text = values->GetValue(0, row).ToString();
            std::string escaped;
            for (char c : text) {
                escaped += c == '\'' ? std::string("''") : std::string(1, c);
            }
            return "CAST('" + escaped + "' AS " + type.ToString() + ")";
        };
        std::string low = literal(0);
        std::string middle = literal(values->RowCount() / 2);
        uint64_t filtered_before = rows_filtered;
        for (const char* op : {"=", "!=", "<", "<=", ">", ">="}) {
            Check(file, select, quoted + " " + op + " " + middle);
        }
        // With two values or more, some of these comparisons fail for some rows: the readers
        // must have dropped them (the filters were pushed, not left to the filter above).
        if (values->RowCount() >= 2) {
            EXPECT_GT(rows_filtered, filtered_before) << file << ": " << column;
        }
        Check(file, select, quoted + " BETWEEN " + low + " AND " + middle);
        Check(file, select, quoted + " IN (" + low + ", " + middle + ")");
        Check(file, select, quoted + " IN (" + middle + ", NULL)");
        if (type.IsFloating()) {
            Check(file, select, quoted + " = CAST('NaN' AS " + type.ToString() + ")");
            Check(file, select, quoted + " < CAST('NaN' AS " + type.ToString() + ")");
        }
    }
};

// Types whose filters the readers apply (nested values are filtered above the scan).
bool Filterable(const LogicalType& type) {
    if (type.IsNested()) {
        return false;
    }
    switch (type.id()) {
    case LogicalTypeId::BLOB:
    case LogicalTypeId::INTERVAL:
        return false;
    default:
        return true;
    }
}

} // namespace

TEST(ParquetFilters, GeneratedFilesGiveTheRowsOfFilteringAfterDecoding) {
    Checker checker;
    auto directory = std::filesystem::temp_directory_path() /
                     ("sluice_parquet_filter_" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory);
    const char* kColumns =
        "range AS id, CASE WHEN range % 11 = 0 THEN NULL ELSE CAST(range % 37 AS INTEGER) END "
        "AS i32, range * 7919 % 100003 AS i64, CAST(range % 200 AS SMALLINT) AS i16, "
        "CASE WHEN range % 13 = 0 THEN NULL WHEN range % 17 = 0 THEN CAST('NaN' AS DOUBLE) "
        "ELSE (range % 101) / 4.0 END AS dbl, CAST((range % 51) / 2.0 AS FLOAT) AS flt, "
        "CASE WHEN range % 7 = 0 THEN NULL ELSE 'v' || (range % 23) END AS str, "
        "'a string too long to inline ' || (range * 31 % 5003) AS long_str, "
        "DATE '2000-01-01' + CAST(range % 400 AS INTEGER) AS d, "
        "TIMESTAMP '2020-01-01 00:00:00' + to_seconds(range * 3600) AS ts, "
        "CAST(range % 500 AS DECIMAL(9,2)) / 8 AS dec9, CAST(range * 13 % 1000 AS DECIMAL(18,3)) "
        "AS dec18, range % 3 = 0 AS flag";
    std::vector<std::string> files;
    for (const char* codec : {"snappy", "uncompressed"}) {
        std::string file = (directory / (std::string(codec) + ".parquet")).string();
        checker.connection.Query(
            std::string("COPY (SELECT ") + kColumns + " FROM range(6000)) TO '" + file +
            "' (FORMAT parquet, ROW_GROUP_SIZE 1000, COMPRESSION " + codec + ")");
        files.push_back(file);
    }
    LocalFileSystem local;
    for (const std::string& file : files) {
        auto opened = OpenParquetFile(local, file);
        for (const ScanColumn& column : opened->Columns()) {
            if (column.name != "id" && Filterable(column.type)) {
                // The column and two decoded for the surviving rows only (one with NULLs).
                checker.CheckColumn(file, column.name, column.type, column.name + ", str, dbl");
            }
        }
        // Conjunctions over several columns, one column with two filters, and nothing left.
        checker.Check(file, "*", "i32 < 20 AND str = 'v3' AND dbl >= 2.5");
        checker.Check(file, "id, long_str", "i64 > 50000 AND i64 <= 90000 AND flag = true");
        checker.Check(file, "*",
                      "d >= DATE '2000-06-01' AND ts < TIMESTAMP '2020-03-01' AND "
                      "dec9 != 10.50");
        checker.Check(file, "*", "i32 = 1000");
        checker.Check(file, "*",
                      "str IN ('v1', 'v5', 'v22', 'nothing') AND i16 IN (3, 4, 5, 6, 7, "
                      "8, 9, 10, 11, 12, 13, 14, 15, 103)");
    }
    EXPECT_GT(checker.queries, 100u);
    EXPECT_GT(checker.rows_filtered, 0u); // the readers did filter
    std::filesystem::remove_all(directory);
}

TEST(ParquetFilters, CorpusFilesGiveTheRowsOfFilteringAfterDecoding) {
    if (!std::filesystem::exists(kCorpus)) {
        GTEST_SKIP() << "no shared corpus at " << kCorpus;
    }
    Checker checker;
    LocalFileSystem local;
    std::vector<std::filesystem::path> paths;
    for (const auto& entry : std::filesystem::directory_iterator(kCorpus / "data")) {
        if (entry.path().extension() == ".parquet") {
            paths.push_back(entry.path());
        }
    }
    std::sort(paths.begin(), paths.end());
    size_t columns_checked = 0;
    for (const auto& path : paths) {
        std::string file = path.string();
        std::shared_ptr<ParquetScanFile> opened;
        try {
            opened = OpenParquetFile(local, file);
            checker.connection.Query("SELECT count(*) FROM read_parquet('" + file + "')");
        } catch (const Exception&) {
            continue; // files Sluice refuses are the corpus status test's business
        }
        for (const ScanColumn& column : opened->Columns()) {
            if (!column.unsupported.empty() || !Filterable(column.type)) {
                continue;
            }
            try {
                checker.connection.Query("SELECT \"" + column.name + "\" FROM read_parquet('" +
                                         file + "')");
            } catch (const Exception&) {
                continue; // a column that does not decode (corrupt on purpose)
            }
            checker.CheckColumn(file, column.name, column.type, "\"" + column.name + "\"");
            columns_checked++;
        }
    }
    EXPECT_GT(columns_checked, 50u);
    EXPECT_GT(checker.rows_filtered, 0u);
}
