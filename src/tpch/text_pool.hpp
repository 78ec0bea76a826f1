#pragma once

#include "tpch/dbgen_random.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace sluice::tpch {

// dbgen's pseudo-text (TPC-H specification, clause 4.2.2.10): 300 MiB of sentences of its
// grammar, drawn once from dbgen's text stream, from which every comment column is cut. A comment
// of length [min, max] is dbgen's: an offset, then a length, drawn from the column's stream; it
// points into the pool (no copy).
class TextPool {
public:
    static constexpr size_t kSize = 300 << 20;

    static const TextPool& Get();
    // An owner to keep alive for as long as strings point into the pool.
    static std::shared_ptr<const void> Owner();

    std::string_view Text(DbgenStream& stream, int64_t min_length, int64_t max_length) const {
        int64_t offset = stream.Uniform(0, static_cast<int64_t>(kSize) - max_length);
        int64_t length = stream.Uniform(min_length, max_length);
        return std::string_view(text_.data() + offset, static_cast<size_t>(length));
    }
    std::string_view text() const { return text_; }

private:
    TextPool();
    std::string text_;
};

} // namespace sluice::tpch
