#pragma once

#include "io/aws_sigv4.hpp"
#include "io/file_system.hpp"
#include "io/http_client.hpp"

#include <mutex>

namespace sluice {

// Where and as whom S3 requests go.
struct S3Config {
    AwsCredentials credentials; // empty access key: anonymous, unsigned requests
    std::string region = "us-east-1";
    std::string endpoint;            // host[:port]; empty: s3.<region>.amazonaws.com
    std::string url_style = "vhost"; // vhost (bucket.host/key) or path (host/bucket/key)
    bool use_ssl = true;
};

// What the environment says: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// AWS_REGION / AWS_DEFAULT_REGION, AWS_ENDPOINT_URL(_S3), and for AWS_PROFILE (or "default")
// ~/.aws/credentials and ~/.aws/config (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE).
S3Config S3ConfigFromEnvironment();

// Objects behind s3:// (and s3a://, r2://, gcs://: S3's protocol at the configured endpoint),
// read with signed range GETs (SigV4, UNSIGNED-PAYLOAD) through the shared HTTP client, listed
// with ListObjectsV2 (continuation tokens followed) for globs: the listing is narrowed to the
// pattern's literal prefix, then *, ?, [...] match within a path segment and ** across them.
// Errors carry S3's own code and message (NoSuchKey, NoSuchBucket, SignatureDoesNotMatch ...).
class S3FileSystem : public FileSystem {
public:
    explicit S3FileSystem(HttpClient& client) : client_(client) {}

    void SetConfig(S3Config config);
    std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext& context) override;
    std::vector<FileInfo> Glob(const std::string& pattern) override;

    static bool Handles(const std::string& path);

private:
    struct Location {
        std::string scheme, bucket, key;
    };
    static Location Parse(const std::string& path);
    S3Config config() const;
    // The URL and host of `key` in `bucket` (key empty: the bucket itself, for listings).
    std::string Url(const S3Config& config, const Location& location, std::string& host,
                    std::string& path) const;
    std::function<std::vector<std::string>(const HttpRequest&)>
    Signer(const S3Config& config, const std::string& host, const std::string& path,
           const std::string& query) const;

    HttpClient& client_;
    mutable std::mutex mutex_;
    S3Config config_;
};

} // namespace sluice
