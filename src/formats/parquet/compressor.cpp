#include "formats/parquet/compressor.hpp"

#include "common/exception.hpp"

#include <brotli/encode.h>
#include <lz4.h>
#include <snappy-c.h>
#include <stdexcept>
#include <string>
#include <zlib.h>
#include <zstd.h>

namespace sluice::parquet {

namespace {

// zstd's default level: a good ratio at several hundred MB/s.
constexpr int kZstdLevel = 3;
constexpr int kBrotliQuality = 5;

void Gzip(const uint8_t* input, size_t size, std::vector<uint8_t>& output) {
    z_stream stream{};
    // 15 + 16: a gzip (RFC 1952) wrapper, which the Parquet GZIP codec means.
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
        throw Exception(ErrorKind::Internal, "cannot initialise zlib");
    }
    output.resize(deflateBound(&stream, size));
    stream.next_in = const_cast<Bytef*>(input);
    stream.avail_in = static_cast<uInt>(size);
    stream.next_out = output.data();
    stream.avail_out = static_cast<uInt>(output.size());
    int status = deflate(&stream, Z_FINISH);
    output.resize(stream.total_out);
    deflateEnd(&stream);
    if (status != Z_STREAM_END) {
        throw Exception(ErrorKind::Internal, "GZIP compression failed");
    }
}

} // namespace

void Compress(Codec codec, const uint8_t* input, size_t size, std::vector<uint8_t>& output) {
    switch (codec) {
    case Codec::UNCOMPRESSED:
        output.assign(input, input + size);
        return;
    case Codec::SNAPPY: {
        size_t length = snappy_max_compressed_length(size);
        output.resize(length);
        if (snappy_compress(reinterpret_cast<const char*>(input), size,
                            reinterpret_cast<char*>(output.data()), &length) != SNAPPY_OK) {
            throw Exception(ErrorKind::Internal, "SNAPPY compression failed");
        }
        output.resize(length);
        return;
    }
    case Codec::GZIP:
        Gzip(input, size, output);
        return;
    case Codec::ZSTD: {
        output.resize(ZSTD_compressBound(size));
        size_t length = ZSTD_compress(output.data(), output.size(), input, size, kZstdLevel);
        if (ZSTD_isError(length)) {
            throw Exception(ErrorKind::Internal,
                            std::string("ZSTD compression failed: ") + ZSTD_getErrorName(length));
        }
        output.resize(length);
        return;
    }
    case Codec::LZ4_RAW: {
        output.resize(static_cast<size_t>(LZ4_compressBound(static_cast<int>(size))));
        int length = LZ4_compress_default(reinterpret_cast<const char*>(input),
                                          reinterpret_cast<char*>(output.data()),
                                          static_cast<int>(size), static_cast<int>(output.size()));
        if (length <= 0 && size > 0) {
            throw Exception(ErrorKind::Internal, "LZ4 compression failed");
        }
        output.resize(static_cast<size_t>(length));
        return;
    }
    case Codec::BROTLI: {
        size_t length = BrotliEncoderMaxCompressedSize(size);
        output.resize(length == 0 ? size + 1024 : length);
        length = output.size();
        if (!BrotliEncoderCompress(kBrotliQuality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, size,
                                   input, &length, output.data())) {
            throw Exception(ErrorKind::Internal, "BROTLI compression failed");
        }
        output.resize(length);
        return;
    }
    default:
        throw Exception(ErrorKind::NotImplemented,
                        std::string("writing ") + CodecName(codec) + " is not supported");
    }
}

} // namespace sluice::parquet
