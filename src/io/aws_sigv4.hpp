#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sluice {

struct AwsCredentials {
    std::string access_key_id;
    std::string secret_access_key;
    std::string session_token; // empty without one
};

// A request as it will be sent, for signing: the path and query as they appear in the URL
// (percent-encoded or not: they are decoded and re-encoded canonically), and its headers.
struct SigV4Request {
    std::string method;
    std::string path;  // "/bucket/key with spaces"
    std::string query; // "list-type=2&prefix=a%2Fb", without '?'
    std::vector<std::pair<std::string, std::string>> headers; // Host included
    std::string payload_hash; // hex SHA-256 of the body, or "UNSIGNED-PAYLOAD"
};

struct SigV4Options {
    std::string region;
    std::string service = "s3";
    std::string amz_date; // "20150830T123600Z"
    // Non-S3 services remove dot segments and duplicate slashes from the path; S3 keys keep
    // them as they are.
    bool normalize_path = false;
    // Add and sign x-amz-content-sha256 (S3 requires it).
    bool sign_payload_header = true;
    // Add and sign X-Amz-Security-Token when the credentials have a session token.
    bool sign_session_token = true;
};

struct SigV4Signature {
    std::string canonical_request;
    std::string string_to_sign;
    std::string signature; // hex
    std::string authorization;
    // Headers to send besides the request's own: x-amz-date, x-amz-content-sha256,
    // x-amz-security-token and Authorization.
    std::vector<std::pair<std::string, std::string>> headers;
};

// AWS Signature Version 4 (header form), written from the published specification with
// OpenSSL's HMAC-SHA256 and SHA-256.
SigV4Signature SignV4(const SigV4Request& request, const AwsCredentials& credentials,
                      const SigV4Options& options);

// Percent-encodes everything but A-Z a-z 0-9 - _ . ~ (and '/' when `keep_slash`).
std::string UriEncode(const std::string& text, bool keep_slash);
std::string Sha256Hex(const std::string& data);
// "YYYYMMDDTHHMMSSZ" for now, in UTC.
std::string AmzDateNow();

} // namespace sluice
