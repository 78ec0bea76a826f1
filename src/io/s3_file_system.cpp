#include "io/s3_file_system.hpp"

#include "common/exception.hpp"
#include "io/glob_pattern.hpp"
#include "io/http_file_system.hpp"
#include "io/s3_xml.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>

namespace sluice {

namespace {

std::string Environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

std::string Trim(const std::string& text) {
    size_t begin = text.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) {
        return "";
    }
    return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

// key = value pairs of one [section] of an INI file (the AWS shared files).
std::map<std::string, std::string> ReadIniSection(const std::string& file,
                                                  const std::string& section) {
    std::map<std::string, std::string> values;
    std::ifstream in(file);
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        line = Trim(line);
        if (line.empty() || line[0] == '#' || line[0] == ';') {
            continue;
        }
        if (line.front() == '[' && line.back() == ']') {
            inside = Trim(line.substr(1, line.size() - 2)) == section;
            continue;
        }
        size_t equals = line.find('=');
        if (inside && equals != std::string::npos) {
            values[Trim(line.substr(0, equals))] = Trim(line.substr(equals + 1));
        }
    }
    return values;
}

// Strips http(s):// from an endpoint URL, noting whether it asked for TLS.
std::string EndpointHost(std::string endpoint, bool& use_ssl) {
    if (endpoint.rfind("https://", 0) == 0) {
        use_ssl = true;
        endpoint = endpoint.substr(8);
    } else if (endpoint.rfind("http://", 0) == 0) {
        use_ssl = false;
        endpoint = endpoint.substr(7);
    }
    while (!endpoint.empty() && endpoint.back() == '/') {
        endpoint.pop_back();
    }
    return endpoint;
}

} // namespace

S3Config S3ConfigFromEnvironment() {
    S3Config config;
    std::string profile = Environment("AWS_PROFILE");
    if (profile.empty()) {
        profile = "default";
    }
    std::string home = Environment("HOME");
    std::string credentials_file = Environment("AWS_SHARED_CREDENTIALS_FILE");
    std::string config_file = Environment("AWS_CONFIG_FILE");
    if (credentials_file.empty() && !home.empty()) {
        credentials_file = home + "/.aws/credentials";
    }
    if (config_file.empty() && !home.empty()) {
        config_file = home + "/.aws/config";
    }
    auto stored = ReadIniSection(credentials_file, profile);
    auto settings =
        ReadIniSection(config_file, profile == "default" ? "default" : "profile " + profile);
    auto pick = [](std::initializer_list<std::string> candidates) {
        for (const auto& candidate : candidates) {
            if (!candidate.empty()) {
                return candidate;
            }
        }
        return std::string();
    };
    config.credentials.access_key_id =
        pick({Environment("AWS_ACCESS_KEY_ID"), stored["aws_access_key_id"]});
    config.credentials.secret_access_key =
        pick({Environment("AWS_SECRET_ACCESS_KEY"), stored["aws_secret_access_key"]});
    config.credentials.session_token =
        pick({Environment("AWS_SESSION_TOKEN"), stored["aws_session_token"]});
    std::string region =
        pick({Environment("AWS_REGION"), Environment("AWS_DEFAULT_REGION"), settings["region"]});
    if (!region.empty()) {
        config.region = region;
    }
    std::string endpoint = pick({Environment("AWS_ENDPOINT_URL_S3"),
                                 Environment("AWS_ENDPOINT_URL"), settings["endpoint_url"]});
    if (!endpoint.empty()) {
        config.endpoint = EndpointHost(endpoint, config.use_ssl);
        config.url_style = "path"; // custom endpoints rarely resolve bucket subdomains
    }
    return config;
}

bool S3FileSystem::Handles(const std::string& path) {
    for (const char* scheme : {"s3://", "s3a://", "r2://", "gcs://"}) {
        if (path.rfind(scheme, 0) == 0) {
            return true;
        }
    }
    return false;
}

void S3FileSystem::SetConfig(S3Config config) {
    std::lock_guard<std::mutex> guard(mutex_);
    config_ = std::move(config);
}

S3Config S3FileSystem::config() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return config_;
}

S3FileSystem::Location S3FileSystem::Parse(const std::string& path) {
    Location location;
    size_t scheme_end = path.find("://");
    location.scheme = path.substr(0, scheme_end);
    std::string rest = path.substr(scheme_end + 3);
    size_t slash = rest.find('/');
    location.bucket = rest.substr(0, slash);
    location.key = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (location.bucket.empty()) {
        throw Exception(ErrorKind::IO, "malformed S3 URL \"" + path + "\": no bucket (" +
                                           location.scheme + "://bucket/key)");
    }
    return location;
}

