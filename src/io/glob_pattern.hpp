#pragma once

#include <string>

namespace sluice {

// Whether `path` matches `pattern`, both split at '/': *, ? and [...] match within a segment
// (fnmatch), ** matches any number of segments (zero included).
bool GlobMatches(const std::string& pattern, const std::string& path);

// Whether a pattern has wildcards at all.
bool HasGlobCharacters(const std::string& pattern);

} // namespace sluice
