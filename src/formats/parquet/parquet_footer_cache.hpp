#pragma once

#include "formats/parquet/parquet_reader.hpp"
#include "io/file_version_cache.hpp"

#include <memory>

namespace sluice::parquet {

// Footers already read in this process (FileVersionCache): a file queried again is not asked for
// its footer again unless it changed.
class ParquetFooterCache {
public:
    static constexpr size_t kCapacity = 4096;

    static ParquetFooterCache& Instance();

    // The file's footer: cached, or read now (ParquetFileReader::Open) and kept.
    std::shared_ptr<const ParquetFileReader> Get(FileHandle& file, const IoContext& context);
    size_t size() const { return cache_.size(); }
    void Clear() { cache_.Clear(); }

private:
    FileVersionCache<ParquetFileReader> cache_{kCapacity};
};

} // namespace sluice::parquet
