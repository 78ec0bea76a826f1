// Local reads through io_uring against pread on the same bytes, the fallback when io_uring is
// off, and what EXPLAIN ANALYZE says about the route taken. Run under ThreadSanitizer too.
#include "common/exception.hpp"
#include "io/local_file_system.hpp"
#include "query_text.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <random>

namespace sluice {
namespace {

namespace fs = std::filesystem;

fs::path WriteRandomFile(const std::string& name, size_t size) {
    fs::path path = fs::temp_directory_path() / ("sluice-local-reads-" + name);
    std::string bytes(size, '\0');
    std::mt19937_64 random(42);
    for (char& byte : bytes) {
        byte = static_cast<char>(random());
    }
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// io_uring where the kernel takes it; the route says which, and why not.
bool UsesIoUring(const FileHandle& handle) {
    std::string route = handle.ReadRoute();
    EXPECT_TRUE(route == "io_uring" || route.find("io_uring unavailable: ") != std::string::npos)
        << route;
    return route == "io_uring";
}

TEST(LocalReads, IoUringAndPreadGiveIdenticalBytes) {
    constexpr size_t kSize = 8 << 20;
    fs::path path = WriteRandomFile("uring.bin", kSize);
    LocalFileSystem file_system;
    auto handle = file_system.Open(path.string(), {});
    EXPECT_EQ(handle->ReadsAsynchronously(), UsesIoUring(*handle));

    struct Read {
        uint64_t offset, length;
        std::string async, blocking;
    };
    std::mt19937_64 random(7);
    std::vector<Read> reads(400);
    for (Read& read : reads) {
        read.length = 1 + random() % (256 << 10);
        read.offset = random() % (kSize - read.length + 1);
        read.async.assign(read.length, '\0');
        read.blocking.assign(read.length, '\0');
    }
    reads.push_back({kSize - 1, 1, std::string(1, '\0'), std::string(1, '\0')}); // the last byte
    ReadStatistics statistics;
    std::mutex mutex;
    std::condition_variable changed;
    size_t done = 0, failed = 0;
    for (Read& read : reads) {
        AsyncRead request;
        request.buffer = read.async.data();
        request.length = read.length;
        request.offset = read.offset;
        request.context.statistics = &statistics;
        request.done = [&](std::exception_ptr error) {
            std::lock_guard<std::mutex> guard(mutex);
            done++;
            failed += error ? 1 : 0;
            changed.notify_all();
        };
        handle->ReadAsync(std::move(request));
    }
    {
        std::unique_lock<std::mutex> lock(mutex);
        changed.wait(lock, [&] { return done == reads.size(); });
    }
    EXPECT_EQ(failed, 0u);
    uint64_t total = 0;
    for (Read& read : reads) {
        handle->Read(read.blocking.data(), read.length, read.offset, {});
        ASSERT_EQ(read.async, read.blocking)
            << "offset " << read.offset << " length " << read.length;
        total += read.length;
    }
    EXPECT_EQ(statistics.requests.load(), reads.size());
    EXPECT_EQ(statistics.bytes.load(), total);

    // A read past the end is an error naming the file, not a short read.
    std::string past(10, '\0');
    std::exception_ptr error;
    bool finished = false;
    AsyncRead beyond;
    beyond.buffer = past.data();
    beyond.length = past.size();
    beyond.offset = kSize - 5;
    beyond.done = [&](std::exception_ptr e) {
        std::lock_guard<std::mutex> guard(mutex);
        error = e;
        finished = true;
        changed.notify_all();
    };
    handle->ReadAsync(std::move(beyond));
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return finished; });
    ASSERT_TRUE(error);
    try {
        std::rethrow_exception(error);
    } catch (const Exception& exception) {
        EXPECT_NE(std::string(exception.what()).find("past the end of \"" + path.string()),
                  std::string::npos)
            << exception.what();
    }
    fs::remove(path);
}

TEST(LocalReads, FallBackToPreadWhenIoUringIsOff) {
    fs::path path = WriteRandomFile("off.bin", 1 << 16);
    LocalFileSystem file_system;
    file_system.SetUseIoUring(false);
    auto handle = file_system.Open(path.string(), {});
    EXPECT_FALSE(handle->ReadsAsynchronously());
    EXPECT_EQ(handle->ReadRoute(), "pread on the ASYNC pool (local_io_uring is false)");
    file_system.SetUseIoUring(true);
    auto again = file_system.Open(path.string(), {});
    EXPECT_EQ(again->ReadsAsynchronously(), UsesIoUring(*again));
    fs::remove(path);
}

TEST(LocalReads, ExplainAnalyzeNamesTheRouteAndResultsAgree) {
    Database database;
    Connection connection(database);
    fs::path path = fs::temp_directory_path() / "sluice-local-reads.parquet";
    connection.Query("COPY (SELECT range AS id, range % 7 AS bucket FROM range(200000)) TO '" +
                     path.string() + "' (ROW_GROUP_SIZE 10000)");
    std::string query =
        "SELECT count(*), sum(id), sum(bucket) FROM read_parquet('" + path.string() + "')";
    auto text = [&](const std::string& sql) { return QueryText(connection, sql); };
    std::string with_uring = text(query);
    std::string plan = text("EXPLAIN ANALYZE " + query);
    EXPECT_TRUE(plan.find("reads via io_uring") != std::string::npos ||
                plan.find("io_uring unavailable: ") != std::string::npos)
        << plan;
    connection.Query("SET local_io_uring = false");
    EXPECT_EQ(text(query), with_uring);
    EXPECT_NE(text("EXPLAIN ANALYZE " + query)
                  .find("reads via pread on the ASYNC pool (local_io_uring is false)"),
              std::string::npos);
    EXPECT_EQ(with_uring, "200000|19999900000|599994|\n");
    fs::remove(path);
}

} // namespace
} // namespace sluice
