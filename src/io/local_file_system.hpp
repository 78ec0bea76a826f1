#pragma once

#include "io/file_system.hpp"

namespace sluice {

// Local files through pread(2). Accepts plain paths and file:// URLs.
class LocalFileSystem : public FileSystem {
public:
    std::unique_ptr<FileHandle> Open(const std::string& path) override;
    std::vector<FileInfo> Glob(const std::string& pattern) override;
};

} // namespace sluice
