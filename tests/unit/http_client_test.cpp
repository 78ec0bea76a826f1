// The HTTP event loop against a real nginx started here (127.0.0.1, a free port): many
// asynchronous range reads on one event thread, cancellation of transfers that are waiting on
// the server, and a client closed with transfers in flight. Run under ThreadSanitizer too.
#include "common/exception.hpp"
#include "io/concurrency_window.hpp"
#include "io/http_client.hpp"
#include "io/http_file_system.hpp"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <condition_variable>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <netinet/in.h>
#include <optional>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace sluice {
namespace {

namespace fs = std::filesystem;

int FreePort() {
    int socket_fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(address);
    bind(socket_fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
    getsockname(socket_fd, reinterpret_cast<sockaddr*>(&address), &length);
    close(socket_fd);
    return ntohs(address.sin_port);
}

bool Accepts(int port) {
    int socket_fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    bool up = connect(socket_fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0;
    close(socket_fd);
    return up;
}

// nginx serving a directory: /slow/ answers each GET after 100 ms, /long/ after 30 s (but the
// suffix range that opens a file at once).
class Nginx {
public:
    Nginx() {
        work_ = fs::temp_directory_path() /
                ("sluice-http-unit-" + std::to_string(getpid()) + "-" + std::to_string(port_));
        fs::remove_all(work_);
        fs::create_directories(work_ / "data");
        std::string data = (work_ / "data").string();
        std::ofstream(work_ / "nginx.conf") << R"(
load_module /usr/lib/nginx/modules/ndk_http_module.so;
load_module /usr/lib/nginx/modules/ngx_http_lua_module.so;
daemon off;
master_process off;
worker_processes 1;
pid )" << (work_ / "nginx.pid").string() << R"(;
error_log )" << (work_ / "error.log").string()
                                            << R"( warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path )" << work_.string() << R"(/body;
  proxy_temp_path )" << work_.string() << R"(/proxy;
  fastcgi_temp_path )" << work_.string() << R"(/fastcgi;
  uwsgi_temp_path )" << work_.string() << R"(/uwsgi;
  scgi_temp_path )" << work_.string() << R"(/scgi;
  keepalive_requests 100000;
  server {
    listen 127.0.0.1:)" << port_ << R"(;
    root )" << data << R"(;
    max_ranges 1;
    location /slow/ { alias )" << data << R"(/; access_by_lua_block { ngx.sleep(0.1) } }
    location /long/ {
      alias )" << data << R"(/;
      lua_check_client_abort on;
      access_by_lua_block {
        if not string.find(ngx.var.http_range or "", "^bytes=%-") then
          ngx.on_abort(function() ngx.exit(499) end)
          ngx.sleep(30)
        end
      }
    }
  }
}
)";
        std::string conf = (work_ / "nginx.conf").string();
        std::string prefix = work_.string();
        const char* argv[] = {"nginx", "-p", prefix.c_str(), "-c", conf.c_str(), nullptr};
        if (posix_spawnp(&pid_, "nginx", nullptr, nullptr, const_cast<char**>(argv), environ) !=
            0) {
            pid_ = 0;
            return;
        }
        for (int i = 0; i < 200 && !Accepts(port_); i++) {
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
    }
    ~Nginx() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
        fs::remove_all(work_);
    }

    bool Running() const { return pid_ > 0 && Accepts(port_); }
    std::string Url(const std::string& path) const {
        return "http://127.0.0.1:" + std::to_string(port_) + "/" + path;
    }
    // A file of `size` bytes, byte i being i * 7 mod 251.
    void WriteFile(const std::string& name, size_t size) {
        std::string bytes(size, '\0');
        for (size_t i = 0; i < size; i++) {
            bytes[i] = static_cast<char>(i * 7 % 251);
        }
        std::ofstream(work_ / "data" / name, std::ios::binary) << bytes;
    }

private:
    int port_ = FreePort();
    fs::path work_;
    pid_t pid_ = 0;
};

ErrorKind KindOf(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const Exception& exception) {
        return exception.Kind();
    } catch (...) {
        return ErrorKind::Internal;
    }
}

