#include "formats/stream_decompressor.hpp"

#include "common/exception.hpp"
#include "common/string_util.hpp"

#include <algorithm>

#include <zlib.h>
#include <zstd.h>

namespace sluice {

namespace {

// zlib's inflate, detecting gzip or zlib headers (windowBits 15 + 32), member after member.
class GzipDecompressor : public StreamDecompressor {
public:
    explicit GzipDecompressor(std::string path) : StreamDecompressor(std::move(path)) {
        if (inflateInit2(&stream_, 15 + 32) != Z_OK) {
            throw Exception(ErrorKind::Internal, "zlib: inflateInit2 failed");
        }
    }
    ~GzipDecompressor() override { inflateEnd(&stream_); }

    size_t Decompress(const uint8_t*& input, size_t& input_size, uint8_t* output,
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
    bool AtMemberEnd() const override { return member_ended_ || consumed_ == 0; }

private:
    z_stream stream_{};
    bool member_ended_ = false;
};

class ZstdDecompressor : public StreamDecompressor {
public:
    explicit ZstdDecompressor(std::string path)
        : StreamDecompressor(std::move(path)), stream_(ZSTD_createDStream()) {
        if (!stream_) {
            throw Exception(ErrorKind::Internal, "zstd: ZSTD_createDStream failed");
        }
    }
    ~ZstdDecompressor() override { ZSTD_freeDStream(stream_); }

    size_t Decompress(const uint8_t*& input, size_t& input_size, uint8_t* output,
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
    bool AtMemberEnd() const override { return frame_ended_ || consumed_ == 0; }

private:
    ZSTD_DStream* stream_;
    bool frame_ended_ = false;
};

} // namespace

void StreamDecompressor::Corrupt(const char* format, const std::string& why) const {
    throw Exception(ErrorKind::InvalidInput, std::string("corrupt ") + format + " data in '" +
                                                 path_ + "' near compressed byte " +
                                                 std::to_string(consumed_) + ": " + why);
}

std::unique_ptr<StreamDecompressor> StreamDecompressor::Make(StreamCompression compression,
                                                             std::string path) {
    switch (compression) {
    case StreamCompression::Gzip:
        return std::make_unique<GzipDecompressor>(std::move(path));
    case StreamCompression::Zstd:
        return std::make_unique<ZstdDecompressor>(std::move(path));
    case StreamCompression::None:
        break;
    }
    throw Exception(ErrorKind::Internal, "no decompressor for an uncompressed file");
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
