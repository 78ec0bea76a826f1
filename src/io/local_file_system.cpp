#include "io/local_file_system.hpp"

#include "common/exception.hpp"
#include "io/glob_pattern.hpp"
#include "io/io_context.hpp"
#include "io/io_uring_reader.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace sluice {

namespace {

std::string StripScheme(const std::string& path) {
    return path.rfind("file://", 0) == 0 ? path.substr(7) : path;
}

class LocalFileHandle : public FileHandle {
public:
    LocalFileHandle(std::string path, int fd, uint64_t size, std::string version,
                    IoUringReader* ring, std::string route)
        : path_(std::move(path)), fd_(fd), size_(size), version_(std::move(version)), ring_(ring),
          route_(std::move(route)) {}
    ~LocalFileHandle() override { ::close(fd_); }

    const std::string& path() const override { return path_; }
    uint64_t Size() const override { return size_; }
    std::string Version() const override { return version_; }
    bool IsRemote() const override { return false; }
    bool ReadsAsynchronously() const override { return ring_ != nullptr; }
    std::string ReadRoute() const override { return route_; }

    void ReadAsync(AsyncRead read) override {
        if (!ring_) {
            FileHandle::ReadAsync(std::move(read));
            return;
        }
        if (read.offset > size_ || read.length > size_ - read.offset) {
            read.done(std::make_exception_ptr(PastTheEnd(read.length, read.offset)));
            return;
        }
        ring_->Submit(fd_, path_, std::move(read));
    }

    void Read(void* buffer, uint64_t length, uint64_t offset, const IoContext& context) override {
        if (ReadStatistics* statistics = context.statistics) {
            statistics->requests++;
            statistics->bytes += length;
        }
        if (offset > size_ || length > size_ - offset) {
            throw PastTheEnd(length, offset);
        }
        auto* target = static_cast<char*>(buffer);
        uint64_t done = 0;
        while (done < length) {
            ssize_t got =
                ::pread(fd_, target + done, length - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                throw Exception(ErrorKind::IO,
                                "could not read \"" + path_ + "\" at offset " +
                                    std::to_string(offset + done) + ": " +
                                    (got == 0 ? "unexpected end of file" : std::strerror(errno)));
            }
            done += static_cast<uint64_t>(got);
        }
    }

private:
    Exception PastTheEnd(uint64_t length, uint64_t offset) const {
        return Exception(ErrorKind::IO, "read of " + std::to_string(length) + " bytes at offset " +
                                            std::to_string(offset) + " is past the end of \"" +
                                            path_ + "\" (" + std::to_string(size_) + " bytes)");
    }

    std::string path_;
    int fd_;
    uint64_t size_;
    std::string version_;
    IoUringReader* ring_; // null: reads block (on the ASYNC pool)
    std::string route_;
};

} // namespace

std::unique_ptr<FileHandle> LocalFileSystem::Open(const std::string& path_or_url,
                                                  const IoContext& /*context*/) {
    std::string path = StripScheme(path_or_url);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw Exception(ErrorKind::IO,
                        "cannot open file \"" + path + "\": " + std::strerror(errno));
    }
    struct stat info {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        throw Exception(ErrorKind::IO, "\"" + path + "\" is not a regular file");
    }
    // Modification time in nanoseconds, and the inode: a file replaced or rewritten differs.
    std::string version = std::to_string(info.st_mtim.tv_sec) + "." +
                          std::to_string(info.st_mtim.tv_nsec) + "/" + std::to_string(info.st_ino);
    std::string route;
    IoUringReader* ring = Ring(route);
    return std::make_unique<LocalFileHandle>(path, fd, static_cast<uint64_t>(info.st_size),
                                             std::move(version), ring, std::move(route));
}

LocalFileSystem::LocalFileSystem() = default;
LocalFileSystem::~LocalFileSystem() = default;

void LocalFileSystem::SetUseIoUring(bool use) {
    std::lock_guard<std::mutex> guard(mutex_);
    use_io_uring_ = use;
}

IoUringReader* LocalFileSystem::Ring(std::string& route) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (!use_io_uring_) {
        route = "pread on the ASYNC pool (local_io_uring is false)";
        return nullptr;
    }
    if (!ring_ && ring_failure_.empty()) {
        ring_ = IoUringReader::Create(ring_failure_);
    }
    if (!ring_) {
        route = "pread on the ASYNC pool (io_uring unavailable: " + ring_failure_ + ")";
        return nullptr;
    }
    route = "io_uring";
    return ring_.get();
}

std::vector<FileInfo> LocalFileSystem::Glob(const std::string& pattern_or_url) {
    std::string pattern = StripScheme(pattern_or_url);
    std::vector<FileInfo> files;
    namespace fs = std::filesystem;
    if (!HasGlobCharacters(pattern)) {
        std::error_code error;
        auto size = fs::file_size(pattern, error);
        if (error) {
            throw Exception(ErrorKind::IO,
                            "No files found that match the pattern \"" + pattern + "\"");
        }
        files.push_back({pattern, size});
        return files;
    }
    // Walk from the deepest directory without wildcards.
    size_t wildcard = pattern.find_first_of("*?[");
    size_t slash = pattern.rfind('/', wildcard);
    std::string root =
        slash == std::string::npos ? "." : (slash == 0 ? "/" : pattern.substr(0, slash));
    std::string relative = slash == std::string::npos ? pattern : pattern.substr(slash + 1);
    bool recursive = relative.find("**") != std::string::npos;
    std::error_code error;
    auto consider = [&](const fs::directory_entry& entry) {
        if (!entry.is_regular_file(error)) {
            return;
        }
        std::string rel = fs::relative(entry.path(), root, error).string();
        if (GlobMatches(relative, rel)) {
            std::string full =
                slash == std::string::npos ? rel : (root == "/" ? "/" + rel : root + "/" + rel);
            files.push_back({full, entry.file_size(error)});
        }
    };
    if (fs::is_directory(root, error)) {
        if (recursive) {
            for (const auto& entry : fs::recursive_directory_iterator(
                     root, fs::directory_options::skip_permission_denied, error)) {
                consider(entry);
            }
        } else if (relative.find('/') == std::string::npos) {
            for (const auto& entry : fs::directory_iterator(root, error)) {
                consider(entry);
            }
        } else {
            for (const auto& entry : fs::recursive_directory_iterator(
                     root, fs::directory_options::skip_permission_denied, error)) {
                consider(entry);
            }
        }
    }
    return SortedMatches(std::move(files), pattern);
}

} // namespace sluice
