#include "main/database.hpp"

#include "io/virtual_file_system.hpp"
#include "main/builtin_table_functions.hpp"

namespace sluice {

Database::Database() {
    scheduler_ = std::make_unique<TaskScheduler>(
        static_cast<uint32_t>(settings_.GetInteger("threads")),
        static_cast<uint32_t>(settings_.GetInteger("async_threads")));
    file_system_ = std::make_unique<VirtualFileSystem>();
    ApplyHttpOptions();
    memory_ =
        std::make_unique<MemoryManager>(static_cast<idx_t>(settings_.GetInteger("memory_limit")));
    RegisterBuiltinTableFunctions(catalog_.table_functions(), settings_, *file_system_);
}

Database::~Database() = default;

void Database::ApplySetting(const std::string& name, const Value& value) {
    settings_.Set(name, value);
    ResizePools();
    ApplyHttpOptions();
}

void Database::ResetSetting(const std::string& name) {
    settings_.Reset(name);
    ResizePools();
    ApplyHttpOptions();
}

void Database::ApplyHttpOptions() {
    HttpOptions options;
    options.retries = static_cast<uint32_t>(settings_.GetInteger("http_retries"));
    options.retry_wait_ms = static_cast<uint64_t>(settings_.GetInteger("http_retry_wait_ms"));
    options.retry_backoff = settings_.GetDouble("http_retry_backoff");
    options.timeout_seconds = static_cast<uint64_t>(settings_.GetInteger("http_timeout"));
    file_system_->http().SetOptions(options);
}

void Database::ResizePools() {
    memory_->SetLimit(static_cast<idx_t>(settings_.GetInteger("memory_limit")));
    scheduler_->SetThreadCounts(static_cast<uint32_t>(settings_.GetInteger("threads")),
                                static_cast<uint32_t>(settings_.GetInteger("async_threads")));
}

} // namespace sluice
