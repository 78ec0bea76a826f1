#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace sluice {

enum class StreamCompression : uint8_t { None, Gzip, Zstd };

// The compression a path's extension names (.gz, .zst), or None.
StreamCompression CompressionOfPath(const std::string& path);
// `compression = '...'` as DuckDB spells it: auto (by extension), none, gzip, zstd. Throws a
// Binder error naming `function` for anything else.
StreamCompression CompressionFromOption(const std::string& option, const std::string& path,
                                        const std::string& function);
const char* CompressionName(StreamCompression compression);

// Decompresses one file as a stream: input arrives in pieces (jobs' byte ranges, in order) and
// output is taken in pieces as large as the caller likes, so a file of any size needs only a
// window of memory. Gzip files of several members (concatenated .gz) and zstd files of several
// frames are read whole, as gzip and zstd themselves do.
class StreamDecompressor {
public:
    static std::unique_ptr<StreamDecompressor> Make(StreamCompression compression,
                                                    std::string path);
    virtual ~StreamDecompressor() = default;

    // Decompresses from `input` (advanced past what was consumed) into at most `capacity`
    // bytes of `output`; returns the bytes written. Corrupt data is an Invalid Input error
    // naming the file and the compressed offset.
    virtual size_t Decompress(const uint8_t*& input, size_t& input_size, uint8_t* output,
                              size_t capacity) = 0;
    // Whether the data so far ends a member or frame: at the end of the file anything else is
    // a truncated file.
    virtual bool AtMemberEnd() const = 0;

protected:
    explicit StreamDecompressor(std::string path) : path_(std::move(path)) {}
    [[noreturn]] void Corrupt(const char* format, const std::string& why) const;

    std::string path_;
    uint64_t consumed_ = 0; // compressed bytes read so far, for errors
};

} // namespace sluice
