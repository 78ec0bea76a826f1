#include "formats/parquet/parquet_footer_cache.hpp"

namespace sluice::parquet {

ParquetFooterCache& ParquetFooterCache::Instance() {
    static ParquetFooterCache cache;
    return cache;
}

std::shared_ptr<const ParquetFileReader> ParquetFooterCache::Get(FileHandle& file,
                                                                 const IoContext& context) {
    return cache_.Get(file, "", [&] { return ParquetFileReader::Open(file, context); });
}

} // namespace sluice::parquet
