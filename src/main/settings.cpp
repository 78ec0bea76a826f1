#include "main/settings.hpp"

#include "common/cast.hpp"
#include "common/exception.hpp"
#include "common/memory_size.hpp"

#include <cstdlib>
#include <fstream>
#include <thread>

namespace sluice {

namespace {

[[noreturn]] void Invalid(const std::string& name, const std::string& message) {
    throw Exception(ErrorKind::InvalidInput,
                    "Invalid value for setting \"" + name + "\": " + message);
}

Value Convert(const std::string& name, const Value& value, LogicalTypeId type) {
    Value result;
    if (value.IsNull() || !TryCastValue(value, type, result)) {
        Invalid(name, "expected a " + LogicalType(type).ToString() + ", got " +
                          (value.IsNull() ? std::string("NULL") : "'" + value.ToString() + "'"));
    }
    return result;
}

std::function<Value(const Value&)> IntegerRange(std::string name, int64_t min, int64_t max,
                                                std::string allowed) {
    return [=](const Value& value) {
        Value integer = Convert(name, value, LogicalTypeId::BIGINT);
        if (integer.GetInteger() < min || integer.GetInteger() > max) {
            Invalid(name, "must be " + allowed + ", got " + integer.ToString());
        }
        return integer;
    };
}

std::string DefaultTempDirectory() {
    const char* tmp = std::getenv("TMPDIR");
    return std::string(tmp && *tmp ? tmp : "/tmp") + "/sluice";
}

uint32_t HardwareThreads() {
    return std::max(1u, std::thread::hardware_concurrency());
}

std::string Plain(const Value& value) {
    return value.ToString();
}

std::vector<SettingDefinition> BuildDefinitions() {
    std::vector<SettingDefinition> definitions;
    definitions.push_back(
        {"threads", "BIGINT", "Threads of the REGULAR (compute) pool; default: one per core",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, HardwareThreads()); },
         IntegerRange("threads", 1, 1024, "between 1 and 1024"), Plain});
    definitions.push_back({"async_threads", "BIGINT",
                           "Threads of the ASYNC (I/O) pool; default: 4 x threads, at most 256",
                           [](const Settings& settings) {
                               int64_t threads = settings.GetInteger("threads");
                               return Value::Integer(LogicalTypeId::BIGINT,
                                                     std::min<int64_t>(4 * threads, 256));
                           },
                           IntegerRange("async_threads", 1, 256, "between 1 and 256"), Plain});
    definitions.push_back(
        {"read_ahead_depth", "BIGINT",
         "Scan jobs fetched ahead of decoding: -1 = bounded by memory, 0 = off (synchronous), "
         "N = at most N",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, -1); },
         IntegerRange("read_ahead_depth", -1, 1 << 20, "-1, 0 or between 1 and 1048576"), Plain});
    definitions.push_back(
        {"memory_limit", "VARCHAR",
         "Memory the engine may use, e.g. '4GB', '512MiB', '80%'; default 80% of RAM",
         [](const Settings&) {
             return Value::Integer(LogicalTypeId::BIGINT,
                                   static_cast<hugeint_t>(SystemMemoryBytes() / 10 * 8));
         },
         [](const Value& value) {
             auto bytes = value.IsNull() ? std::nullopt : ParseMemorySize(value.ToString());
             if (!bytes || *bytes == 0) {
                 Invalid("memory_limit", "expected a size such as '4GB', '512MiB' or '80%', got '" +
                                             value.ToString() + "'");
             }
             return Value::Integer(LogicalTypeId::BIGINT, static_cast<hugeint_t>(*bytes));
         },
         [](const Value& value) {
             return FormatMemorySize(static_cast<uint64_t>(value.GetInteger()));
         }});
    definitions.push_back(
        {"temp_directory", "VARCHAR", "Directory for temporary files of operators that spill",
         [](const Settings&) { return Value::Varchar(DefaultTempDirectory()); },
         [](const Value& value) {
             Value text = Convert("temp_directory", value, LogicalTypeId::VARCHAR);
             if (text.GetString().empty()) {
                 Invalid("temp_directory", "must not be empty");
             }
             return text;
         },
         Plain});
    definitions.push_back(
        {"max_temp_directory_size", "VARCHAR",
         "Bytes spilling operators may write to temp_directory, e.g. '10GB'; '0' disables "
         "spilling; default 90% of the free disk space",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, -1); },
         [](const Value& value) {
             std::string text = value.IsNull() ? "" : value.ToString();
             // '0' needs no unit: it turns spilling off.
             auto bytes = text == "0"                           ? std::optional<uint64_t>(0)
                          : text.find('%') == std::string::npos ? ParseMemorySize(text)
                                                                : std::nullopt;
             if (!bytes) {
                 Invalid("max_temp_directory_size",
                         "expected a size such as '10GB' or '0', got '" + text + "'");
             }
             return Value::Integer(LogicalTypeId::BIGINT, static_cast<hugeint_t>(*bytes));
         },
         [](const Value& value) {
             int64_t bytes = static_cast<int64_t>(value.GetInteger());
             return bytes < 0 ? std::string("90% of available disk space")
                              : FormatMemorySize(static_cast<uint64_t>(bytes));
         }});
    definitions.push_back(
        {"trace_file", "VARCHAR",
         "Write a Chrome / Perfetto trace of the next statement's threads to this file",
         [](const Settings&) { return Value::Varchar(""); },
         [](const Value& value) { return Convert("trace_file", value, LogicalTypeId::VARCHAR); },
         Plain});
    definitions.push_back({"http_retries", "BIGINT",
                           "Retries of a failed HTTP request that may succeed when repeated",
                           [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 3); },
                           IntegerRange("http_retries", 0, 100, "between 0 and 100"), Plain});
    definitions.push_back(
        {"http_retry_wait_ms", "BIGINT", "Wait before the first HTTP retry, in milliseconds",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 100); },
         IntegerRange("http_retry_wait_ms", 0, 600000, "between 0 and 600000"), Plain});
    definitions.push_back(
        {"http_retry_backoff", "DOUBLE", "Factor by which the wait grows with each HTTP retry",
         [](const Settings&) { return Value::Double(4); },
         [](const Value& value) {
             Value factor = Convert("http_retry_backoff", value, LogicalTypeId::DOUBLE);
             if (!(factor.GetDouble() >= 1 && factor.GetDouble() <= 100)) {
                 Invalid("http_retry_backoff",
                         "must be between 1 and 100, got " + factor.ToString());
             }
             return factor;
         },
         Plain});
    definitions.push_back(
        {"max_execution_time", "BIGINT",
         "Milliseconds a statement may run before it is cancelled with an error; 0: no limit",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 0); },
         IntegerRange("max_execution_time", 0, int64_t{1} << 53, "between 0 and 2^53"), Plain});
    definitions.push_back(
        {"http_timeout", "BIGINT", "Seconds an HTTP transfer may stall before it fails",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 30); },
         IntegerRange("http_timeout", 1, 86400, "between 1 and 86400"), Plain});
    definitions.push_back({"local_io_uring", "BOOLEAN",
                           "Read local files ahead through io_uring (else pread on the ASYNC pool)",
                           [](const Settings&) { return Value::Boolean(true); },
                           [](const Value& value) {
                               return Convert("local_io_uring", value, LogicalTypeId::BOOLEAN);
                           },
                           Plain});
    definitions.push_back(
        {"http_io_threads", "BIGINT",
         "Event threads driving every HTTP transfer (each multiplexes any number of them)",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 2); },
         IntegerRange("http_io_threads", 1, 16, "between 1 and 16"), Plain});
    definitions.push_back(
        {"http_connections_per_host", "BIGINT",
         "Most connections open to one host at once; further requests wait for one",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 512); },
         IntegerRange("http_connections_per_host", 1, 4096, "between 1 and 4096"), Plain});
    definitions.push_back(
        {"http_max_in_flight", "BIGINT",
         "Requests in flight to one host at once: 0 tunes it to the link as transfers run, N pins "
         "it (at most http_connections_per_host)",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 0); },
         IntegerRange("http_max_in_flight", 0, 4096, "between 0 (self-tuned) and 4096"), Plain});
    definitions.push_back(
        {"scan_coalesce_gap", "BIGINT",
         "Bytes between two ranges of a job read through rather than fetched apart: -1 fits it "
         "to each remote link as it is measured (64 KiB for local files), N pins it",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, -1); },
         IntegerRange("scan_coalesce_gap", -1, int64_t(1) << 30,
                      "-1 (fitted to the link) or between 0 and 1073741824"),
         Plain});
    definitions.push_back(
        {"scan_request_size", "BIGINT",
         "Bytes at most in one range request; larger ranges are split: -1 fits it to each "
         "remote link as it is measured (8 MiB for local files), N pins it",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, -1); },
         [](const Value& value) {
             Value size = Convert("scan_request_size", value, LogicalTypeId::BIGINT);
             int64_t bytes = size.GetInteger();
             if (bytes != -1 && (bytes < 64 * 1024 || bytes > (int64_t(1) << 30))) {
                 Invalid("scan_request_size",
                         "must be -1 (fitted to the link) or between 65536 and 1073741824, got " +
                             size.ToString());
             }
             return size;
         },
         Plain});
    definitions.push_back(
        {"enable_external_file_cache", "BOOLEAN",
         "Cache byte ranges of remote files, keyed by URL and ETag, across queries",
         [](const Settings&) { return Value::Boolean(true); },
         [](const Value& value) {
             return Convert("enable_external_file_cache", value, LogicalTypeId::BOOLEAN);
         },
         Plain});
    definitions.push_back({"enable_progress_bar", "BOOLEAN",
                           "Show a progress bar in the shell for statements running longer than "
                           "progress_bar_time",
                           [](const Settings&) { return Value::Boolean(true); },
                           [](const Value& value) {
                               return Convert("enable_progress_bar", value, LogicalTypeId::BOOLEAN);
                           },
                           Plain});
    definitions.push_back(
        {"progress_bar_time", "BIGINT",
         "How long a statement runs, in milliseconds, before the shell shows its progress bar",
         [](const Settings&) { return Value::Integer(LogicalTypeId::BIGINT, 2000); },
         IntegerRange("progress_bar_time", 0, 86400000, "between 0 and 86400000"), Plain});
    definitions.push_back(
        {"http_hedging", "BOOLEAN",
         "Send a GET again on another connection when it waits for its first byte far longer "
         "than recent requests to the host did; the first answer wins",
         [](const Settings&) { return Value::Boolean(true); },
         [](const Value& value) { return Convert("http_hedging", value, LogicalTypeId::BOOLEAN); },
         Plain});
    definitions.push_back(
        {"ca_cert_file", "VARCHAR",
         "PEM file of the certificate authorities HTTPS servers are verified against (empty: "
         "SSL_CERT_FILE or CURL_CA_BUNDLE, else the system store)",
         [](const Settings&) { return Value::Varchar(""); },
         [](const Value& value) {
             std::string path = Convert("ca_cert_file", value, LogicalTypeId::VARCHAR).GetString();
             if (!path.empty() && !std::ifstream(path).good()) {
                 Invalid("ca_cert_file", "cannot read '" + path + "'");
             }
             return Value::Varchar(path);
         },
         Plain});
    // S3. Empty strings mean "from the environment": AWS_* variables, then ~/.aws/credentials
    // and ~/.aws/config for AWS_PROFILE (or the default profile). Secrets never display.
    auto text = [](std::string name) {
        return [name](const Value& value) {
            return Value::Varchar(Convert(name, value, LogicalTypeId::VARCHAR).GetString());
        };
    };
    auto redacted = [](const Value& value) {
        return value.GetString().empty() ? std::string() : std::string("<redacted>");
    };
    auto empty = [](const Settings&) { return Value::Varchar(""); };
    definitions.push_back({"s3_access_key_id", "VARCHAR",
                           "S3 access key id (empty: from the environment)", empty,
                           text("s3_access_key_id"), Plain});
    definitions.push_back({"s3_secret_access_key", "VARCHAR",
                           "S3 secret access key (empty: from the environment); never shown", empty,
                           text("s3_secret_access_key"), redacted});
    definitions.push_back({"s3_session_token", "VARCHAR",
                           "S3 session token (empty: from the environment); never shown", empty,
                           text("s3_session_token"), redacted});
    definitions.push_back({"s3_region", "VARCHAR",
                           "S3 region (empty: AWS_REGION, AWS_DEFAULT_REGION, the profile, "
                           "us-east-1)",
                           empty, text("s3_region"), Plain});
    definitions.push_back({"s3_endpoint", "VARCHAR",
                           "S3 endpoint host[:port] (empty: AWS_ENDPOINT_URL or AWS's)", empty,
                           text("s3_endpoint"), Plain});
    definitions.push_back(
        {"s3_url_style", "VARCHAR",
         "S3 addressing: vhost (bucket.host/key) or path (host/bucket/key)",
         [](const Settings&) { return Value::Varchar("vhost"); },
         [](const Value& value) {
             std::string style = Convert("s3_url_style", value, LogicalTypeId::VARCHAR).GetString();
             if (style != "vhost" && style != "path") {
                 Invalid("s3_url_style", "must be 'vhost' or 'path', got '" + style + "'");
             }
             return Value::Varchar(style);
         },
         Plain});
    definitions.push_back(
        {"s3_use_ssl", "BOOLEAN", "Reach S3 over HTTPS",
         [](const Settings&) { return Value::Boolean(true); },
         [](const Value& value) { return Convert("s3_use_ssl", value, LogicalTypeId::BOOLEAN); },
         Plain});
    return definitions;
}

} // namespace

