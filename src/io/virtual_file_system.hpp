#pragma once

#include "io/file_system.hpp"
#include "io/http_client.hpp"
#include "io/local_file_system.hpp"
#include "io/s3_file_system.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace sluice {

// The file system a database reads through: picks the backend by the path's scheme (plain paths
// and file:// local, http:// and https:// over HTTP, s3:// and its kin over S3) and refuses
// unknown schemes by name.
class VirtualFileSystem : public FileSystem {
public:
    VirtualFileSystem();
    ~VirtualFileSystem() override;

    std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext& context) override;
    std::vector<FileInfo> Glob(const std::string& pattern) override;

    // Serves paths starting with `prefix` ("mem://") from `file_system`: embedders' own storage,
    // and the tests' decorators.
    void RegisterPrefix(std::string prefix, std::shared_ptr<FileSystem> file_system);

    HttpClient& http() { return *http_client_; }
    LocalFileSystem& local() { return *local_; }
    S3FileSystem& s3() { return *s3_; }

private:
    FileSystem& Backend(const std::string& path);

    std::unique_ptr<HttpClient> http_client_;
    std::unique_ptr<LocalFileSystem> local_;
    std::unique_ptr<FileSystem> http_;
    std::unique_ptr<S3FileSystem> s3_;
    std::vector<std::pair<std::string, std::shared_ptr<FileSystem>>> registered_;
};

} // namespace sluice
