#include "memory/memory_statistics.hpp"

#include "common/memory_size.hpp"

namespace sluice {

std::string MemoryStatistics::Render() const {
    std::string line = "    memory: peak " + FormatMemorySize(peak_memory.load());
    if (spill_files.load() > 0) {
        line += "; spilled " + FormatMemorySize(spilled_bytes.load()) + " in " +
                std::to_string(spill_files.load()) + " files, read back " +
                FormatMemorySize(read_back_bytes.load());
    }
    return line + "\n";
}

} // namespace sluice