std::string S3FileSystem::Url(const S3Config& config, const Location& location, std::string& host,
                              std::string& path) const {
    std::string endpoint = config.endpoint;
    if (endpoint.empty()) {
        endpoint = location.scheme == "gcs" ? "storage.googleapis.com"
                                            : "s3." + config.region + ".amazonaws.com";
    }
    std::string encoded_key = UriEncode(location.key, true);
    if (config.url_style == "path") {
        host = endpoint;
        path = "/" + location.bucket + "/" + encoded_key;
    } else {
        host = location.bucket + "." + endpoint;
        path = "/" + encoded_key;
    }
    return (config.use_ssl ? "https://" : "http://") + host + path;
}

std::function<std::vector<std::string>(const HttpRequest&)>
S3FileSystem::Signer(const S3Config& config, const std::string& host, const std::string& path,
                     const std::string& query) const {
    if (config.credentials.access_key_id.empty()) {
        return nullptr; // anonymous
    }
    return [config, host, path, query](const HttpRequest& request) {
        SigV4Request signing;
        signing.method = request.method;
        signing.path = path;
        signing.query = query;
        signing.headers = {{"host", host}};
        signing.payload_hash = "UNSIGNED-PAYLOAD";
        SigV4Options options;
        options.region = config.region;
        options.service = "s3";
        options.amz_date = AmzDateNow();
        SigV4Signature signature = SignV4(signing, config.credentials, options);
        std::vector<std::string> headers;
        for (const auto& [name, value] : signature.headers) {
            headers.push_back(name + ": " + value);
        }
        return headers;
    };
}

std::unique_ptr<FileHandle> S3FileSystem::Open(const std::string& path, const IoContext& context) {
    S3Config config = this->config();
    Location location = Parse(path);
    if (location.key.empty()) {
        throw Exception(ErrorKind::IO, "\"" + path + "\" names a bucket, not a file");
    }
    std::string host, url_path;
    std::string url = Url(config, location, host, url_path);
    bool anonymous = config.credentials.access_key_id.empty();
    auto explain = [anonymous](const std::string& body) {
        std::string why = ExplainS3Error(body);
        if (why.empty() && anonymous) {
            why = "(the request was anonymous: no S3 credentials in s3_access_key_id, "
                  "AWS_ACCESS_KEY_ID or ~/.aws)";
        }
        return why;
    };
    return OpenRemoteObject(client_, {url, path, Signer(config, host, url_path, ""), explain},
                            context);
}

std::vector<FileInfo> S3FileSystem::Glob(const std::string& pattern) {
    Location location = Parse(pattern);
    if (!HasGlobCharacters(location.key)) {
        return {{pattern, 0}};
    }
    S3Config config = this->config();
    std::string prefix = location.key.substr(0, location.key.find_first_of("*?["));
    Location bucket = location;
    bucket.key = "";
    std::string host, path;
    std::string url = Url(config, bucket, host, path);
    if (config.url_style == "path") {
        // The bucket's own URL: no trailing slash after the bucket name.
        url.pop_back();
        path.pop_back();
    }
    std::string base = location.scheme + "://" + location.bucket + "/";
    std::vector<FileInfo> files;
    std::string token;
    for (int page = 0;; page++) {
        std::string query = "list-type=2&prefix=" + UriEncode(prefix, false);
        if (!token.empty()) {
            query = "continuation-token=" + UriEncode(token, false) + "&" + query;
        }
        HttpRequest request;
        request.url = url + "?" + query;
        request.sign = Signer(config, host, path, query);
        HttpResponse response = client_.Execute(request);
        if (response.status != 200) {
            std::string why = ExplainS3Error(response.body);
            throw Exception(ErrorKind::IO,
                            "listing " + base + " (prefix \"" + prefix + "\") failed: HTTP " +
                                std::to_string(response.status) + (why.empty() ? "" : " " + why));
        }
        S3ListingPage listed;
        try {
            listed = ParseS3ListingPage(response.body);
        } catch (const Exception& error) {
            throw Exception(ErrorKind::IO, "listing " + base + " (prefix \"" + prefix +
                                               "\"), page " + std::to_string(page + 1) + ": " +
                                               error.RawMessage());
        }
        for (S3ListedObject& object : listed.objects) {
            if (GlobMatches(location.key, object.key)) {
                files.push_back({base + object.key, object.size});
            }
        }
        if (listed.continuation_token.empty()) {
            break;
        }
        if (listed.continuation_token == token) {
            throw Exception(ErrorKind::IO, "listing " + base + " (prefix \"" + prefix +
                                               "\") repeats the continuation token of page " +
                                               std::to_string(page) + ": it would never end");
        }
        token = std::move(listed.continuation_token);
    }
    return SortedMatches(std::move(files), pattern);
}

} // namespace sluice
