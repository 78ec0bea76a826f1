// Snappy decompression: Sluice's decoder beside Debian's libsnappy 1.1.9, on pages shaped like
// TPC-H lineitem's columns, interleaved in one run.
//
//   build/bench/snappy_decode [repetitions]
//
// Each kind of page (1 MiB, compressed by libsnappy as Parquet writers do) is decoded 200 times
// by each decoder per repetition, the decoders alternating; prints each one's median GB/s (of
// decoded bytes) with its range, and the time ratio Sluice / libsnappy.
#include "formats/parquet/snappy_decoder.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <snappy-c.h>
#include <string>
#include <vector>

namespace {

struct Page {
    const char* name;
    std::vector<uint8_t> data;
};

std::vector<Page> Pages() {
    constexpr size_t kSize = 1 << 20;
    std::mt19937_64 random(42);
    std::vector<Page> pages;
    Page price{"DECIMAL(15,2) prices, PLAIN int64", std::vector<uint8_t>(kSize)};
    for (size_t i = 0; i < kSize; i += 8) {
        uint64_t cents = 90000 + random() % 10400000;
        std::memcpy(&price.data[i], &cents, 8);
    }
    pages.push_back(std::move(price));
    Page keys{"ascending keys, PLAIN int64", std::vector<uint8_t>(kSize)};
    uint64_t key = 1;
    for (size_t i = 0; i < kSize; i += 8) {
        key += random() % 4 == 0 ? 1 + random() % 8 : 0;
        std::memcpy(&keys.data[i], &key, 8);
    }
    pages.push_back(std::move(keys));
    Page indices{"dictionary indices, 12-bit packed", std::vector<uint8_t>(kSize)};
    for (auto& byte : indices.data) {
        byte = static_cast<uint8_t>(random());
    }
    pages.push_back(std::move(indices));
    static const char* kWords[] = {"furiously ", "regular ", "deposits ", "sleep ",  "carefully ",
                                   "quickly ",   "final ",   "packages ", "ironic ", "accounts "};
    std::string text;
    while (text.size() < kSize) {
        std::string comment;
        for (int w = 0; w < 4 + int(random() % 4); w++) {
            comment += kWords[random() % 10];
        }
        uint32_t length = static_cast<uint32_t>(comment.size());
        text.append(reinterpret_cast<const char*>(&length), 4);
        text += comment;
    }
    pages.push_back({"comments, PLAIN BYTE_ARRAY", {text.begin(), text.begin() + kSize}});
    return pages;
}

double Median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    int repetitions = argc > 1 ? std::atoi(argv[1]) : 5;
    constexpr int kDecodes = 200;
    std::printf("| page | libsnappy GB/s | Sluice GB/s | Sluice / libsnappy time |\n");
    std::printf("|---|---:|---:|---:|\n");
    for (const Page& page : Pages()) {
        std::vector<char> block(snappy_max_compressed_length(page.data.size()));
        size_t block_size = block.size();
        snappy_compress(reinterpret_cast<const char*>(page.data.data()), page.data.size(),
                        block.data(), &block_size);
        std::vector<uint8_t> out(page.data.size());
        std::vector<double> library, ours, ratios;
        for (int r = 0; r < repetitions; r++) {
            auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < kDecodes; i++) {
                size_t length = out.size();
                if (snappy_uncompress(block.data(), block_size, reinterpret_cast<char*>(out.data()),
                                      &length) != SNAPPY_OK) {
                    std::fprintf(stderr, "libsnappy failed\n");
                    return 1;
                }
            }
            auto middle = std::chrono::steady_clock::now();
            for (int i = 0; i < kDecodes; i++) {
                sluice::parquet::SnappyDecode(reinterpret_cast<const uint8_t*>(block.data()),
                                              block_size, out.data(), out.size());
            }
            auto end = std::chrono::steady_clock::now();
            if (out != page.data) {
                std::fprintf(stderr, "Sluice's decoder gave other bytes\n");
                return 1;
            }
            double bytes = double(kDecodes) * double(out.size());
            double library_s = std::chrono::duration<double>(middle - start).count();
            double ours_s = std::chrono::duration<double>(end - middle).count();
            library.push_back(bytes / library_s / 1e9);
            ours.push_back(bytes / ours_s / 1e9);
            ratios.push_back(ours_s / library_s);
        }
        std::printf(
            "| %s (ratio %.2f) | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.2fx (%.2f-%.2f) |\n",
            page.name, double(page.data.size()) / double(block_size), Median(library),
            *std::min_element(library.begin(), library.end()),
            *std::max_element(library.begin(), library.end()), Median(ours),
            *std::min_element(ours.begin(), ours.end()),
            *std::max_element(ours.begin(), ours.end()), Median(ratios),
            *std::min_element(ratios.begin(), ratios.end()),
            *std::max_element(ratios.begin(), ratios.end()));
    }
    return 0;
}
