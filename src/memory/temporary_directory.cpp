#include "memory/temporary_directory.hpp"

#include "common/exception.hpp"
#include "common/memory_size.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/statvfs.h>
#include <unistd.h>

namespace sluice {

namespace {

constexpr const char* kFilePrefix = "sluice-spill-";

std::string SystemError() {
    return std::strerror(errno);
}

// The process id in a spill file's name, or -1 when the name is not a spill file's.
long ProcessOfFile(const std::string& name) {
    std::string prefix = kFilePrefix;
    if (name.compare(0, prefix.size(), prefix) != 0) {
        return -1;
    }
    char* end = nullptr;
    long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
    return end && *end == '-' && pid > 0 ? pid : -1;
}

} // namespace

TemporaryDirectory::TemporaryDirectory(std::string path) : path_(std::move(path)) {
}

TemporaryDirectory::~TemporaryDirectory() {
    RemoveDirectoryIfEmpty();
}

void TemporaryDirectory::SetPath(std::string path) {
    std::lock_guard<std::mutex> guard(mutex_);
    path_ = std::move(path);
    default_max_size_.reset();
}

std::string TemporaryDirectory::path() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return path_;
}

void TemporaryDirectory::SetMaxSize(std::optional<uint64_t> bytes) {
    std::lock_guard<std::mutex> guard(mutex_);
    max_size_ = bytes;
}

uint64_t TemporaryDirectory::MaxSize() const {
    std::lock_guard<std::mutex> guard(mutex_);
    if (max_size_) {
        return *max_size_;
    }
    if (!default_max_size_) {
        // The free space of the nearest existing ancestor (the directory may not exist yet).
        std::filesystem::path probe = path_;
        struct statvfs stats {};
        while (statvfs(probe.c_str(), &stats) != 0 && probe.has_parent_path() &&
               probe != probe.parent_path()) {
            probe = probe.parent_path();
        }
        uint64_t free_bytes = static_cast<uint64_t>(stats.f_bavail) * stats.f_frsize;
        default_max_size_ = (used_.load() + free_bytes) / 10 * 9;
    }
    return *default_max_size_;
}

int TemporaryDirectory::CreateFile(std::string& path) {
    std::string directory = this->path();
    std::error_code error;
    if (!std::filesystem::is_directory(directory, error)) {
        if (!std::filesystem::create_directories(directory, error) &&
            !std::filesystem::is_directory(directory)) {
            throw Exception(ErrorKind::IO, "could not create temp_directory '" + directory +
                                               "' for spilling: " + error.message() +
                                               " (SET temp_directory to a writable directory)");
        }
        std::lock_guard<std::mutex> guard(mutex_);
        created_ = directory;
    }
    path = directory + "/" + kFilePrefix + std::to_string(getpid()) + "-" +
           std::to_string(next_file_.fetch_add(1)) + ".bin";
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        throw Exception(ErrorKind::IO, "could not create a spill file in temp_directory '" +
                                           directory + "': " + SystemError());
    }
    open_files_.fetch_add(1);
    return fd;
}

void TemporaryDirectory::FileClosed(uint64_t bytes) {
    used_.fetch_sub(bytes);
    if (open_files_.fetch_sub(1) == 1) {
        RemoveDirectoryIfEmpty();
    }
}

void TemporaryDirectory::Grow(uint64_t bytes, const std::string& reason) {
    uint64_t limit = MaxSize();
    uint64_t used = used_.fetch_add(bytes) + bytes;
    if (used <= limit) {
        return;
    }
    used_.fetch_sub(bytes);
    if (limit == 0) {
        throw Exception(ErrorKind::OutOfMemory,
                        reason +
                            ", and spilling to disk is disabled (max_temp_directory_size = 0)");
    }
    throw Exception(ErrorKind::OutOfMemory,
                    reason + ", and spilling " + FormatMemorySize(bytes) +
                        " more would pass max_temp_directory_size (" + FormatMemorySize(limit) +
                        ", " + FormatMemorySize(used - bytes) + " in use in '" + path() + "')");
}

void TemporaryDirectory::RemoveDirectoryIfEmpty() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (created_.empty() || open_files_.load() > 0) {
        return;
    }
    std::error_code error;
    if (std::filesystem::is_empty(created_, error)) {
        std::filesystem::remove(created_, error);
    }
    created_.clear();
}

void TemporaryDirectory::RemoveLeftovers(const std::string& path) {
    std::error_code error;
    std::filesystem::directory_iterator entries(path, error);
    if (error) {
        return; // nothing there
    }
    bool removed = false;
    for (const auto& entry : entries) {
        long pid = ProcessOfFile(entry.path().filename().string());
        if (pid > 0 && pid != getpid() && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
            removed |= std::filesystem::remove(entry.path(), error);
        }
    }
    if (removed && std::filesystem::is_empty(path, error)) {
        std::filesystem::remove(path, error);
    }
}

} // namespace sluice
