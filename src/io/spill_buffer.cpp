#include "io/spill_buffer.hpp"

#include "common/exception.hpp"

#include <cerrno>
#include <cstring>
#include <stdlib.h>
#include <unistd.h>

namespace sluice {

SpillBuffer::SpillBuffer(std::string directory, size_t memory_limit)
    : directory_(std::move(directory)), memory_limit_(memory_limit) {
}

SpillBuffer::SpillBuffer(SpillBuffer&& other) noexcept
    : directory_(std::move(other.directory_)), memory_limit_(other.memory_limit_),
      memory_(std::move(other.memory_)), file_(other.file_), size_(other.size_) {
    other.file_ = nullptr;
    other.size_ = 0;
}

SpillBuffer::~SpillBuffer() {
    if (file_) {
        std::fclose(file_);
    }
}

void SpillBuffer::Append(const void* data, size_t size) {
    if (!file_ && memory_.size() + size > memory_limit_) {
        Spill();
    }
    if (file_) {
        if (std::fwrite(data, 1, size, file_) != size) {
            throw Exception(ErrorKind::IO, "could not write a temporary file in \"" + directory_ +
                                               "\": " + std::strerror(errno));
        }
    } else {
        auto bytes = static_cast<const uint8_t*>(data);
        memory_.insert(memory_.end(), bytes, bytes + size);
    }
    size_ += size;
}

void SpillBuffer::Spill() {
    std::string name =
        (directory_.empty() ? std::string(".") : directory_) + "/.sluice-spill-XXXXXX";
    int descriptor = mkstemp(name.data());
    if (descriptor < 0) {
        throw Exception(ErrorKind::IO, "could not create a temporary file in \"" + directory_ +
                                           "\": " + std::strerror(errno));
    }
    unlink(name.c_str());
    file_ = fdopen(descriptor, "w+b");
    if (!file_) {
        close(descriptor);
        throw Exception(ErrorKind::IO,
                        "could not open a temporary file: " + std::string(std::strerror(errno)));
    }
    size_t kept = memory_.size();
    if (kept > 0 && std::fwrite(memory_.data(), 1, kept, file_) != kept) {
        throw Exception(ErrorKind::IO, "could not write a temporary file in \"" + directory_ +
                                           "\": " + std::strerror(errno));
    }
    std::vector<uint8_t>().swap(memory_);
}

void SpillBuffer::Rewind() {
    if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0) {
        throw Exception(ErrorKind::IO, "could not read back a temporary file: " +
                                           std::string(std::strerror(errno)));
    }
}

size_t SpillBuffer::ReadPiece(std::vector<uint8_t>& piece, uint64_t left) {
    size_t want = static_cast<size_t>(std::min<uint64_t>(piece.size(), left));
    if (std::fread(piece.data(), 1, want, file_) != want) {
        throw Exception(ErrorKind::IO, "a temporary file was cut short");
    }
    return want;
}

} // namespace sluice
