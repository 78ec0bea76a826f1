#pragma once

#include <arpa/inet.h>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sluice {

// A TCP server on 127.0.0.1 that answers the n-th request it receives with the n-th of a script
// of raw bytes, written verbatim, and then closes the connection: fuzzers hand the real HTTP
// client (libcurl, and Sluice's handling of what it returns) arbitrary responses. A request past
// the end of the script gets the connection closed without an answer.
class ScriptedHttpServer {
public:
    ScriptedHttpServer() {
        listener_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof(address);
        if (listener_ < 0 || bind(listener_, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
            listen(listener_, 64) != 0 ||
            getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
            abort();
        }
        port_ = ntohs(address.sin_port);
        thread_ = std::thread([this] { Serve(); });
    }

    ~ScriptedHttpServer() {
        stopping_ = true;
        shutdown(listener_, SHUT_RDWR); // wakes accept()
        thread_.join();
        close(listener_);
    }

    int port() const { return port_; }

    // The answers for the requests to come, in order.
    void SetScript(std::vector<std::string> responses) {
        std::lock_guard<std::mutex> guard(mutex_);
        script_ = std::move(responses);
        next_ = 0;
    }

private:
    void Serve() {
        while (!stopping_) {
            int connection = accept(listener_, nullptr, nullptr);
            if (connection < 0) {
                continue;
            }
            if (ReadRequest(connection)) {
                std::string response;
                {
                    std::lock_guard<std::mutex> guard(mutex_);
                    if (next_ < script_.size()) {
                        response = script_[next_++];
                    }
                }
                for (size_t sent = 0; sent < response.size();) {
                    ssize_t wrote = send(connection, response.data() + sent, response.size() - sent,
                                         MSG_NOSIGNAL);
                    if (wrote <= 0) {
                        break;
                    }
                    sent += static_cast<size_t>(wrote);
                }
            }
            close(connection);
        }
    }

    // Reads up to the blank line that ends a request's headers (requests here have no body).
    static bool ReadRequest(int connection) {
        std::string request;
        char buffer[4096];
        while (request.find("\r\n\r\n") == std::string::npos && request.size() < (1 << 16)) {
            ssize_t got = recv(connection, buffer, sizeof(buffer), 0);
            if (got <= 0) {
                return false;
            }
            request.append(buffer, static_cast<size_t>(got));
        }
        return true;
    }

    std::atomic<bool> stopping_{false};
    int listener_ = -1;
    int port_ = 0;
    std::thread thread_;
    std::mutex mutex_;
    std::vector<std::string> script_;
    size_t next_ = 0;
};

// Splits a fuzz input into pieces at each occurrence of `separator`.
inline std::vector<std::string> SplitInput(const std::string& input, const std::string& separator) {
    std::vector<std::string> pieces;
    size_t start = 0;
    while (true) {
        size_t at = input.find(separator, start);
        pieces.push_back(
            input.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) {
            return pieces;
        }
        start = at + separator.size();
    }
}

} // namespace sluice
