// Concurrent 1 MiB range reads through Sluice's HTTP file system: aggregate MiB/s at each
// concurrency, for the rig script (bench/http_ranges.sh) to print beside curl's in the same run.
//
//   build/bench/http_range_bench URL CONCURRENCY RANGES
//
// CONCURRENCY threads share one file handle (one HttpClient, pooled connections) and read
// RANGES ranges of 1 MiB at distinct offsets, round-robin over the file; prints "MiB/s".
#include "io/virtual_file_system.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: http_range_bench URL CONCURRENCY RANGES\n");
        return 2;
    }
    const std::string url = argv[1];
    const int concurrency = std::atoi(argv[2]);
    const int ranges = std::atoi(argv[3]);
    constexpr uint64_t kRange = 1 << 20;
    sluice::VirtualFileSystem file_system;
    auto handle = file_system.Open(url, {});
    const uint64_t slots = handle->Size() / kRange;
    if (slots == 0 || concurrency < 1 || ranges < 1) {
        std::fprintf(stderr, "need a file of at least 1 MiB and positive counts\n");
        return 2;
    }
    std::atomic<int> next{0};
    auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < concurrency; t++) {
        threads.emplace_back([&] {
            std::vector<char> buffer(kRange);
            for (int i = next++; i < ranges; i = next++) {
                handle->Read(buffer.data(), kRange, (static_cast<uint64_t>(i) % slots) * kRange,
                             {});
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%.1f\n", ranges / seconds);
    return 0;
}