const std::vector<SettingDefinition>& Settings::Definitions() {
    static const std::vector<SettingDefinition> kDefinitions = BuildDefinitions();
    return kDefinitions;
}

const SettingDefinition& Settings::Find(const std::string& name) {
    for (const auto& definition : Definitions()) {
        if (definition.name == name) {
            return definition;
        }
    }
    throw Exception(ErrorKind::Catalog, "unrecognized configuration parameter \"" + name +
                                            "\"; SELECT * FROM sluice_settings() lists them");
}

Value Settings::GetLocked(const SettingDefinition& definition) const {
    auto entry = values_.find(definition.name);
    return entry != values_.end() ? entry->second : definition.default_value(*this);
}

Value Settings::Get(const std::string& name) const {
    const SettingDefinition& definition = Find(name);
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    return GetLocked(definition);
}

bool Settings::IsSet(const std::string& name) const {
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    return values_.count(name) > 0;
}

void Settings::Set(const std::string& name, const Value& value) {
    const SettingDefinition& definition = Find(name);
    Value normalised = definition.validate(value);
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    values_[name] = normalised;
}

void Settings::Reset(const std::string& name) {
    Find(name);
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    values_.erase(name);
}

std::string Settings::Display(const std::string& name) const {
    const SettingDefinition& definition = Find(name);
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    return definition.format(GetLocked(definition));
}

std::string Settings::DisplayDefault(const std::string& name) const {
    const SettingDefinition& definition = Find(name);
    std::lock_guard<std::recursive_mutex> guard(mutex_);
    return definition.format(definition.default_value(*this));
}

int64_t Settings::GetInteger(const std::string& name) const {
    return static_cast<int64_t>(Get(name).GetInteger());
}

double Settings::GetDouble(const std::string& name) const {
    return Get(name).GetDouble();
}

bool Settings::GetBoolean(const std::string& name) const {
    return Get(name).GetBoolean();
}

std::string Settings::GetString(const std::string& name) const {
    return Get(name).GetString();
}

} // namespace sluice
