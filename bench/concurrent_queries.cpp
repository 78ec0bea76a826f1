// TPC-H queries submitted at once to one Sluice database, one connection each: the benchmark
// suite's experiment 5 (bench/suite). Prints one line per query ("q6 OK 3.21" or "q18 ERROR
// 2.01 <message>") and the wall time until all finished ("total 7.52").
//
//   build/bench/concurrent_queries SETUP_SQL_FILE MEMORY_LIMIT QUERY_NUMBER...
//
// SETUP_SQL_FILE creates the tables' views (read_parquet over the rig, say); MEMORY_LIMIT is a
// size such as '4GB', or 'default'. A last line "memory ..." compares the process's peak RSS with
// what operators had reserved at that moment and at most, and what the allocator held free then
// (sampled every 20 ms): the memory outside memory_limit's accounting.
#include "bench_support.hpp"
#include "main/sluice.hpp"
#include "tpch/tpch_queries.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <malloc.h>

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: concurrent_queries SETUP_SQL_FILE MEMORY_LIMIT QUERY...\n");
        return 2;
    }
    sluice::Database database;
    sluice::Connection setup_connection(database);
    if (!sluice::bench::RunSetupFile(setup_connection, argv[1])) {
        return 1;
    }
    try {
        if (std::string(argv[2]) != "default") {
            setup_connection.Query(std::string("SET memory_limit = '") + argv[2] + "'");
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "setup failed: %s\n", error.what());
        return 1;
    }
    std::mutex output;
    sluice::bench::Stopwatch clock;
    auto seconds = [&] { return clock.Seconds(); };
    std::atomic<bool> running{true};
    double peak_rss = 0, reserved_at_peak = 0, free_at_peak = 0, reserved_peak = 0;
    std::thread sampler([&] {
        while (running.load()) {
            double rss = sluice::bench::ResidentMB();
            double reserved = static_cast<double>(database.memory().used()) / 1e6;
            reserved_peak = std::max(reserved_peak, reserved);
            if (rss > peak_rss) {
                peak_rss = rss;
                reserved_at_peak = reserved;
                free_at_peak = static_cast<double>(mallinfo2().fordblks) / 1e6;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    });
    std::vector<std::thread> threads;
    for (int i = 3; i < argc; i++) {
        int number = std::atoi(argv[i]);
        threads.emplace_back([&, number] {
            sluice::Connection connection(database);
            std::string outcome = "OK";
            std::string message;
            try {
                connection.Query(sluice::tpch::QueryText(number));
            } catch (const std::exception& error) {
                outcome = "ERROR";
                message = error.what();
                for (char& c : message) {
                    c = c == '\n' ? ' ' : c;
                }
            }
            std::lock_guard<std::mutex> guard(output);
            std::printf("q%d %s %.3f %s\n", number, outcome.c_str(), seconds(), message.c_str());
            std::fflush(stdout);
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    std::printf("total %.3f\n", seconds());
    running.store(false);
    sampler.join();
    std::printf("memory peak_rss_mb %.0f reserved_at_peak_mb %.0f allocator_free_at_peak_mb %.0f "
                "reserved_peak_mb %.0f\n",
                peak_rss, reserved_at_peak, free_at_peak, reserved_peak);
    return 0;
}
