#include "memory/spill_file.hpp"

#include "common/chunk_serializer.hpp"
#include "common/exception.hpp"
#include "common/memory_size.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace sluice {

SpillFile::SpillFile(TemporaryDirectory& directory, std::string reason, size_t buffer_size)
    : directory_(directory), reason_(std::move(reason)), buffer_size_(buffer_size) {
    // Checked before the file exists, so that max_temp_directory_size = 0 never creates the
    // directory.
    if (!directory_.enabled()) {
        directory_.Grow(1, reason_);
    }
    fd_ = directory_.CreateFile(path_);
}

SpillFile::~SpillFile() {
    ::close(fd_);
    ::unlink(path_.c_str());
    directory_.FileClosed(bytes_);
}

uint64_t SpillFile::Append(const DataChunk& chunk) {
    std::lock_guard<std::mutex> guard(mutex_);
    record_.assign(sizeof(uint32_t), '\0');
    SerializeChunk(chunk, record_);
    auto size = static_cast<uint32_t>(record_.size() - sizeof(uint32_t));
    std::memcpy(record_.data(), &size, sizeof(size));
    directory_.Grow(record_.size(), reason_);
    bytes_ += record_.size();
    rows_ += chunk.size();
    chunk_count_++;
    if (buffer_.size() + record_.size() > buffer_size_) {
        WriteAt(buffer_.data(), buffer_.size(), written_);
        written_ += buffer_.size();
        buffer_.clear();
    }
    if (record_.size() > buffer_size_) {
        WriteAt(record_.data(), record_.size(), written_);
        written_ += record_.size();
        return record_.size();
    }
    buffer_ += record_;
    return record_.size();
}

void SpillFile::Flush() {
    std::lock_guard<std::mutex> guard(mutex_);
    WriteAt(buffer_.data(), buffer_.size(), written_);
    written_ += buffer_.size();
    buffer_.clear();
    buffer_.shrink_to_fit();
}

void SpillFile::WriteAt(const char* data, size_t size, uint64_t offset) {
    while (size > 0) {
        ssize_t done = ::pwrite(fd_, data, size, static_cast<off_t>(offset));
        if (done < 0 && errno == EINTR) {
            continue;
        }
        if (done <= 0) {
            std::string why = done < 0 ? std::strerror(errno) : "nothing written";
            throw Exception(ErrorKind::IO, "could not write " + FormatMemorySize(size) +
                                               " to spill file '" + path_ + "' (" + reason_ +
                                               "): " + why);
        }
        data += done;
        size -= static_cast<size_t>(done);
        offset += static_cast<uint64_t>(done);
    }
}

SpillFile::Reader::Reader(const SpillFile& file, size_t buffer_size)
    : Reader(file, 0, file.written_, buffer_size) {
}

SpillFile::Reader::Reader(const SpillFile& file, uint64_t start, uint64_t end, size_t buffer_size)
    : file_(file), buffer_size_(buffer_size), offset_(start), end_(end) {
}

const uint8_t* SpillFile::Reader::Fill(size_t size) {
    uint64_t buffered_end = buffer_start_ + buffer_.size();
    if (offset_ < buffer_start_ || offset_ + size > buffered_end) {
        size_t want = std::max(size, buffer_size_);
        want = static_cast<size_t>(std::min<uint64_t>(want, end_ - offset_));
        if (want < size) {
            throw Exception(ErrorKind::Internal, "spill file '" + file_.path_ + "' ends early");
        }
        buffer_.resize(want);
        size_t done = 0;
        while (done < want) {
            ssize_t got = ::pread(file_.fd_, buffer_.data() + done, want - done,
                                  static_cast<off_t>(offset_ + done));
            if (got < 0 && errno == EINTR) {
                continue;
            }
            if (got <= 0) {
                std::string why = got < 0 ? std::strerror(errno) : "unexpected end of file";
                throw Exception(ErrorKind::IO,
                                "could not read spill file '" + file_.path_ + "': " + why);
            }
            done += static_cast<size_t>(got);
        }
        buffer_start_ = offset_;
    }
    const uint8_t* at =
        reinterpret_cast<const uint8_t*>(buffer_.data()) + (offset_ - buffer_start_);
    offset_ += size;
    return at;
}

bool SpillFile::Reader::Next(DataChunk& out) {
    if (offset_ >= end_) {
        return false;
    }
    uint32_t size;
    std::memcpy(&size, Fill(sizeof(size)), sizeof(size));
    const uint8_t* record = Fill(size);
    DeserializeChunk(record, size, out);
    return true;
}

bool SpillFile::Reader::NextCompacted(DataChunk& out) {
    static const auto kAllRows = [] {
        std::array<idx_t, kVectorSize> rows{};
        for (idx_t i = 0; i < kVectorSize; i++) {
            rows[i] = i;
        }
        return rows;
    }();
    out.Reset();
    while (true) {
        if (!pending_) {
            pending_ = std::make_unique<DataChunk>(out.Types());
            if (!Next(*pending_)) {
                pending_.reset();
                break;
            }
        }
        if (out.size() + pending_->size() > kVectorSize) {
            break;
        }
        out.AppendSelected(*pending_, kAllRows.data(), pending_->size());
        pending_.reset(); // `out` keeps its string memory alive
    }
    return out.size() > 0;
}

} // namespace sluice
