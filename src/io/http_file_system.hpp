#pragma once

#include "io/file_system.hpp"
#include "io/http_client.hpp"

#include <functional>

namespace sluice {

// Files behind http:// and https:// URLs. Open asks for the last 64 KiB with a suffix range GET,
// which answers the size and ETag too (no HEAD) and serves later reads of the file's end; Read is a
// range GET whose answer is verified: a 206 with the matching Content-Range, or a 200 with the
// whole object from a server that ignores ranges (the object is then kept and later reads are
// served from it, no request repeated). A changed ETag is an error saying the file changed. HTTP
// has no listing: a glob pattern is an error; a plain URL is one file. An object reachable by HTTP:
// its URL, the name errors show (an s3:// path, say), how to sign each request, and how to turn an
// error body into words (S3's XML <Code> and <Message>).
struct RemoteObject {
    std::string url;
    std::string name;
    std::function<std::vector<std::string>(const HttpRequest&)> sign;
    std::function<std::string(const std::string& body)> explain_error;
};

// A FileHandle over a RemoteObject, with the checks described below.
std::unique_ptr<FileHandle> OpenRemoteObject(HttpClient& client, RemoteObject object,
                                             const IoContext& context);

class HttpFileSystem : public FileSystem {
public:
    explicit HttpFileSystem(HttpClient& client) : client_(client) {}

    std::unique_ptr<FileHandle> Open(const std::string& path, const IoContext& context) override;
    std::vector<FileInfo> Glob(const std::string& pattern) override;

    static bool Handles(const std::string& path);

private:
    HttpClient& client_;
};

} // namespace sluice
