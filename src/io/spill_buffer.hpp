#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sluice {

// Bytes appended in order and later copied out once: kept in memory up to a limit, then moved
// to an anonymous temporary file (created in `directory`, unlinked at once, so nothing is left
// behind even on a crash). Lets a writer hold an arbitrarily large column chunk without holding
// it in memory.
class SpillBuffer {
public:
    SpillBuffer(std::string directory, size_t memory_limit);
    ~SpillBuffer();
    SpillBuffer(SpillBuffer&& other) noexcept;
    SpillBuffer& operator=(SpillBuffer&&) = delete;
    SpillBuffer(const SpillBuffer&) = delete;

    void Append(const void* data, size_t size);
    uint64_t size() const { return size_; }
    bool spilled() const { return file_ != nullptr; }
    // Calls `write(data, size)` on the bytes in order, in pieces.
    template <class Write>
    void CopyTo(Write&& write) {
        if (!file_) {
            write(memory_.data(), memory_.size());
            return;
        }
        Rewind();
        std::vector<uint8_t> piece(1 << 20);
        uint64_t left = size_;
        while (left > 0) {
            size_t take = ReadPiece(piece, left);
            write(piece.data(), take);
            left -= take;
        }
    }

private:
    void Spill();
    void Rewind();
    size_t ReadPiece(std::vector<uint8_t>& piece, uint64_t left);

    std::string directory_;
    size_t memory_limit_;
    std::vector<uint8_t> memory_;
    std::FILE* file_ = nullptr;
    uint64_t size_ = 0;
};

} // namespace sluice
