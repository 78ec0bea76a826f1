#include "io/virtual_file_system.hpp"

#include "common/exception.hpp"
#include "io/http_file_system.hpp"
#include "io/local_file_system.hpp"

namespace sluice {

VirtualFileSystem::VirtualFileSystem()
    : http_client_(std::make_unique<HttpClient>()), local_(std::make_unique<LocalFileSystem>()),
      http_(std::make_unique<HttpFileSystem>(*http_client_)),
      s3_(std::make_unique<S3FileSystem>(*http_client_)) {
}

VirtualFileSystem::~VirtualFileSystem() = default;

void VirtualFileSystem::RegisterPrefix(std::string prefix,
                                       std::shared_ptr<FileSystem> file_system) {
    registered_.emplace_back(std::move(prefix), std::move(file_system));
}

FileSystem& VirtualFileSystem::Backend(const std::string& path) {
    for (const auto& [prefix, file_system] : registered_) {
        if (path.rfind(prefix, 0) == 0) {
            return *file_system;
        }
    }
    if (HttpFileSystem::Handles(path)) {
        return *http_;
    }
    if (S3FileSystem::Handles(path)) {
        return *s3_;
    }
    size_t scheme_end = path.find("://");
    if (scheme_end != std::string::npos && path.rfind("file://", 0) != 0) {
        std::string scheme = path.substr(0, scheme_end);
        bool word = !scheme.empty() && scheme.find('/') == std::string::npos;
        if (word) {
            throw Exception(ErrorKind::IO, "cannot read \"" + path + "\": unknown scheme " +
                                               scheme +
                                               ":// (Sluice reads local paths, file://, http://, "
                                               "https://, s3://, s3a://, r2:// and gcs://)");
        }
    }
    return *local_;
}

std::unique_ptr<FileHandle> VirtualFileSystem::Open(const std::string& path,
                                                    const IoContext& context) {
    return Backend(path).Open(path, context);
}

std::vector<FileInfo> VirtualFileSystem::Glob(const std::string& pattern) {
    return Backend(pattern).Glob(pattern);
}

} // namespace sluice
