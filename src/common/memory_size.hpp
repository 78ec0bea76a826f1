#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sluice {

// Physical memory of this machine (cgroup limits are not consulted yet).
uint64_t SystemMemoryBytes();

// Parses '4GB' (powers of 1000), '512MiB' (powers of 1024), '80%' (of system memory), '1024B'.
// Returns nullopt on malformed input.
std::optional<uint64_t> ParseMemorySize(std::string_view text);

// DuckDB's display of a byte count: "953.6 MiB", "18.6 GiB", "512 bytes".
std::string FormatMemorySize(uint64_t bytes);

} // namespace sluice
