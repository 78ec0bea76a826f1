#include "cli/gen_tpch.hpp"

#include "cli/query_monitor.hpp"
#include "common/exception.hpp"
#include "common/string_util.hpp"
#include "formats/parquet/parquet_writer.hpp"
#include "main/connection.hpp"
#include "main/database.hpp"
#include "main/dbgen_command.hpp"

#include <cstdio>
#include <iostream>
#include <string>

namespace sluice {

namespace {

void GenTpchUsage() {
    std::cout << "Usage: sluice gen-tpch --out DIR [OPTIONS]\n"
                 "  --sf N               scale factor (default 1; lineitem has ~6M rows per unit)\n"
                 "  --format F           parquet (default), csv, or tbl (dbgen's own text)\n"
                 "  --row-group-size N   rows per Parquet row group (default 122880)\n"
                 "  --files K            files per table (default 1: DIR/table.ext; more: "
                 "DIR/table/table_NNNN.ext)\n"
                 "  --tables LIST        comma-separated tables (default all eight)\n"
                 "  --compression C      Parquet codec: snappy (default), zstd, gzip, lz4, "
                 "brotli, uncompressed\n"
                 "  --threads N          generating threads (default: one per core)\n";
}

std::string Megabytes(uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

} // namespace

int RunGenTpch(int argc, char** argv) {
    DbgenOptions options;
    std::string threads;
    try {
        for (int i = 0; i < argc; i++) {
            std::string argument = argv[i];
            if (argument == "--help" || argument == "-h") {
                GenTpchUsage();
                return 0;
            }
            if (i + 1 >= argc) {
                throw Exception(ErrorKind::InvalidInput,
                                "gen-tpch: " + argument + " needs a value");
            }
            std::string value = argv[++i];
            auto number = [&](const std::string& name) {
                try {
                    size_t used = 0;
                    double parsed = std::stod(value, &used);
                    if (used == value.size()) {
                        return parsed;
                    }
                } catch (const std::exception&) {
                }
                throw Exception(ErrorKind::InvalidInput,
                                "gen-tpch: " + name + " must be a number, got '" + value + "'");
            };
            if (argument == "--sf") {
                options.scale_factor = number("--sf");
            } else if (argument == "--out") {
                options.path = value;
            } else if (argument == "--format") {
                options.format = Lower(value);
            } else if (argument == "--row-group-size") {
                double rows = number("--row-group-size");
                options.row_group_size = rows < 1 ? 0 : static_cast<uint64_t>(rows);
            } else if (argument == "--files") {
                double files = number("--files");
                options.files = files < 1 ? 0 : static_cast<uint64_t>(files);
            } else if (argument == "--compression") {
                options.codec = parquet::CodecFromName(value);
            } else if (argument == "--threads") {
                threads = value;
            } else if (argument == "--tables") {
                options.AddTables(value);
            } else {
                throw Exception(ErrorKind::InvalidInput, "gen-tpch: unknown option " + argument);
            }
        }
        if (options.path.empty()) {
            throw Exception(ErrorKind::InvalidInput, "gen-tpch: --out DIR is required");
        }
        options.Validate();
    } catch (const Exception& error) {
        std::cerr << error.what() << "\n";
        GenTpchUsage();
        return 2;
    }
    try {
        Database database;
        Connection connection(database);
        if (!threads.empty()) {
            connection.Query("SET threads = " + threads);
        }
        InstallInterruptHandler();
        std::vector<tpch::Table> tables =
            options.tables.empty() ? tpch::AllTables() : options.tables;
        for (tpch::Table table : tables) {
            DbgenOptions one = options;
            one.tables = {table};
            std::unique_ptr<QueryResult> result;
            {
                QueryMonitor monitor(connection, true, tpch::TableName(table) + " ",
                                     std::chrono::milliseconds(300));
                result = connection.RunDbgen(one);
            }
            auto rows = static_cast<uint64_t>(result->GetValue(1, 0).GetInteger());
            auto files = result->GetValue(2, 0).GetInteger();
            auto bytes = static_cast<uint64_t>(result->GetValue(3, 0).GetInteger());
            double seconds = result->GetValue(4, 0).GetDouble();
            std::printf(
                "%-9s %12llu rows  %lld file%s  %10s  %7.2f s  %6.2f M rows/s  %7.1f MB/s\n",
                tpch::TableName(table).c_str(), static_cast<unsigned long long>(rows),
                static_cast<long long>(files), files == 1 ? " " : "s", Megabytes(bytes).c_str(),
                seconds, rows / seconds / 1e6, bytes / seconds / 1e6);
            std::fflush(stdout);
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << error.what() << "\n";
        return 1;
    }
}

} // namespace sluice
