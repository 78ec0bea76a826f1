#include "common/join_key_filter.hpp"

#include "common/memory_size.hpp"
#include "common/table_filter.hpp"

#include <bit>
#include <type_traits>

namespace sluice {

namespace {

// Bloom filters over more keys than this would not stay in cache: the range alone is kept.
constexpr idx_t kMaxBloomKeys = idx_t(1) << 25;
// A filter is judged on this many rows; letting more than this share of them through, it is
// not worth its lookups.
constexpr uint64_t kRowsJudged = uint64_t(1) << 18;
constexpr double kWorthlessShare = 0.9;

// Calls `f(T{})` with the integer type a vector of physical type `type` stores; false for the
// other types.
template <class F>
bool DispatchInteger(PhysicalType type, F&& f) {
    switch (type) {
    case PhysicalType::INT8:
        f(int8_t{});
        return true;
    case PhysicalType::INT16:
        f(int16_t{});
        return true;
    case PhysicalType::INT32:
        f(int32_t{});
        return true;
    case PhysicalType::INT64:
        f(int64_t{});
        return true;
    case PhysicalType::UINT8:
        f(uint8_t{});
        return true;
    case PhysicalType::UINT16:
        f(uint16_t{});
        return true;
    case PhysicalType::UINT32:
        f(uint32_t{});
        return true;
    case PhysicalType::UINT64:
        f(uint64_t{});
        return true;
    default:
        return false;
    }
}

// Spreads a key's bits over the whole word (the 64-bit finalizer of MurmurHash3).
inline uint64_t Mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

// The four bits a key sets in its word: 6 bits each from the hash's high end (the low end
// picks the word).
inline uint64_t BitsOf(uint64_t hash) {
    return (uint64_t(1) << ((hash >> 40) & 63)) | (uint64_t(1) << ((hash >> 46) & 63)) |
           (uint64_t(1) << ((hash >> 52) & 63)) | (uint64_t(1) << ((hash >> 58) & 63));
}

} // namespace

bool JoinKeyFilter::Supports(const LogicalType& type) {
    return !type.IsNested() && DispatchInteger(type.physical(), [](auto) {});
}

idx_t JoinKeyFilter::BloomBytes(idx_t keys) {
    if (keys == 0 || keys > kMaxBloomKeys) {
        return 0;
    }
    // 8 to 16 bits a key (a power of two words): about 2% false positives at 8, in half the
    // cache of 16.
    return std::bit_ceil(std::max<idx_t>(keys / 8, 8)) * sizeof(uint64_t);
}

void JoinKeyFilter::Publish(const std::vector<std::unique_ptr<DataChunk>>& chunks, idx_t column,
                            idx_t keys, bool with_bloom) {
    idx_t bloom_bytes = with_bloom ? BloomBytes(keys) : 0;
    bloom_.assign(bloom_bytes / sizeof(uint64_t), 0);
    bloom_mask_ = bloom_.empty() ? 0 : bloom_.size() - 1;
    bool built = DispatchInteger(type_.physical(), [&](auto tag) {
        using T = decltype(tag);
        T lo = 0, hi = 0;
        for (const auto& chunk : chunks) {
            const Vector& vector = chunk->column(column);
            const T* data = vector.data<T>();
            bool constant = vector.vector_type() == VectorType::CONSTANT;
            idx_t count = constant ? std::min<idx_t>(chunk->size(), 1) : chunk->size();
            for (idx_t row = 0; row < count; row++) {
                if (!vector.RowIsValid(row)) {
                    continue;
                }
                T key = data[row];
                lo = empty_ || key < lo ? key : lo;
                hi = empty_ || key > hi ? key : hi;
                empty_ = false;
                keys_++;
                if (!bloom_.empty()) {
                    uint64_t hash = Mix(static_cast<uint64_t>(key));
                    bloom_[hash & bloom_mask_] |= BitsOf(hash);
                }
            }
        }
        min_ = static_cast<uint64_t>(lo);
        max_ = static_cast<uint64_t>(hi);
        if (!empty_) {
            Vector bounds(type_, 2);
            bounds.data<T>()[0] = lo;
            bounds.data<T>()[1] = hi;
            min_value_ = bounds.GetValue(0);
            max_value_ = bounds.GetValue(1);
        }
    });
    if (built) {
        ready_.store(true, std::memory_order_release);
    }
}

inline bool JoinKeyFilter::MayContain(uint64_t key) const {
    uint64_t hash = Mix(key);
    uint64_t bits = BitsOf(hash);
    return (bloom_[hash & bloom_mask_] & bits) == bits;
}

size_t JoinKeyFilter::Select(const Vector& values, uint32_t* rows, size_t count) const {
    if (!ready() || !worthwhile()) {
        return count;
    }
    if (empty_) {
        return 0;
    }
    size_t kept = 0;
    DispatchInteger(type_.physical(), [&](auto tag) {
        using T = decltype(tag);
        const T* data = values.data<T>();
        const ValidityMask& validity = values.validity();
        T lo = static_cast<T>(min_), hi = static_cast<T>(max_);
        bool all_valid = validity.AllValid();
        bool bloom = !bloom_.empty();
        for (size_t i = 0; i < count; i++) {
            uint32_t row = rows[i];
            T key = data[row];
            rows[kept] = row;
            bool keep = (all_valid || validity.RowIsValid(row)) && key >= lo && key <= hi;
            // The bloom word is read only for keys in range (most rows, when it matters).
            keep = keep && (!bloom || MayContain(static_cast<uint64_t>(key)));
            kept += keep;
        }
    });
    uint64_t seen = rows_seen_.fetch_add(count, std::memory_order_relaxed) + count;
    uint64_t passed = rows_passed_.fetch_add(kept, std::memory_order_relaxed) + kept;
    if (seen >= kRowsJudged && double(passed) > kWorthlessShare * double(seen)) {
        worthwhile_.store(false, std::memory_order_relaxed);
    }
    return kept;
}

bool JoinKeyFilter::MayMatch(const ColumnStatistics& statistics) const {
    if (!ready()) {
        return true;
    }
    bool all_null = statistics.null_count && *statistics.null_count == statistics.row_count &&
                    statistics.row_count > 0;
    if (empty_ || all_null) {
        return false;
    }
    if (!statistics.min || !statistics.max || statistics.min->type() != type_ ||
        statistics.max->type() != type_) {
        return true;
    }
    return statistics.max->Compare(*min_value_) >= 0 && statistics.min->Compare(*max_value_) <= 0;
}

std::string JoinKeyFilter::Describe() const {
    if (!ready()) {
        return "not built";
    }
    if (empty_) {
        return "no keys";
    }
    std::string text = std::to_string(keys_) + " keys in [" + min_value_->ToString() + ", " +
                       max_value_->ToString() + "]";
    if (!bloom_.empty()) {
        text += ", bloom filter " + FormatMemorySize(bloom_.size() * sizeof(uint64_t));
    }
    if (!worthwhile()) {
        text += "; let " + std::to_string(rows_passed_.load()) + " of the first " +
                std::to_string(rows_seen_.load()) + " rows through: not worth it, dropped";
    }
    return text;
}

} // namespace sluice
