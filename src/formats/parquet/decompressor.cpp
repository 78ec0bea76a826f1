#include "formats/parquet/decompressor.hpp"

#include "formats/parquet/corrupt_data.hpp"
#include "formats/parquet/snappy_decoder.hpp"

#include <brotli/decode.h>
#include <lz4.h>
#include <stdexcept>
#include <string>
#include <zlib.h>
#include <zstd.h>

namespace sluice::parquet {

namespace {

[[noreturn]] void Fail(Codec codec, const std::string& reason) {
    throw CorruptData(std::string(CodecName(codec)) + " decompression failed: " + reason);
}

void CheckSize(Codec codec, size_t got, size_t expected) {
    if (got != expected) {
        Fail(codec, "produced " + std::to_string(got) + " bytes, the page header says " +
                        std::to_string(expected));
    }
}

// A gzip file may hold several members one after another (RFC 1952, 2.2), and writers that
// flush a gzip stream per buffer produce such pages: each member is inflated in turn.
void Gunzip(const uint8_t* input, size_t input_size, uint8_t* output, size_t output_size) {
    z_stream stream{};
    // 15 + 32: accept both gzip and zlib headers.
    if (inflateInit2(&stream, 15 + 32) != Z_OK) {
        Fail(Codec::GZIP, "cannot initialise zlib");
    }
    stream.next_in = const_cast<Bytef*>(input);
    stream.avail_in = static_cast<uInt>(input_size);
    stream.next_out = output;
    stream.avail_out = static_cast<uInt>(output_size);
    int status = inflate(&stream, Z_FINISH);
    while (status == Z_STREAM_END && stream.avail_in > 0 && stream.avail_out > 0) {
        status = inflateReset(&stream) == Z_OK ? inflate(&stream, Z_FINISH) : Z_STREAM_ERROR;
    }
    size_t produced = output_size - stream.avail_out;
    std::string reason = stream.msg ? stream.msg : "truncated or corrupt data";
    inflateEnd(&stream);
    if (status != Z_STREAM_END) {
        Fail(Codec::GZIP, reason);
    }
    CheckSize(Codec::GZIP, produced, output_size);
}

uint32_t ReadBigEndian32(const uint8_t* data) {
    return (uint32_t(data[0]) << 24) | (uint32_t(data[1]) << 16) | (uint32_t(data[2]) << 8) |
           data[3];
}

// The legacy LZ4 codec: Hadoop's framing of [uncompressed size][compressed size][block]...,
// both sizes big-endian. Returns false when the data is not framed that way.
bool TryHadoopLz4(const uint8_t* input, size_t input_size, uint8_t* output, size_t output_size) {
    size_t in = 0, out = 0;
    while (in < input_size) {
        if (input_size - in < 8) {
            return false;
        }
        uint32_t expected = ReadBigEndian32(input + in);
        uint32_t compressed = ReadBigEndian32(input + in + 4);
        in += 8;
        if (compressed > input_size - in || expected > output_size - out) {
            return false;
        }
        int got = LZ4_decompress_safe(reinterpret_cast<const char*>(input + in),
                                      reinterpret_cast<char*>(output + out),
                                      static_cast<int>(compressed), static_cast<int>(expected));
        if (got < 0 || static_cast<uint32_t>(got) != expected) {
            return false;
        }
        in += compressed;
        out += expected;
    }
    return out == output_size;
}

void Lz4Raw(Codec codec, const uint8_t* input, size_t input_size, uint8_t* output,
            size_t output_size) {
    int got =
        LZ4_decompress_safe(reinterpret_cast<const char*>(input), reinterpret_cast<char*>(output),
                            static_cast<int>(input_size), static_cast<int>(output_size));
    if (got < 0) {
        Fail(codec, "corrupt LZ4 block");
    }
    CheckSize(codec, static_cast<size_t>(got), output_size);
}

} // namespace

void Decompress(Codec codec, const uint8_t* input, size_t input_size, uint8_t* output,
                size_t output_size) {
    switch (codec) {
    case Codec::UNCOMPRESSED:
        CheckSize(codec, input_size, output_size);
        std::copy(input, input + input_size, output);
        return;
    case Codec::SNAPPY:
        try {
            SnappyDecode(input, input_size, output, output_size);
        } catch (const CorruptData& error) {
            Fail(codec, error.what());
        }
        return;
    case Codec::GZIP:
        Gunzip(input, input_size, output, output_size);
        return;
    case Codec::ZSTD: {
        size_t got = ZSTD_decompress(output, output_size, input, input_size);
        if (ZSTD_isError(got)) {
            Fail(codec, ZSTD_getErrorName(got));
        }
        CheckSize(codec, got, output_size);
        return;
    }
    case Codec::LZ4_RAW:
        Lz4Raw(codec, input, input_size, output, output_size);
        return;
    case Codec::LZ4:
        // Writers disagree on this codec: Hadoop-framed blocks, or (parquet-cpp) a raw block.
        if (!TryHadoopLz4(input, input_size, output, output_size)) {
            Lz4Raw(codec, input, input_size, output, output_size);
        }
        return;
    case Codec::BROTLI: {
        size_t got = output_size;
        if (BrotliDecoderDecompress(input_size, input, &got, output) !=
            BROTLI_DECODER_RESULT_SUCCESS) {
            Fail(codec, "corrupt data");
        }
        CheckSize(codec, got, output_size);
        return;
    }
    case Codec::LZO:
        throw CorruptData("not supported: LZO compression");
    }
    throw CorruptData("unknown compression codec " + std::to_string(static_cast<int>(codec)));
}

} // namespace sluice::parquet
