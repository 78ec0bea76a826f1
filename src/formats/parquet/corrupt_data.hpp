#pragma once

#include <stdexcept>

namespace sluice::parquet {

// What the Parquet decoders throw on malformed bytes: a short reason, without context. The reader
// that called them catches exactly this type and throws an engine Exception naming the file, row
// group, column and page instead. Catching only this type lets the engine's own errors (an
// interrupted query, exhausted memory) pass through with their kinds, and keeps any decoder's
// complaint from reaching the user bare.
class CorruptData : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace sluice::parquet
