#include "io/aws_sigv4.hpp"

#include "common/string_util.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

namespace sluice {

namespace {

std::string Hex(const unsigned char* data, size_t size) {
    static const char kDigits[] = "0123456789abcdef";
    std::string out(size * 2, '0');
    for (size_t i = 0; i < size; i++) {
        out[2 * i] = kDigits[data[i] >> 4];
        out[2 * i + 1] = kDigits[data[i] & 15];
    }
    return out;
}

std::string Hmac(const std::string& key, const std::string& data) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
    return std::string(reinterpret_cast<char*>(digest), length);
}

// RFC 3986 dot-segment removal and collapsed slashes (the non-S3 canonical path).
std::string NormalizePath(const std::string& path) {
    std::vector<std::string> segments;
    size_t start = 0;
    while (start <= path.size()) {
        size_t slash = path.find('/', start);
        if (slash == std::string::npos) {
            slash = path.size();
        }
        std::string segment = path.substr(start, slash - start);
        if (segment == "..") {
            if (!segments.empty()) {
                segments.pop_back();
            }
        } else if (!segment.empty() && segment != ".") {
            segments.push_back(segment);
        }
        start = slash + 1;
    }
    std::string out = "/";
    for (size_t i = 0; i < segments.size(); i++) {
        out += segments[i];
        if (i + 1 < segments.size()) {
            out += '/';
        }
    }
    bool trailing =
        path.size() > 1 && (path.back() == '/' || path.substr(path.size() - 2) == "/." ||
                            path.substr(path.size() - 3) == "/..");
    if (trailing && !segments.empty()) {
        out += '/';
    }
    return out;
}

std::string TrimAndCollapse(const std::string& value) {
    std::string out;
    bool space = false;
    for (char c : value) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = !out.empty();
            continue;
        }
        if (space) {
            out += ' ';
            space = false;
        }
        out += c;
    }
    return out;
}

std::string LowerCase(std::string text) {
    for (char& c : text) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return text;
}

} // namespace

std::string UriEncode(const std::string& text, bool keep_slash) {
    static const char kDigits[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' ||
            (keep_slash && c == '/')) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += kDigits[c >> 4];
            out += kDigits[c & 15];
        }
    }
    return out;
}

std::string Sha256Hex(const std::string& data) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
    return Hex(digest, sizeof(digest));
}

std::string AmzDateNow() {
    std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[20];
    std::strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &utc);
    return text;
}

SigV4Signature SignV4(const SigV4Request& request, const AwsCredentials& credentials,
                      const SigV4Options& options) {
    SigV4Signature result;
    // Headers: the request's, plus the ones signing adds.
    std::vector<std::pair<std::string, std::string>> headers = request.headers;
    auto has = [&](const std::string& name) {
        return std::any_of(headers.begin(), headers.end(),
                           [&](const auto& h) { return LowerCase(h.first) == name; });
    };
    auto add = [&](const std::string& name, const std::string& value) {
        headers.emplace_back(name, value);
        result.headers.emplace_back(name, value);
    };
    if (!has("x-amz-date")) {
        add("x-amz-date", options.amz_date);
    }
    if (options.sign_payload_header && !has("x-amz-content-sha256")) {
        add("x-amz-content-sha256", request.payload_hash);
    }
    if (options.sign_session_token && !credentials.session_token.empty() &&
        !has("x-amz-security-token")) {
        add("x-amz-security-token", credentials.session_token);
    }
    // Canonical headers: lower-case names, sorted; values trimmed with inner runs of spaces
    // collapsed; repeated names joined with commas.
    std::vector<std::pair<std::string, std::string>> canonical;
    for (const auto& [name, value] : headers) {
        std::string key = LowerCase(name);
        std::string text = TrimAndCollapse(value);
        auto existing = std::find_if(canonical.begin(), canonical.end(),
                                     [&](const auto& h) { return h.first == key; });
        if (existing != canonical.end()) {
            existing->second += "," + text;
        } else {
            canonical.emplace_back(key, text);
        }
    }
    std::sort(canonical.begin(), canonical.end());
    std::string canonical_headers, signed_headers;
    for (const auto& [name, value] : canonical) {
        canonical_headers += name + ":" + value + "\n";
        signed_headers += (signed_headers.empty() ? "" : ";") + name;
    }
    // Canonical query: pairs decoded, re-encoded, sorted by key then value.
    std::vector<std::pair<std::string, std::string>> parameters;
    size_t start = 0;
    while (start < request.query.size()) {
        size_t amp = request.query.find('&', start);
        if (amp == std::string::npos) {
            amp = request.query.size();
        }
        std::string pair = request.query.substr(start, amp - start);
        if (!pair.empty()) {
            size_t equals = pair.find('=');
            std::string key = PercentDecode(pair.substr(0, equals));
            std::string value =
                equals == std::string::npos ? "" : PercentDecode(pair.substr(equals + 1));
            parameters.emplace_back(UriEncode(key, false), UriEncode(value, false));
        }
        start = amp + 1;
    }
    std::sort(parameters.begin(), parameters.end());
    std::string canonical_query;
    for (const auto& [key, value] : parameters) {
        canonical_query += (canonical_query.empty() ? "" : "&") + key + "=" + value;
    }
    std::string path = PercentDecode(request.path.empty() ? "/" : request.path);
    if (options.normalize_path) {
        path = NormalizePath(path);
    }
    result.canonical_request = request.method + "\n" + UriEncode(path, true) + "\n" +
                               canonical_query + "\n" + canonical_headers + "\n" + signed_headers +
                               "\n" + request.payload_hash;
    std::string date = options.amz_date.substr(0, 8);
    std::string scope = date + "/" + options.region + "/" + options.service + "/aws4_request";
    result.string_to_sign = "AWS4-HMAC-SHA256\n" + options.amz_date + "\n" + scope + "\n" +
                            Sha256Hex(result.canonical_request);
    std::string key = Hmac("AWS4" + credentials.secret_access_key, date);
    key = Hmac(key, options.region);
    key = Hmac(key, options.service);
    key = Hmac(key, "aws4_request");
    std::string signature = Hmac(key, result.string_to_sign);
    result.signature =
        Hex(reinterpret_cast<const unsigned char*>(signature.data()), signature.size());
    result.authorization = "AWS4-HMAC-SHA256 Credential=" + credentials.access_key_id + "/" +
                           scope + ", SignedHeaders=" + signed_headers +
                           ", Signature=" + result.signature;
    result.headers.emplace_back("Authorization", result.authorization);
    return result;
}

} // namespace sluice
