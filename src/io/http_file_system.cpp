#include "io/http_file_system.hpp"

#include "common/exception.hpp"

#include <cstring>
#include <mutex>

namespace sluice {

namespace {

bool StartsWith(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

[[noreturn]] void FailStatus(const std::string& method, const RemoteObject& object,
                             const HttpResponse& response) {
    std::string detail = object.explain_error ? object.explain_error(response.body) : "";
    std::string message =
        method + " " + RedactUrl(object.name) + " failed: HTTP " +
        (detail.empty() || detail[0] == '('
             ? HttpStatusText(response.status) + (detail.empty() ? "" : " " + detail)
             : std::to_string(response.status) + " " + detail);
    if (detail.empty() && response.status == 404) {
        message += " (no such file)";
    } else if (detail.empty() && (response.status == 403 || response.status == 401)) {
        message += " (access denied)";
    }
    throw Exception(ErrorKind::IO, message);
}

// "bytes FIRST-LAST/TOTAL" (TOTAL may be *).
bool ParseContentRange(const std::string& value, uint64_t& first, uint64_t& last,
                       std::optional<uint64_t>& total) {
    unsigned long long a = 0, b = 0, t = 0;
    if (std::sscanf(value.c_str(), "bytes %llu-%llu/%llu", &a, &b, &t) == 3) {
        first = a, last = b, total = t;
        return true;
    }
    if (std::sscanf(value.c_str(), "bytes %llu-%llu/*", &a, &b) == 2) {
        first = a, last = b, total = std::nullopt;
        return true;
    }
    return false;
}

class HttpFileHandle : public FileHandle {
public:
    // Enough for the footers of most Parquet files; a larger one costs a second request.
    static constexpr uint64_t kTailBytes = 64 * 1024;

    HttpFileHandle(HttpClient& client, RemoteObject object, const IoContext& context)
        : client_(client), object_(std::move(object)), link_(client_.LinkTo(object_.url)) {
        Stat(context);
    }

    const std::string& path() const override { return object_.name; }
    uint64_t Size() const override { return size_; }
    std::string Version() const override { return etag_; }
    bool IsRemote() const override { return true; }

    void Read(void* buffer, uint64_t length, uint64_t offset, const IoContext& context) override {
        if (ServedWithoutRequest(buffer, length, offset)) {
            return;
        }
        HttpRequest request = RangeRequest(buffer, length, offset);
        request.context = context;
        Accept(client_.Execute(request), buffer, length, offset);
    }

    bool ReadsAsynchronously() const override { return true; }
    std::string ReadRoute() const override { return "curl multi on the HTTP event threads"; }
    std::shared_ptr<const InFlightController> InFlight() const override { return link_; }

    void ReadAsync(AsyncRead read) override {
        try {
            if (ServedWithoutRequest(read.buffer, read.length, read.offset)) {
                read.done(nullptr);
                return;
            }
        } catch (...) {
            read.done(std::current_exception());
            return;
        }
        HttpRequest request = RangeRequest(read.buffer, read.length, read.offset);
        request.context = read.context;
        client_.Submit(std::move(request), [this, buffer = read.buffer, length = read.length,
                                            offset = read.offset, done = std::move(read.done)](
                                               HttpResponse response, std::exception_ptr error) {
            if (!error) {
                try {
                    Accept(std::move(response), buffer, length, offset);
                } catch (...) {
                    error = std::current_exception();
                }
            }
            done(error);
        });
    }

private:
    // Empty reads and reads of an object a server sent whole need no request; a read past the
    // end is an error.
    bool ServedWithoutRequest(void* buffer, uint64_t length, uint64_t offset) {
        if (length == 0) {
            return true;
        }
        if (offset + length > size_) {
            throw Exception(ErrorKind::IO, "read of " + std::to_string(length) + " bytes at " +
                                               std::to_string(offset) + " is past the end of " +
                                               RedactUrl(object_.name) + " (" +
                                               std::to_string(size_) + " bytes)");
        }
        if (offset >= tail_offset_ && !tail_.empty()) {
            std::memcpy(buffer, tail_.data() + (offset - tail_offset_), length);
            return true;
        }
        std::lock_guard<std::mutex> guard(mutex_);
        if (whole_) {
            std::memcpy(buffer, whole_->data() + offset, length);
            return true;
        }
        return false;
    }

    HttpRequest RangeRequest(void* buffer, uint64_t length, uint64_t offset) const {
        HttpRequest request = Request();
        request.range = std::make_pair(offset, offset + length - 1);
        request.destination = static_cast<char*>(buffer);
        return request;
    }

    // Verifies a range GET's answer: a 206 with exactly the bytes asked for (already in
    // `buffer`), or a 200 with the whole object, which is kept for later reads.
    void Accept(HttpResponse response, void* buffer, uint64_t length, uint64_t offset) {
        CheckEtag(response);
        if (response.status == 206) {
            uint64_t first = 0, last = 0;
            std::optional<uint64_t> total;
            const std::string* range = response.Header("content-range");
            if (!range || !ParseContentRange(*range, first, last, total) || first != offset ||
                last != offset + length - 1 || (total && *total != size_)) {
                throw Exception(ErrorKind::IO,
                                "GET " + RedactUrl(object_.name) + " answered bytes " +
                                    (range ? *range : std::string("(no Content-Range)")) +
                                    " to a request for bytes " + std::to_string(offset) + "-" +
                                    std::to_string(offset + length - 1));
            }
            if (response.received != length) {
                throw Exception(ErrorKind::IO,
                                "GET " + RedactUrl(object_.name) +
                                    " was cut short: " + std::to_string(response.received) +
                                    " of " + std::to_string(length) + " bytes");
            }
            return;
        }
        if (response.status == 200) {
            // The server ignored the range and sent everything: keep it and serve from it.
            if (response.body.size() != size_) {
                throw Exception(ErrorKind::IO, "GET " + RedactUrl(object_.name) + " sent " +
                                                   std::to_string(response.body.size()) +
                                                   " bytes of a " + std::to_string(size_) +
                                                   "-byte file");
            }
            auto whole = std::make_shared<std::string>(std::move(response.body));
            std::memcpy(buffer, whole->data() + offset, length);
            std::lock_guard<std::mutex> guard(mutex_);
            whole_ = std::move(whole);
            return;
        }
        FailStatus("GET", object_, response);
    }

    // One GET for the last kTailBytes answers the size (Content-Range's total), the version
    // (ETag) and the bytes a Parquet footer or a file's end is read from: no HEAD, one round
    // trip before data flows.
    void Stat(const IoContext& context) {
        HttpRequest probe = Request();
        probe.suffix = kTailBytes;
        probe.context = context;
        HttpResponse response = client_.Execute(probe);
        uint64_t first = 0, last = 0;
        std::optional<uint64_t> total;
        const std::string* range = response.Header("content-range");
        if (response.status == 206 && range && ParseContentRange(*range, first, last, total) &&
            total && last + 1 == *total && first <= last) {
            if (response.body.size() != last - first + 1) {
                throw Exception(ErrorKind::IO,
                                "GET " + RedactUrl(object_.name) +
                                    " was cut short: " + std::to_string(response.body.size()) +
                                    " of " + std::to_string(last - first + 1) + " bytes");
            }
            size_ = *total;
            tail_offset_ = first;
            tail_ = std::move(response.body);
        } else if (response.status == 200) {
            // The server ignored the range and sent everything: keep it and serve from it.
            size_ = response.body.size();
            whole_ = std::make_shared<std::string>(std::move(response.body));
        } else if (response.status == 416) {
            size_ = 0; // an empty object has no last bytes
        } else if (response.status == 206) {
            throw Exception(ErrorKind::IO,
                            "GET " + RedactUrl(object_.name) + " answered bytes " +
                                (range ? *range : std::string("(no Content-Range)")) +
                                " to a request for its last " + std::to_string(kTailBytes));
        } else {
            FailStatus("GET", object_, response);
        }
        Remember(response);
    }

    HttpRequest Request() const {
        HttpRequest request;
        request.url = object_.url;
        request.sign = object_.sign;
        return request;
    }

    void Remember(const HttpResponse& response) {
        if (const std::string* etag = response.Header("etag")) {
            etag_ = *etag;
        }
    }

    void CheckEtag(const HttpResponse& response) {
        const std::string* etag = response.Header("etag");
        if (etag && !etag_.empty() && *etag != etag_) {
            throw Exception(ErrorKind::IO, RedactUrl(object_.name) +
                                               " changed while it was being read (ETag " + etag_ +
                                               " became " + *etag + ")");
        }
    }

    HttpClient& client_;
    RemoteObject object_;
    // Its host's, found once: the scan asks for it with every job.
    std::shared_ptr<const InFlightController> link_;
    uint64_t size_ = 0;
    std::string etag_;
    // The object's last bytes, from the request that opened it.
    uint64_t tail_offset_ = 0;
    std::string tail_;
    std::mutex mutex_;
    std::shared_ptr<const std::string> whole_;
};

} // namespace

bool HttpFileSystem::Handles(const std::string& path) {
    return StartsWith(path, "http://") || StartsWith(path, "https://");
}

std::unique_ptr<FileHandle> OpenRemoteObject(HttpClient& client, RemoteObject object,
                                             const IoContext& context) {
    return std::make_unique<HttpFileHandle>(client, std::move(object), context);
}

std::unique_ptr<FileHandle> HttpFileSystem::Open(const std::string& path,
                                                 const IoContext& context) {
    return OpenRemoteObject(client_, {path, path, nullptr, nullptr}, context);
}

std::vector<FileInfo> HttpFileSystem::Glob(const std::string& pattern) {
    if (HasGlobCharacters(pattern.substr(0, pattern.find('?')))) {
        throw Exception(ErrorKind::IO, "cannot expand the pattern " + RedactUrl(pattern) +
                                           ": HTTP has no listing (use s3:// for globs, or "
                                           "list the URLs)");
    }
    return {{pattern, 0}};
}

} // namespace sluice
