#pragma once

#include "common/data_chunk.hpp"

#include <cstdint>
#include <string>

namespace sluice {

// A DataChunk as bytes and back, for operators that spill: per column a validity flag (and
// bitmap when some row is NULL), then the values flat (CONSTANT vectors are expanded), strings
// as lengths followed by their bytes. Only the chunk's rows are written, not its capacity.
// The reader must know the column types; the bytes carry no schema.
void SerializeChunk(const DataChunk& chunk, std::string& out);
// Reads a chunk written by SerializeChunk into `out` (initialised with the same types; long
// strings are copied into its vectors' heaps). Throws an Internal error if the bytes end early.
void DeserializeChunk(const uint8_t* data, size_t size, DataChunk& out);

} // namespace sluice