// Counts completions and waits for all of them. Errors are kept as their kinds, read on the
// completing thread: the exception object is not shared with the waiting thread, whose
// reference counting happens in the C++ runtime, where ThreadSanitizer cannot see it.
class Completions {
public:
    void Done(std::exception_ptr error) {
        std::optional<ErrorKind> kind;
        if (error) {
            kind = KindOf(error);
        }
        std::lock_guard<std::mutex> guard(mutex_);
        if (kind) {
            errors_.push_back(*kind);
        }
        done_++;
        changed_.notify_all();
    }
    void WaitFor(size_t count) {
        std::unique_lock<std::mutex> lock(mutex_);
        changed_.wait(lock, [&] { return done_ >= count; });
    }
    std::vector<ErrorKind> errors() {
        std::lock_guard<std::mutex> guard(mutex_);
        return errors_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    size_t done_ = 0;
    std::vector<ErrorKind> errors_;
};

TEST(HttpEventLoop, HundredsOfRangeReadsOnOneEventThread) {
    Nginx nginx;
    ASSERT_TRUE(nginx.Running()) << "nginx (Debian's nginx-extras) did not start";
    nginx.WriteFile("pattern.bin", 1 << 20);
    HttpClient client;
    HttpOptions options;
    options.io_threads = 1;
    client.SetOptions(options);
    auto handle = OpenRemoteObject(
        client, {nginx.Url("slow/pattern.bin"), "pattern.bin", nullptr, nullptr}, {});
    ASSERT_TRUE(handle->ReadsAsynchronously());
    constexpr size_t kReads = 300, kLength = 1000;
    std::vector<std::string> buffers(kReads, std::string(kLength, '\0'));
    ReadStatistics statistics;
    Completions completions;
    for (size_t i = 0; i < kReads; i++) {
        AsyncRead read;
        read.buffer = buffers[i].data();
        read.length = kLength;
        read.offset = i * 3001;
        read.context.statistics = &statistics;
        read.done = [&](std::exception_ptr error) { completions.Done(error); };
        handle->ReadAsync(std::move(read));
    }
    completions.WaitFor(kReads);
    EXPECT_TRUE(completions.errors().empty());
    for (size_t i = 0; i < kReads; i++) {
        for (size_t b = 0; b < kLength; b += 97) {
            ASSERT_EQ(static_cast<unsigned char>(buffers[i][b]), (i * 3001 + b) * 7 % 251)
                << "read " << i << " byte " << b;
        }
    }
    EXPECT_EQ(statistics.requests.load(), kReads);
    EXPECT_EQ(statistics.bytes.load(), kReads * kLength);
    // The blocking read on top of the asynchronous one.
    std::string tail(100, '\0');
    handle->Read(tail.data(), tail.size(), (1 << 20) - 100, {});
    EXPECT_EQ(static_cast<unsigned char>(tail[99]), ((1 << 20) - 1) * 7 % 251);
}

TEST(HttpEventLoop, CancelAbortsTransfersWaitingOnTheServer) {
    Nginx nginx;
    ASSERT_TRUE(nginx.Running()) << "nginx (Debian's nginx-extras) did not start";
    nginx.WriteFile("pattern.bin", 1 << 20); // reads below its last 64 KiB (read at open)
    HttpClient client;
    auto handle = OpenRemoteObject(
        client, {nginx.Url("long/pattern.bin"), "pattern.bin", nullptr, nullptr}, {});
    std::atomic<bool> cancel{false};
    std::vector<std::string> buffers(40, std::string(100, '\0'));
    Completions completions;
    for (size_t i = 0; i < buffers.size(); i++) {
        AsyncRead read;
        read.buffer = buffers[i].data();
        read.length = 100;
        read.offset = i * 100;
        read.context.cancel = &cancel;
        read.done = [&](std::exception_ptr error) { completions.Done(error); };
        handle->ReadAsync(std::move(read));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200)); // on the server by now
    cancel = true;
    completions.WaitFor(buffers.size()); // long before the server's 30 s
    auto errors = completions.errors();
    ASSERT_EQ(errors.size(), buffers.size());
    for (const auto& error : errors) {
        EXPECT_EQ(error, ErrorKind::Interrupted);
    }
}

TEST(HttpEventLoop, AClosedClientEndsItsTransfersInFlight) {
    Nginx nginx;
    ASSERT_TRUE(nginx.Running()) << "nginx (Debian's nginx-extras) did not start";
    Completions completions;
    {
        HttpClient client;
        for (int i = 0; i < 20; i++) {
            HttpRequest request;
            request.url = nginx.Url("long/none");
            client.Submit(std::move(request),
                          [&](HttpResponse, std::exception_ptr error) { completions.Done(error); });
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    completions.WaitFor(20);
    auto errors = completions.errors();
    ASSERT_EQ(errors.size(), 20u);
    for (const auto& error : errors) {
        EXPECT_EQ(error, ErrorKind::Interrupted);
    }
}

} // namespace
} // namespace sluice

namespace sluice {
namespace {

TEST(ConcurrencyWindow, HalvesOncePerBurstAndGrowsBackAdditively) {
    using Clock = ConcurrencyWindow::Clock;
    ConcurrencyWindow window(64);
    auto now = Clock::now();
    for (int i = 0; i < 64; i++) {
        ASSERT_TRUE(window.CanStart());
        window.Started();
    }
    EXPECT_FALSE(window.CanStart());
    // A burst of refusals within the calm-down halves the window once.
    EXPECT_TRUE(window.Finished(true, now));
    for (int i = 0; i < 10; i++) {
        EXPECT_FALSE(window.Finished(true, now + std::chrono::milliseconds(i)));
    }
    EXPECT_DOUBLE_EQ(window.window(), 32);
    EXPECT_TRUE(window.Finished(true, now + ConcurrencyWindow::kCalmDown * 2));
    EXPECT_DOUBLE_EQ(window.window(), 16);
    EXPECT_EQ(window.running(), 52u);
    EXPECT_FALSE(window.CanStart());
    // Never below one request.
    for (int i = 3; i < 20; i++) {
        window.Finished(true, now + ConcurrencyWindow::kCalmDown * i);
    }
    EXPECT_DOUBLE_EQ(window.window(), 1);
    // Answers that are not throttling grow it by about one per window's worth, up to the ceiling.
    ConcurrencyWindow growing(8);
    for (int i = 0; i < 3; i++) {
        growing.Finished(true, now + ConcurrencyWindow::kCalmDown * (2 * i + 2));
    }
    EXPECT_DOUBLE_EQ(growing.window(), 1);
    for (int i = 0; i < 1000; i++) {
        growing.Finished(false, now);
    }
    EXPECT_DOUBLE_EQ(growing.window(), 8);
    growing.SetCeiling(4);
    EXPECT_DOUBLE_EQ(growing.window(), 4);
}

} // namespace
} // namespace sluice
