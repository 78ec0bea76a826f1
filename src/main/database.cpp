#include "main/database.hpp"

#include "io/virtual_file_system.hpp"
#include "main/builtin_table_functions.hpp"
#include "memory/allocator.hpp"
#include "memory/huge_page_allocator.hpp"

#include <algorithm>
#include <cstdlib>

namespace sluice {

Database::Database() {
    scheduler_ = std::make_unique<TaskScheduler>(
        static_cast<uint32_t>(settings_.GetInteger("threads")),
        static_cast<uint32_t>(settings_.GetInteger("async_threads")));
    file_system_ = std::make_unique<VirtualFileSystem>();
    ApplyRemoteOptions();
    memory_ =
        std::make_unique<MemoryManager>(static_cast<idx_t>(settings_.GetInteger("memory_limit")));
    temporary_memory_ = std::make_unique<TemporaryMemoryManager>(*memory_);
    // While RSS is past the limit, freed pages go back to the system; reservations growing are
    // the moments to check.
    trimmer_ = std::make_unique<FreedMemoryTrimmer>([memory = memory_.get()] {
        // Only while something holds memory: an idle process above a tiny limit is not trimmed
        // in a loop (it is trimmed once, when no statement has run for a while).
        return memory->used() > 0 &&
               ResidentMemory() >= kTrimAtShareOfLimit * static_cast<double>(memory->limit());
    });
    memory_->SetTrimmer([trimmer = trimmer_.get()] { trimmer->Request(); });
    // Spill files of a process that crashed are removed by the next one to start.
    TemporaryDirectory::RemoveLeftovers(settings_.GetString("temp_directory"));
    temporary_directory_ =
        std::make_unique<TemporaryDirectory>(settings_.GetString("temp_directory"));
    ApplySpillOptions();
    memory_->SetTemporaryDirectory(temporary_directory_.get());
    external_file_cache_ = std::make_unique<ExternalFileCache>(ExternalCacheCapacity());
    ApplyRandomAccessCacheLimit();
    RegisterBuiltinTableFunctions(*this);
}

uint64_t Database::ExternalCacheCapacity() const {
    // A quarter of memory_limit: the cache gives way to the memory queries need.
    return static_cast<uint64_t>(settings_.GetInteger("memory_limit")) / 4;
}

ScanOptions Database::CurrentScanOptions() const {
    ScanOptions options;
    options.read_ahead_depth = settings_.GetInteger("read_ahead_depth");
    options.cache_remote_ranges = settings_.GetBoolean("enable_external_file_cache");
    if (int64_t gap = settings_.GetInteger("scan_coalesce_gap"); gap >= 0) {
        options.coalescing.max_gap = static_cast<uint64_t>(gap);
        options.fit_gap_to_link = false;
    }
    if (int64_t size = settings_.GetInteger("scan_request_size"); size >= 0) {
        options.coalescing.max_request = static_cast<uint64_t>(size);
        options.fit_request_to_link = false;
    }
    return options;
}

ScanServices Database::Services() {
    return ScanServices{scheduler_.get(), file_system_.get(), temporary_memory_.get(),
                        external_file_cache_.get()};
}

Database::~Database() {
    memory_->SetTrimmer(nullptr); // the trimmer goes first
}

void Database::ApplySetting(const std::string& name, const Value& value) {
    settings_.Set(name, value);
    ResizePools();
    ApplyRemoteOptions();
    ApplySpillOptions();
}

void Database::ResetSetting(const std::string& name) {
    settings_.Reset(name);
    ResizePools();
    ApplyRemoteOptions();
    ApplySpillOptions();
}

void Database::ApplySpillOptions() {
    temporary_directory_->SetPath(settings_.GetString("temp_directory"));
    auto max_size = static_cast<int64_t>(settings_.GetInteger("max_temp_directory_size"));
    temporary_directory_->SetMaxSize(max_size < 0 ? std::nullopt
                                                  : std::optional<uint64_t>(max_size));
}

void Database::ApplyRemoteOptions() {
    HttpOptions options;
    options.retries = static_cast<uint32_t>(settings_.GetInteger("http_retries"));
    options.retry_wait_ms = static_cast<uint64_t>(settings_.GetInteger("http_retry_wait_ms"));
    options.retry_backoff = settings_.GetDouble("http_retry_backoff");
    options.timeout_seconds = static_cast<uint64_t>(settings_.GetInteger("http_timeout"));
    options.io_threads = static_cast<uint32_t>(settings_.GetInteger("http_io_threads"));
    options.connections_per_host =
        static_cast<uint32_t>(settings_.GetInteger("http_connections_per_host"));
    options.max_in_flight = static_cast<uint32_t>(settings_.GetInteger("http_max_in_flight"));
    options.hedging = settings_.GetBoolean("http_hedging");
    // TLS trust: the setting, else the variables curl and OpenSSL users set, else the system's.
    auto environment = [](const char* name) {
        const char* value = std::getenv(name);
        return std::string(value ? value : "");
    };
    options.ca_cert_file = settings_.GetString("ca_cert_file");
    for (const char* name : {"SSL_CERT_FILE", "CURL_CA_BUNDLE"}) {
        if (options.ca_cert_file.empty()) {
            options.ca_cert_file = environment(name);
        }
    }
    options.ca_cert_dir = environment("SSL_CERT_DIR");
    file_system_->http().SetOptions(options);
    file_system_->local().SetUseIoUring(settings_.GetBoolean("local_io_uring"));

    // S3: the environment (AWS_* variables, ~/.aws), overridden by the s3_* settings set.
    S3Config s3 = S3ConfigFromEnvironment();
    auto text = [&](const char* name) { return settings_.GetString(name); };
    if (!text("s3_access_key_id").empty()) {
        s3.credentials.access_key_id = text("s3_access_key_id");
        s3.credentials.secret_access_key = text("s3_secret_access_key");
        s3.credentials.session_token = text("s3_session_token");
    }
    if (!text("s3_region").empty()) {
        s3.region = text("s3_region");
    }
    if (!text("s3_endpoint").empty()) {
        std::string endpoint = text("s3_endpoint");
        for (const char* scheme : {"https://", "http://"}) {
            if (endpoint.rfind(scheme, 0) == 0) {
                s3.use_ssl = std::string(scheme) == "https://";
                endpoint = endpoint.substr(std::string(scheme).size());
            }
        }
        s3.endpoint = endpoint;
        s3.url_style = "path";
    }
    if (settings_.IsSet("s3_url_style")) {
        s3.url_style = text("s3_url_style");
    }
    if (settings_.IsSet("s3_use_ssl")) {
        s3.use_ssl = settings_.GetBoolean("s3_use_ssl");
    }
    file_system_->s3().SetConfig(std::move(s3));
}

void Database::ApplyRandomAccessCacheLimit() {
    auto memory_limit = static_cast<idx_t>(settings_.GetInteger("memory_limit"));
    // Hash tables' freed memory kept for the next query: at most an eighth of the limit and at
    // most 1 GiB, and only while the process holds less than three quarters of the limit (the
    // trimmer releases it all when the process holds more than the limit, and when no statement
    // has run for a while). TPC-H Q1, Q6, Q9 and Q18 at once at a quarter of their working set
    // (bench/concurrent_queries): peak RSS 1.08x to 1.11x the limit in four runs when the cache
    // refilled whatever the process held, 1.04x to 1.09x in three with the ceiling. The limit is
    // the process's: the last Database made or set decides it.
    SetRandomAccessCacheLimit(std::min<idx_t>(memory_limit / 8, idx_t(1) << 30),
                              memory_limit / 4 * 3);
}

void Database::ResizePools() {
    auto memory_limit = static_cast<idx_t>(settings_.GetInteger("memory_limit"));
    memory_->SetLimit(memory_limit);
    ApplyRandomAccessCacheLimit();
    external_file_cache_->SetCapacity(ExternalCacheCapacity());
    if (!settings_.GetBoolean("enable_external_file_cache")) {
        external_file_cache_->Clear();
    }
    scheduler_->SetThreadCounts(static_cast<uint32_t>(settings_.GetInteger("threads")),
                                static_cast<uint32_t>(settings_.GetInteger("async_threads")));
}

} // namespace sluice
