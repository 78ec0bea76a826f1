#pragma once

#include "io/virtual_file_system.hpp"
#include "main/settings.hpp"
#include "memory/memory_manager.hpp"
#include "parallel/task_scheduler.hpp"
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
    Catalog& catalog() { return catalog_; }

    // Applies a setting and its side effects (pool sizes follow threads / async_threads).
    void ApplySetting(const std::string& name, const Value& value);
    void ResetSetting(const std::string& name);

private:
    void ResizePools();
    void ApplyRemoteOptions(); // the http_* and s3_* settings (and environment) to the clients

    Settings settings_;
    std::unique_ptr<MemoryManager> memory_;
    std::unique_ptr<TaskScheduler> scheduler_;
    std::unique_ptr<VirtualFileSystem> file_system_;
    Catalog catalog_;
};

} // namespace sluice
