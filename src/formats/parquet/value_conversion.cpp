#include "formats/parquet/value_conversion.hpp"

#include "formats/parquet/corrupt_data.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sluice::parquet {

namespace {

float HalfToFloat(uint16_t half) {
    uint32_t sign = (half >> 15) & 1, exponent = (half >> 10) & 0x1F, mantissa = half & 0x3FF;
    float magnitude;
    if (exponent == 0) {
        magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    } else if (exponent == 31) {
        magnitude = mantissa == 0 ? INFINITY : NAN;
    } else {
        magnitude =
            std::ldexp(static_cast<float>(mantissa | 0x400), static_cast<int>(exponent) - 25);
    }
    return sign ? -magnitude : magnitude;
}

// Big-endian two's complement of any length to int128; false if it does not fit.
bool BigEndianToInt128(std::string_view bytes, hugeint_t& result) {
    if (bytes.empty()) {
        result = 0;
        return true;
    }
    const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
    bool negative = data[0] & 0x80;
    size_t skip = 0;
    // Leading sign-extension bytes beyond 16 carry no information.
    while (bytes.size() - skip > 16) {
        if (data[skip] != (negative ? 0xFF : 0x00)) {
            return false;
        }
        skip++;
    }
    unsigned __int128 value = negative ? ~static_cast<unsigned __int128>(0) : 0;
    for (size_t i = skip; i < bytes.size(); i++) {
        value = (value << 8) | data[i];
    }
    result = static_cast<hugeint_t>(value);
    return true;
}

int64_t FloorDivide(int64_t value, int64_t divisor) {
    int64_t quotient = value / divisor;
    return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

} // namespace

size_t FixedWidth(const ParquetColumn& column) {
    switch (column.physical) {
    case Type::BOOLEAN:
        return 1;
    case Type::INT32:
    case Type::FLOAT:
        return 4;
    case Type::INT64:
    case Type::DOUBLE:
        return 8;
    case Type::INT96:
        return 12;
    case Type::FIXED_LEN_BYTE_ARRAY:
        return static_cast<size_t>(column.type_length);
    case Type::BYTE_ARRAY:
        return 0;
    }
    return 0;
}

bool SameLayout(const ParquetColumn& column) {
    PhysicalType physical = column.type.physical();
    Conversion conversion = column.conversion;
    return conversion == Conversion::Int32 || conversion == Conversion::Int64 ||
           conversion == Conversion::TimeMicros || conversion == Conversion::TimestampMicros ||
           conversion == Conversion::Float || conversion == Conversion::Double ||
           conversion == Conversion::UInt32 || conversion == Conversion::UInt64 ||
           (conversion == Conversion::DecimalFromInt32 && physical == PhysicalType::INT32) ||
           (conversion == Conversion::DecimalFromInt64 && physical == PhysicalType::INT64);
}

void ConvertValues(const ParquetColumn& column, const PhysicalValues& source, const uint32_t* index,
                   const idx_t* rows, size_t count, bool bulk, Vector& out) {
    const uint8_t* fixed = source.fixed_data;
    size_t width = source.width;
    PhysicalType physical = out.type().physical();
    if (bulk && count > 0) {
        std::memcpy(out.data<uint8_t>() + rows[0] * width, fixed + size_t(index[0]) * width,
                    count * width);
        return;
    }
    auto fixed_at = [&](size_t i) { return fixed + static_cast<size_t>(index[i]) * width; };
    switch (column.conversion) {
    case Conversion::Boolean:
        for (size_t i = 0; i < count; i++) {
            out.data<bool>()[rows[i]] = *fixed_at(i) != 0;
        }
        return;
    case Conversion::Int32:
        for (size_t i = 0; i < count; i++) {
            out.data<int32_t>()[rows[i]] = LoadLittleEndian<int32_t>(fixed_at(i));
        }
        return;
    case Conversion::Int32ToInt8:
        for (size_t i = 0; i < count; i++) {
            out.data<int8_t>()[rows[i]] =
                static_cast<int8_t>(LoadLittleEndian<int32_t>(fixed_at(i)));
        }
        return;
    case Conversion::UInt8:
        for (size_t i = 0; i < count; i++) {
            out.data<uint8_t>()[rows[i]] =
                static_cast<uint8_t>(LoadLittleEndian<int32_t>(fixed_at(i)));
        }
        return;
    case Conversion::UInt16:
        for (size_t i = 0; i < count; i++) {
            out.data<uint16_t>()[rows[i]] =
                static_cast<uint16_t>(LoadLittleEndian<int32_t>(fixed_at(i)));
        }
        return;
    case Conversion::UInt32:
        for (size_t i = 0; i < count; i++) {
            out.data<uint32_t>()[rows[i]] = LoadLittleEndian<uint32_t>(fixed_at(i));
        }
        return;
    case Conversion::UInt64:
        for (size_t i = 0; i < count; i++) {
            out.data<uint64_t>()[rows[i]] = LoadLittleEndian<uint64_t>(fixed_at(i));
        }
        return;
    case Conversion::Int32ToInt16:
        for (size_t i = 0; i < count; i++) {
            out.data<int16_t>()[rows[i]] =
                static_cast<int16_t>(LoadLittleEndian<int32_t>(fixed_at(i)));
        }
        return;
    case Conversion::Int64:
    case Conversion::TimeMicros:
    case Conversion::TimestampMicros:
        for (size_t i = 0; i < count; i++) {
            out.data<int64_t>()[rows[i]] = LoadLittleEndian<int64_t>(fixed_at(i));
        }
        return;
    case Conversion::TimeMillis:
        for (size_t i = 0; i < count; i++) {
            out.data<int64_t>()[rows[i]] = int64_t(LoadLittleEndian<int32_t>(fixed_at(i))) * 1000;
        }
        return;
    case Conversion::TimeNanos:
    case Conversion::TimestampNanos:
        for (size_t i = 0; i < count; i++) {
            out.data<int64_t>()[rows[i]] =
                FloorDivide(LoadLittleEndian<int64_t>(fixed_at(i)), 1000);
        }
        return;
    case Conversion::TimestampMillis:
        for (size_t i = 0; i < count; i++) {
            int64_t millis = LoadLittleEndian<int64_t>(fixed_at(i)), micros;
            if (__builtin_mul_overflow(millis, int64_t(1000), &micros)) {
                throw CorruptData("timestamp " + std::to_string(millis) + " ms is out of range");
            }
            out.data<int64_t>()[rows[i]] = micros;
        }
        return;
    case Conversion::Int96Timestamp:
        for (size_t i = 0; i < count; i++) {
            const uint8_t* value = fixed_at(i);
            // As DuckDB reads INT96: the Julian day unsigned, the time of day truncated to
            // microseconds, and a day or time outside TIMESTAMP's range wrapping around in
            // two's complement (computed unsigned, where wrapping is defined) rather than
            // failing the file.
            int64_t micros_of_day = LoadLittleEndian<int64_t>(value) / 1000;
            uint64_t julian_day = LoadLittleEndian<uint32_t>(value + 8);
            constexpr uint64_t kUnixEpochJulianDay = 2440588;
            constexpr uint64_t kMicrosPerDay = 86400000000ULL;
            out.data<int64_t>()[rows[i]] =
                static_cast<int64_t>((julian_day - kUnixEpochJulianDay) * kMicrosPerDay +
                                     static_cast<uint64_t>(micros_of_day));
        }
        return;
    case Conversion::Float:
        for (size_t i = 0; i < count; i++) {
            out.data<float>()[rows[i]] = LoadLittleEndian<float>(fixed_at(i));
        }
        return;
    case Conversion::Double:
        for (size_t i = 0; i < count; i++) {
            out.data<double>()[rows[i]] = LoadLittleEndian<double>(fixed_at(i));
        }
        return;
    case Conversion::Float16:
        for (size_t i = 0; i < count; i++) {
            out.data<float>()[rows[i]] = HalfToFloat(LoadLittleEndian<uint16_t>(fixed_at(i)));
        }
        return;
    case Conversion::DecimalFromInt32:
    case Conversion::DecimalFromInt64: {
        // Decimals take the width their precision needs, which may differ from the file's.
        bool wide = column.conversion == Conversion::DecimalFromInt64;
        auto load = [&](size_t i) -> int64_t {
            return wide ? LoadLittleEndian<int64_t>(fixed_at(i))
                        : LoadLittleEndian<int32_t>(fixed_at(i));
        };
        switch (physical) {
        case PhysicalType::INT16:
            for (size_t i = 0; i < count; i++) {
                out.data<int16_t>()[rows[i]] = static_cast<int16_t>(load(i));
            }
            return;
        case PhysicalType::INT32:
            for (size_t i = 0; i < count; i++) {
                out.data<int32_t>()[rows[i]] = static_cast<int32_t>(load(i));
            }
            return;
        case PhysicalType::INT64:
            for (size_t i = 0; i < count; i++) {
                out.data<int64_t>()[rows[i]] = load(i);
            }
            return;
        default:
            for (size_t i = 0; i < count; i++) {
                out.data<hugeint_t>()[rows[i]] = load(i);
            }
            return;
        }
    }
    case Conversion::Uuid:
        for (size_t i = 0; i < count; i++) {
            const uint8_t* bytes = fixed_at(i);
            unsigned __int128 bits = 0;
            for (int b = 0; b < 16; b++) {
                bits = (bits << 8) | bytes[b];
            }
            out.data<hugeint_t>()[rows[i]] =
                static_cast<hugeint_t>(bits ^ (static_cast<unsigned __int128>(1) << 127));
        }
        return;
    case Conversion::DecimalFromBytes:
    case Conversion::Varchar:
    case Conversion::Blob:
        break;
    }
    // Byte-array-like conversions: the string_t point into `source`'s memory, which the caller
    // keeps alive.
    for (size_t i = 0; i < count; i++) {
        std::string_view bytes =
            column.physical == Type::BYTE_ARRAY
                ? source.binary[index[i]]
                : std::string_view(reinterpret_cast<const char*>(fixed_at(i)), width);
        if (column.conversion == Conversion::DecimalFromBytes) {
            hugeint_t value;
            if (!BigEndianToInt128(bytes, value)) {
                throw CorruptData("DECIMAL value does not fit in 128 bits");
            }
            SetInteger(out, rows[i], value);
            continue;
        }
        if (bytes.size() > UINT32_MAX) {
            throw CorruptData("string value larger than 4 GiB");
        }
        out.data<string_t>()[rows[i]] = string_t(bytes.data(), static_cast<uint32_t>(bytes.size()));
    }
}

} // namespace sluice::parquet
