#include "formats/stream_decoder.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

#include <algorithm>
#include <cstring>

#include <zlib.h>
#include <zstd.h>

namespace sluice {

namespace {

// zlib's inflate, detecting gzip or zlib headers (windowBits 15 + 32), member after member.
class GzipDecompressor : public StreamDecoder {
public:
    explicit GzipDecompressor(std::string path) : StreamDecoder(std::move(path)) {
        if (inflateInit2(&stream_, 15 + 32) != Z_OK) {
            throw Exception(ErrorKind::Internal, "zlib: inflateInit2 failed");
        }
    }
    ~GzipDecompressor() override { inflateEnd(&stream_); }

    size_t Decode(const uint8_t*& input, size_t& input_size, uint8_t* output,
                  size_t capacity) override {
        size_t written = 0;
        while (written < capacity) {
            if (member_ended_) {
                if (input_size == 0) {
                    break;
                }
                inflateReset(&stream_); // a further member follows
                member_ended_ = false;
            }
            stream_.next_in = const_cast<Bytef*>(input);
            stream_.avail_in = static_cast<uInt>(std::min<size_t>(input_size, 1u << 30));
            stream_.next_out = output + written;
            stream_.avail_out = static_cast<uInt>(std::min<size_t>(capacity - written, 1u << 30));
            uInt offered = stream_.avail_in;
            int status = inflate(&stream_, Z_NO_FLUSH);
            size_t used = offered - stream_.avail_in;
            size_t produced = static_cast<size_t>(stream_.next_out - output) - written;
            written += produced;
            input += used;
            input_size -= used;
            consumed_ += used;
            if (status == Z_STREAM_END) {
                member_ended_ = true;
            } else if (status != Z_OK && status != Z_BUF_ERROR) {
                Corrupt("gzip", stream_.msg ? stream_.msg : "inflate failed");
            } else if (used == 0 && produced == 0) {
                break; // needs more input
            }
        }
        return written;
    }
    bool AtCleanEnd() const override { return member_ended_ || consumed_ == 0; }

private:
    z_stream stream_{};
    bool member_ended_ = false;
};

class ZstdDecompressor : public StreamDecoder {
public:
    explicit ZstdDecompressor(std::string path)
        : StreamDecoder(std::move(path)), stream_(ZSTD_createDStream()) {
        if (!stream_) {
            throw Exception(ErrorKind::Internal, "zstd: ZSTD_createDStream failed");
        }
    }
    ~ZstdDecompressor() override { ZSTD_freeDStream(stream_); }

    size_t Decode(const uint8_t*& input, size_t& input_size, uint8_t* output,
                  size_t capacity) override {
        ZSTD_inBuffer in{input, input_size, 0};
        ZSTD_outBuffer out{output, capacity, 0};
        while (out.pos < out.size) {
            size_t in_before = in.pos;
            size_t out_before = out.pos;
            size_t hint = ZSTD_decompressStream(stream_, &out, &in);
            if (ZSTD_isError(hint)) {
                consumed_ += in.pos;
                Corrupt("zstd", ZSTD_getErrorName(hint));
            }
            if (in.pos == in_before && out.pos == out_before) {
                break; // needs more input
            }
            frame_ended_ = hint == 0;
        }
        input += in.pos;
        input_size -= in.pos;
        consumed_ += in.pos;
        return out.pos;
    }
    bool AtCleanEnd() const override { return frame_ended_ || consumed_ == 0; }

private:
    ZSTD_DStream* stream_;
    bool frame_ended_ = false;
};

// UTF-16 to UTF-8. Little-endian, as DuckDB reads utf-16, unless the file starts with a
// big-endian byte-order mark (FE FF); a little-endian one (FF FE) is skipped.
class Utf16Decoder : public StreamDecoder {
public:
    explicit Utf16Decoder(std::string path) : StreamDecoder(std::move(path)) {}

