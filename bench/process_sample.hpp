#pragma once

// What a benchmark samples of its own process, from /proc/self.
#include <cstdio>
#include <filesystem>
#include <string>

#include <unistd.h>

namespace sluice::bench {

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
