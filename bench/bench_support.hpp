#pragma once

// What the benchmark drivers share: running their setup script, a clock since the start, and
// what they sample of their own process (from /proc/self).
#include "main/sluice.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace sluice::bench {

// Runs the SQL file `path` on `connection`; false (with the error printed) when it fails.
inline bool RunSetupFile(Connection& connection, const char* path) {
    std::ifstream file(path);
    std::stringstream sql;
    sql << file.rdbuf();
    try {
        connection.Query(sql.str());
        return true;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "setup failed: %s\n", error.what());
        return false;
    }
}

// Seconds since it was made.
class Stopwatch {
public:
    double Seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Resident memory in MB.
inline double ResidentMB() {
    long pages = 0, resident = 0;
    if (FILE* statm = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(statm, "%ld %ld", &pages, &resident) != 2) {
            resident = 0;
        }
        std::fclose(statm);
    }
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE)) / 1e6;
}

// Open file descriptors, and how many of them are sockets.
struct Descriptors {
    int open = 0;
    int sockets = 0;
};

inline Descriptors OpenDescriptors() {
    Descriptors counted;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", error)) {
        counted.open++;
        std::string target = std::filesystem::read_symlink(entry.path(), error).string();
        counted.sockets += target.rfind("socket:", 0) == 0 ? 1 : 0;
    }
    return counted;
}

} // namespace sluice::bench
