#pragma once

#include "tpch/random_stream.hpp"

#include <memory>
#include <string>
#include <string_view>

namespace sluice::tpch {

// The pseudo-text that comment columns are cut from (TPC-H specification, clause 4.2.2.10):
// sentences of the specification's grammar, generated once per process. A text string of length
// [min, max] is a substring of random length and offset; it points into the pool (no copy).
class TextPool {
public:
    static constexpr size_t kSize = 16 << 20;

    static const TextPool& Get();
    // An owner to keep alive for as long as strings point into the pool.
    static std::shared_ptr<const void> Owner();

    std::string_view Text(RandomStream& random, int64_t min_length, int64_t max_length) const;
    std::string_view text() const { return text_; }

private:
    TextPool();
    std::string text_;
};

} // namespace sluice::tpch
