// TPC-H queries submitted at once to one Sluice database, one connection each: the benchmark
// suite's experiment 5 (bench/suite). Prints one line per query ("q6 OK 3.21" or "q18 ERROR
// 2.01 <message>") and the wall time until all finished ("total 7.52").
//
//   build/bench/concurrent_queries SETUP_SQL_FILE MEMORY_LIMIT QUERY_NUMBER...
//
// SETUP_SQL_FILE creates the tables' views (read_parquet over the rig, say); MEMORY_LIMIT is a
// size such as '4GB', or 'default'.
#include "main/sluice.hpp"
#include "tpch/tpch_queries.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: concurrent_queries SETUP_SQL_FILE MEMORY_LIMIT QUERY...\n");
        return 2;
    }
    std::ifstream setup_file(argv[1]);
    std::stringstream setup;
    setup << setup_file.rdbuf();
    sluice::Database database;
    sluice::Connection setup_connection(database);
    try {
        setup_connection.Query(setup.str());
        if (std::string(argv[2]) != "default") {
            setup_connection.Query(std::string("SET memory_limit = '") + argv[2] + "'");
        }
    } catch (const std::exception& error) {
        std::fprintf(stderr, "setup failed: %s\n", error.what());
        return 1;
    }
    std::mutex output;
    auto start = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
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
    return 0;
}
