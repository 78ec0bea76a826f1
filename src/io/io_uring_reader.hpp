#pragma once

#include "io/file_system.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

struct io_uring;

namespace sluice {

// Local reads submitted to one io_uring (liburing) and completed by one thread that reaps the
// completion queue: a read in flight holds no thread, like an HTTP transfer on the event loop.
// Short reads are resubmitted for the rest; errors name the file and the offset.
class IoUringReader {
public:
    // Null, with `reason` saying why, when the kernel or the container refuses io_uring
    // (seccomp filters and some sandboxes do).
    static std::unique_ptr<IoUringReader> Create(std::string& reason);
    // Waits for the reads in flight, then stops the completion thread.
    ~IoUringReader();
    IoUringReader(const IoUringReader&) = delete;
    IoUringReader& operator=(const IoUringReader&) = delete;

    // `read.done` runs on the completion thread. The descriptor must stay open until then.
    void Submit(int fd, const std::string& path, AsyncRead read);

private:
    struct Pending;
    IoUringReader();
    // Queues the rest of `pending`'s read; call with the mutex held.
    void Queue(Pending* pending);
    void Reap();
    static void Complete(Pending* pending, std::exception_ptr error);

    std::unique_ptr<io_uring> ring_;
    std::mutex mutex_; // submission side: the ring's SQ and the count below
    std::condition_variable room_;
    uint64_t in_flight_ = 0;
    bool stopping_ = false;
    std::thread reaper_;
};

} // namespace sluice
