#include "main/database.hpp"

#include "io/local_file_system.hpp"
#include "main/builtin_table_functions.hpp"

namespace sluice {

Database::Database() {
    scheduler_ = std::make_unique<TaskScheduler>(
        static_cast<uint32_t>(settings_.GetInteger("threads")),
        static_cast<uint32_t>(settings_.GetInteger("async_threads")));
    file_system_ = std::make_unique<LocalFileSystem>();
    memory_ =
        std::make_unique<MemoryManager>(static_cast<idx_t>(settings_.GetInteger("memory_limit")));
    RegisterBuiltinTableFunctions(catalog_.table_functions(), settings_, *file_system_);
}

Database::~Database() = default;

void Database::ApplySetting(const std::string& name, const Value& value) {
    settings_.Set(name, value);
    ResizePools();
}

void Database::ResetSetting(const std::string& name) {
    settings_.Reset(name);
    ResizePools();
}

void Database::ResizePools() {
    memory_->SetLimit(static_cast<idx_t>(settings_.GetInteger("memory_limit")));
    scheduler_->SetThreadCounts(static_cast<uint32_t>(settings_.GetInteger("threads")),
                                static_cast<uint32_t>(settings_.GetInteger("async_threads")));
}

} // namespace sluice
