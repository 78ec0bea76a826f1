// Many connections running a mix of TPC-H queries against one Sluice database for a long time:
// the driver of bench/soak.mjs. Prints a sample line every SAMPLE_SECONDS ("sample 120.0 rss_mb
// 812 fds 41 sockets 18 queries 311 failures 0"), every failure in full ("failure q9 ..."),
// every EXPLAIN ANALYZE it runs (each connection's every 20th query, so remote scans are
// explained throughout), the error of a query that must fail (a missing object, every 25th
// query: "expected-error ..."), and a last line "done queries N failures F".
//
//   build/bench/soak SETUP_SQL_FILE CONNECTIONS SECONDS SAMPLE_SECONDS MISSING_PATH TRACE_FILE
//
// SETUP_SQL_FILE creates the views (over the rig, with credentials); MISSING_PATH is a file
// the store does not have; the first query of the first connection is traced to TRACE_FILE.
#include "bench_support.hpp"
#include "main/sluice.hpp"
#include "tpch/tpch_queries.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

// The mix: scans, joins and aggregates of every size.
const int kQueries[] = {1, 3, 5, 6, 10, 12, 14, 19};

std::string OneLine(std::string text) {
    for (char& c : text) {
        c = c == '\n' ? ' ' : c;
    }
    return text;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 7) {
        std::fprintf(stderr, "usage: soak SETUP_SQL_FILE CONNECTIONS SECONDS SAMPLE_SECONDS "
                             "MISSING_PATH TRACE_FILE\n");
        return 2;
    }
    int connections = std::atoi(argv[2]);
    double duration = std::atof(argv[3]);
    double sample_every = std::atof(argv[4]);
    std::string missing = argv[5];
    std::string trace = argv[6];

    sluice::Database database;
    sluice::Connection setup(database);
    if (!sluice::bench::RunSetupFile(setup, argv[1])) {
        return 1;
    }
    std::mutex output;
    sluice::bench::Stopwatch clock;
    auto seconds = [&] { return clock.Seconds(); };
    std::atomic<uint64_t> queries{0};
    std::atomic<uint64_t> failures{0};
    std::vector<std::thread> threads;
    for (int c = 0; c < connections; c++) {
        threads.emplace_back([&, c] {
            sluice::Connection connection(database);
            for (uint64_t round = 0; seconds() < duration; round++) {
                int number = kQueries[(round + static_cast<uint64_t>(c)) % std::size(kQueries)];
                std::string query = sluice::tpch::QueryText(number);
                try {
                    if (c == 0 && round == 0) {
                        connection.Query("SET trace_file = '" + trace + "'");
                    }
                    if (round % 25 == 24) {
                        try {
                            connection.Query("SELECT count(*) FROM read_parquet('" + missing +
                                             "')");
                            std::lock_guard<std::mutex> guard(output);
                            std::printf("failure: the missing file was read\n");
                            failures++;
                        } catch (const std::exception& error) {
                            std::lock_guard<std::mutex> guard(output);
                            std::printf("expected-error %s\n", OneLine(error.what()).c_str());
                        }
                    }
                    if (round % 20 == 19) {
                        auto result = connection.Query("EXPLAIN ANALYZE " + query);
                        std::lock_guard<std::mutex> guard(output);
                        std::printf("explain q%d\n%s\n", number,
                                    result->GetValue(1, 0).GetString().c_str());
                    } else {
                        connection.Query(query);
                    }
                    queries++;
                } catch (const std::exception& error) {
                    failures++;
                    std::lock_guard<std::mutex> guard(output);
                    std::printf("failure q%d %s\n", number, OneLine(error.what()).c_str());
                }
                std::fflush(stdout);
            }
        });
    }
    std::thread sampler([&] {
        double next = 0;
        while (true) {
            double now = seconds();
            if (now >= next) {
                sluice::bench::Descriptors fds = sluice::bench::OpenDescriptors();
                std::lock_guard<std::mutex> guard(output);
                std::printf("sample %.1f rss_mb %.0f fds %d sockets %d queries %llu failures "
                            "%llu\n",
                            now, sluice::bench::ResidentMB(), fds.open, fds.sockets,
                            static_cast<unsigned long long>(queries.load()),
                            static_cast<unsigned long long>(failures.load()));
                std::fflush(stdout);
                next += sample_every;
            }
            if (now >= duration) {
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    });
    for (auto& thread : threads) {
        thread.join();
    }
    sampler.join();
    std::printf("done queries %llu failures %llu\n",
                static_cast<unsigned long long>(queries.load()),
                static_cast<unsigned long long>(failures.load()));
    return failures.load() == 0 ? 0 : 1;
}