    size_t Decode(const uint8_t*& input, size_t& input_size, uint8_t* output,
                  size_t capacity) override {
        size_t written = 0;
        while (input_size > 0 || pending_ >= 2) {
            while (pending_ < 4 && input_size > 0) { // fill the window of up to two units
                pending_bytes_[pending_++] = *input++;
                input_size--;
                consumed_++;
            }
            if (pending_ < 2) {
                break;
            }
            uint16_t unit = Unit(0);
            if (at_start_) {
                at_start_ = false;
                if (unit == 0xFEFF || unit == 0xFFFE) {
                    big_endian_ = unit == 0xFFFE; // FE FF read as little-endian
                    Drop(2);
                    continue;
                }
            }
            uint32_t code = unit;
            size_t units = 1;
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                if (pending_ < 4) {
                    if (input_size == 0) {
                        break; // the low half comes with the next piece, or the file is cut
                    }
                    continue;
                }
                uint16_t low = Unit(2);
                if (low < 0xDC00 || low > 0xDFFF) {
                    Corrupt("UTF-16", "a high surrogate without its low half");
                }
                code = 0x10000 + ((uint32_t{unit} - 0xD800) << 10) + (low - 0xDC00);
                units = 2;
            } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
                Corrupt("UTF-16", "a low surrogate without its high half");
            }
            size_t length = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
            if (capacity - written < length) {
                break;
            }
            uint8_t* out = output + written;
            if (length == 1) {
                out[0] = static_cast<uint8_t>(code);
            } else if (length == 2) {
                out[0] = static_cast<uint8_t>(0xC0 | (code >> 6));
                out[1] = static_cast<uint8_t>(0x80 | (code & 0x3F));
            } else if (length == 3) {
                out[0] = static_cast<uint8_t>(0xE0 | (code >> 12));
                out[1] = static_cast<uint8_t>(0x80 | ((code >> 6) & 0x3F));
                out[2] = static_cast<uint8_t>(0x80 | (code & 0x3F));
            } else {
                out[0] = static_cast<uint8_t>(0xF0 | (code >> 18));
                out[1] = static_cast<uint8_t>(0x80 | ((code >> 12) & 0x3F));
                out[2] = static_cast<uint8_t>(0x80 | ((code >> 6) & 0x3F));
                out[3] = static_cast<uint8_t>(0x80 | (code & 0x3F));
            }
            written += length;
            Drop(2 * units);
        }
        return written;
    }
    bool AtCleanEnd() const override { return pending_ == 0; }

private:
    uint16_t Unit(size_t at) const {
        uint8_t first = pending_bytes_[at];
        uint8_t second = pending_bytes_[at + 1];
        return big_endian_ ? static_cast<uint16_t>((first << 8) | second)
                           : static_cast<uint16_t>((second << 8) | first);
    }
    void Drop(size_t count) {
        std::memmove(pending_bytes_, pending_bytes_ + count, pending_ - count);
        pending_ -= count;
    }

    uint8_t pending_bytes_[4];
    size_t pending_ = 0;
    bool at_start_ = true;
    bool big_endian_ = false;
};

} // namespace

void StreamDecoder::Corrupt(const char* format, const std::string& why) const {
    throw Exception(ErrorKind::InvalidInput,
                    std::string("corrupt ") + format + " data in '" + path_ + "' near byte " +
                        std::to_string(consumed_) + " of the file: " + why);
}

std::string FileCoding::StreamName() const {
    return compression != StreamCompression::None ? CompressionName(compression) : "UTF-16";
}

std::unique_ptr<StreamDecoder> StreamDecoder::Make(const FileCoding& coding, std::string path) {
    if (coding.encoding == TextEncoding::Utf16) {
        if (coding.compression != StreamCompression::None) {
            throw Exception(ErrorKind::NotImplemented,
                            "compressed UTF-16 files are not read: '" + path + "'");
        }
        return std::make_unique<Utf16Decoder>(std::move(path));
    }
    switch (coding.compression) {
    case StreamCompression::Gzip:
        return std::make_unique<GzipDecompressor>(std::move(path));
    case StreamCompression::Zstd:
        return std::make_unique<ZstdDecompressor>(std::move(path));
    case StreamCompression::None:
        break;
    }
    return nullptr;
}

TextEncoding EncodingFromOption(const std::string& option, const std::string& function) {
    std::string lower = Lower(option);
    if (lower == "utf-8" || lower == "utf8") {
        return TextEncoding::Utf8;
    }
    if (lower == "latin-1" || lower == "latin1" || lower == "iso-8859-1") {
        return TextEncoding::Latin1;
    }
    if (lower == "utf-16" || lower == "utf16" || lower == "utf-16le") {
        return TextEncoding::Utf16;
    }
    throw Exception(ErrorKind::Binder, function + ": encoding '" + option +
                                           "' is not supported (utf-8, latin-1 or utf-16)");
}

StreamCompression CompressionOfPath(const std::string& path) {
    std::string lower = Lower(path);
    if (EndsWith(lower, ".gz")) {
        return StreamCompression::Gzip;
    }
    if (EndsWith(lower, ".zst")) {
        return StreamCompression::Zstd;
    }
    return StreamCompression::None;
}

StreamCompression CompressionFromOption(const std::string& option, const std::string& path,
                                        const std::string& function) {
    std::string lower = Lower(option);
    if (lower == "auto" || lower == "auto_detect" || lower.empty()) {
        return CompressionOfPath(path);
    }
    if (lower == "none" || lower == "uncompressed") {
        return StreamCompression::None;
    }
    if (lower == "gzip") {
        return StreamCompression::Gzip;
    }
    if (lower == "zstd") {
        return StreamCompression::Zstd;
    }
    throw Exception(ErrorKind::Binder, function + ": compression '" + option +
                                           "' is not supported (auto, none, gzip or zstd)");
}

const char* CompressionName(StreamCompression compression) {
    switch (compression) {
    case StreamCompression::Gzip:
        return "gzip";
    case StreamCompression::Zstd:
        return "zstd";
    case StreamCompression::None:
        break;
    }
    return "none";
}

} // namespace sluice
