#include "io/io_uring_reader.hpp"

#include "common/exception.hpp"

#include <cerrno>
#include <cstring>
#include <liburing.h>

namespace sluice {

namespace {

// Submission queue entries; the completion queue holds twice as many, so keeping at most that
// many reads in flight means no completion is ever dropped.
constexpr unsigned kEntries = 256;
constexpr uint64_t kMaxInFlight = 2 * kEntries;

} // namespace

struct IoUringReader::Pending {
    int fd;
    std::string path;
    AsyncRead read;
    uint64_t done = 0; // bytes read so far
};

std::unique_ptr<IoUringReader> IoUringReader::Create(std::string& reason) {
    std::unique_ptr<IoUringReader> reader(new IoUringReader());
    int result = io_uring_queue_init(kEntries, reader->ring_.get(), 0);
    if (result < 0) {
        reason = std::string("io_uring_queue_init: ") + std::strerror(-result);
        reader->ring_.reset();
        return nullptr;
    }
    reader->reaper_ = std::thread([raw = reader.get()] { raw->Reap(); });
    return reader;
}

IoUringReader::IoUringReader() : ring_(std::make_unique<io_uring>()) {
}

IoUringReader::~IoUringReader() {
    if (!reaper_.joinable()) {
        return;
    }
    {
        std::unique_lock<std::mutex> lock(mutex_);
        room_.wait(lock, [&] { return in_flight_ == 0; });
        stopping_ = true;
        // A no-op whose completion (user data null) wakes the reaper to see stopping_.
        io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());
        while (!sqe) {
            io_uring_submit(ring_.get());
            sqe = io_uring_get_sqe(ring_.get());
        }
        io_uring_prep_nop(sqe);
        io_uring_sqe_set_data(sqe, nullptr);
        io_uring_submit(ring_.get());
    }
    reaper_.join();
    io_uring_queue_exit(ring_.get());
}

void IoUringReader::Submit(int fd, const std::string& path, AsyncRead read) {
    if (read.length == 0) {
        read.done(nullptr);
        return;
    }
    auto* pending = new Pending{fd, path, std::move(read)};
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return in_flight_ < kMaxInFlight; });
    in_flight_++;
    Queue(pending);
}

void IoUringReader::Queue(Pending* pending) {
    io_uring_sqe* sqe = io_uring_get_sqe(ring_.get());
    while (!sqe) { // the submission queue is full: hand it to the kernel and take a slot
        io_uring_submit(ring_.get());
        sqe = io_uring_get_sqe(ring_.get());
    }
    AsyncRead& read = pending->read;
    io_uring_prep_read(
        sqe, pending->fd, static_cast<char*>(read.buffer) + pending->done,
        static_cast<unsigned>(std::min<uint64_t>(read.length - pending->done, 1u << 30)),
        read.offset + pending->done);
    io_uring_sqe_set_data(sqe, pending);
    // Straight to the kernel's workers: a read the page cache could serve would otherwise be
    // copied inline by the submitting thread, a REGULAR one that should be decoding.
    io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
    io_uring_submit(ring_.get());
}

void IoUringReader::Complete(Pending* pending, std::exception_ptr error) {
    std::unique_ptr<Pending> owned(pending);
    if (!error && owned->read.context.statistics) {
        owned->read.context.statistics->requests++;
        owned->read.context.statistics->bytes += owned->read.length;
    }
    owned->read.done(error);
}

void IoUringReader::Reap() {
    for (;;) {
        io_uring_cqe* cqe = nullptr;
        int waited = io_uring_wait_cqe(ring_.get(), &cqe);
        if (waited == -EINTR) {
            continue;
        }
        if (waited < 0) {
            // Not expected from a live ring; nothing could be reaped any more.
            std::terminate();
        }
        auto* pending = static_cast<Pending*>(io_uring_cqe_get_data(cqe));
        int result = cqe->res;
        io_uring_cqe_seen(ring_.get(), cqe);
        // The lock also orders this thread after the submitter's writes to *pending: the ring
        // that carried the pointer is invisible to ThreadSanitizer.
        std::unique_lock<std::mutex> lock(mutex_);
        if (!pending) {
            if (stopping_) {
                return;
            }
            continue;
        }
        if (result == -EINTR || result == -EAGAIN) {
            Queue(pending);
            continue;
        }
        if (result > 0) {
            pending->done += static_cast<uint64_t>(result);
            if (pending->done < pending->read.length) { // a short read: ask for the rest
                Queue(pending);
                continue;
            }
        }
        in_flight_--;
        room_.notify_all();
        lock.unlock();
        std::exception_ptr error;
        if (result <= 0) {
            error = std::make_exception_ptr(
                Exception(ErrorKind::IO,
                          "could not read \"" + pending->path + "\" at offset " +
                              std::to_string(pending->read.offset + pending->done) + ": " +
                              (result == 0 ? "unexpected end of file" : std::strerror(-result))));
        }
        Complete(pending, error);
    }
}

} // namespace sluice
