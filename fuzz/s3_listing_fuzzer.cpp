// libFuzzer target: arbitrary bytes as the pages of an S3 ListObjectsV2 answer. The input after
// its first byte is split at "@@@" into XML bodies, each served by a local server as a 200
// response (or, when the first byte is odd, the first as a 403 whose body S3's error XML is read
// from) to the S3 file system expanding a glob, which follows continuation tokens from page to
// page. The outcome must be a list of matching keys or a sluice::Exception.
#include "common/exception.hpp"
#include "expected_errors.hpp"
#include "io/http_client.hpp"
#include "io/s3_file_system.hpp"
#include "scripted_http_server.hpp"

#include <cstdlib>

using namespace sluice;

namespace {

struct Remote {
    ScriptedHttpServer server;
    HttpClient client;
    S3FileSystem file_system{client};

    Remote() {
        HttpOptions options;
        options.retries = 0;
        options.timeout_seconds = 2;
        options.io_threads = 1;
        client.SetOptions(options);
        S3Config config;
        config.credentials.access_key_id = "AKIDFUZZ";
        config.credentials.secret_access_key = "fuzz-secret";
        config.endpoint = "127.0.0.1:" + std::to_string(server.port());
        config.url_style = "path";
        config.use_ssl = false;
        file_system.SetConfig(config);
    }
};

Remote& Shared() {
    static Remote* remote = new Remote(); // lives as long as the fuzzing process
    return *remote;
}

std::string Response(const std::string& status, const std::string& body) {
    return "HTTP/1.1 " + status +
           "\r\nContent-Type: application/xml\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) {
        return 0;
    }
    Remote& remote = Shared();
    std::vector<std::string> responses;
    for (const std::string& body :
         SplitInput(std::string(reinterpret_cast<const char*>(data) + 1, size - 1), "@@@")) {
        bool refused = responses.empty() && data[0] % 2 == 1;
        responses.push_back(Response(refused ? "403 Forbidden" : "200 OK", body));
    }
    remote.server.SetScript(std::move(responses));
    try {
        for (const FileInfo& file : remote.file_system.Glob("s3://bucket/data/*.parquet")) {
            if (file.path.rfind("s3://bucket/data/", 0) != 0) {
                abort(); // a listing may only yield keys under the pattern's prefix
            }
        }
    } catch (const Exception& error) {
        fuzz::ExpectUserError(error);
        // a clear error is the expected outcome for most answers
    }
    return 0;
}
