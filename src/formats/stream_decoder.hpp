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

// How a text file's characters are stored. Latin-1 is ASCII-compatible byte for byte, so a
// reader splits it as it is and converts only its text values; UTF-16 is read as a stream.
enum class TextEncoding : uint8_t { Utf8, Latin1, Utf16 };

// utf-8, latin-1 or utf-16 (DuckDB's names; also utf8, latin1, iso-8859-1, utf-16le); a Binder
// error naming `function` for anything else.
TextEncoding EncodingFromOption(const std::string& option, const std::string& function);

// How a file's bytes hold its text: compressed or not, in which encoding.
struct FileCoding {
    StreamCompression compression = StreamCompression::None;
    TextEncoding encoding = TextEncoding::Utf8;

    // Whether the file must be read as one stream through a StreamDecoder.
    bool Streamed() const {
        return compression != StreamCompression::None || encoding == TextEncoding::Utf16;
    }
    // "gzip", "zstd" or "UTF-16", for errors.
    std::string StreamName() const;
};

// A file's bytes turned, as a stream, into the UTF-8 text a reader splits: decompressed (gzip,
// zstd) or transcoded (UTF-16). Input arrives in pieces (jobs' byte ranges, in order) and output
// is taken in pieces as large as the caller likes, so a file of any size needs only a window of
// memory. Gzip files of several members (concatenated .gz) and zstd files of several frames are
// read whole, as gzip and zstd themselves do.
class StreamDecoder {
public:
    // The decoder for a file stored so (null unless Streamed()). Compressed UTF-16 is refused
    // (Not implemented).
    static std::unique_ptr<StreamDecoder> Make(const FileCoding& coding, std::string path);
    virtual ~StreamDecoder() = default;

    // Decodes from `input` (advanced past what was consumed) into at most `capacity` bytes of
    // `output`; returns the bytes written. With no input left it writes what it still holds.
    // Corrupt data is an Invalid Input error naming the file and the offset in it.
    virtual size_t Decode(const uint8_t*& input, size_t& input_size, uint8_t* output,
                          size_t capacity) = 0;
    // Whether the data so far ends cleanly (a whole gzip member or zstd frame, no half
    // character): at the end of the file anything else is a truncated file.
    virtual bool AtCleanEnd() const = 0;

protected:
    explicit StreamDecoder(std::string path) : path_(std::move(path)) {}
    [[noreturn]] void Corrupt(const char* format, const std::string& why) const;

    std::string path_;
    uint64_t consumed_ = 0; // file bytes read so far, for errors
};

} // namespace sluice
