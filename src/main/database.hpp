#pragma once

#include "io/external_file_cache.hpp"
#include "io/virtual_file_system.hpp"
#include "main/settings.hpp"
#include "memory/freed_memory_trimmer.hpp"
#include "memory/memory_manager.hpp"
#include "memory/temporary_directory.hpp"
#include "memory/temporary_memory_manager.hpp"
#include "parallel/task_scheduler.hpp"
#include "scan/multi_file_scan.hpp"
#include "sql/catalog.hpp"

#include <memory>

namespace sluice {

// One Sluice instance: settings, the two thread pools, file access and the catalog (tables,
// views, table functions).
// Connections share it; it must outlive them.
class Database {
public:
    Database();
    ~Database();

    Settings& settings() { return settings_; }
    TaskScheduler& scheduler() { return *scheduler_; }
    MemoryManager& memory() { return *memory_; }
    TemporaryMemoryManager& temporary_memory() { return *temporary_memory_; }
    FreedMemoryTrimmer& trimmer() { return *trimmer_; }
    TemporaryDirectory& temporary_directory() { return *temporary_directory_; }
    ExternalFileCache& external_file_cache() { return *external_file_cache_; }
    VirtualFileSystem& file_system() { return *file_system_; }
    // What scans use now: the read-ahead settings and the database's pools, memory and cache.
    ScanOptions CurrentScanOptions() const;
    ScanServices Services();
    Catalog& catalog() { return catalog_; }

    // Applies a setting and its side effects (pool sizes follow threads / async_threads).
    void ApplySetting(const std::string& name, const Value& value);
    void ResetSetting(const std::string& name);

private:
    void ResizePools();
    void ApplyRandomAccessCacheLimit(); // from memory_limit; process-wide
    void ApplySpillOptions();           // temp_directory, max_temp_directory_size
    uint64_t ExternalCacheCapacity() const;
    void ApplyRemoteOptions(); // the http_* and s3_* settings (and environment) to the clients

    Settings settings_;
    std::unique_ptr<TemporaryDirectory> temporary_directory_;
    std::unique_ptr<MemoryManager> memory_;
    std::unique_ptr<FreedMemoryTrimmer> trimmer_;
    std::unique_ptr<TemporaryMemoryManager> temporary_memory_;
    std::unique_ptr<ExternalFileCache> external_file_cache_;
    std::unique_ptr<TaskScheduler> scheduler_;
    std::unique_ptr<VirtualFileSystem> file_system_;
    Catalog catalog_;
};

} // namespace sluice
