#include "io/glob_pattern.hpp"

#include "common/exception.hpp"
#include "io/file_system.hpp"

#include <algorithm>
#include <fnmatch.h>
#include <vector>

namespace sluice {

namespace {

// Matches one path component sequence against a glob whose "**" spans directories.
bool MatchPath(const std::vector<std::string>& pattern, size_t p,
               const std::vector<std::string>& path, size_t i) {
    if (p == pattern.size()) {
        return i == path.size();
    }
    if (pattern[p] == "**") {
        for (size_t k = i; k <= path.size(); k++) {
            if (MatchPath(pattern, p + 1, path, k)) {
                return true;
            }
        }
        return false;
    }
    // fnmatch sees C strings: a component with a NUL byte (possible in a listed key) would
    // match as its prefix before the NUL.
    return i < path.size() && path[i].find('\0') == std::string::npos &&
           fnmatch(pattern[p].c_str(), path[i].c_str(), FNM_PERIOD) == 0 &&
           MatchPath(pattern, p + 1, path, i + 1);
}

std::vector<std::string> SplitPath(const std::string& path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
        size_t end = path.find('/', start);
        if (end == std::string::npos) {
            end = path.size();
        }
        if (end > start) {
            parts.push_back(path.substr(start, end - start));
        }
        start = end + 1;
    }
    return parts;
}

} // namespace

bool GlobMatches(const std::string& pattern, const std::string& path) {
    return MatchPath(SplitPath(pattern), 0, SplitPath(path), 0);
}

std::vector<FileInfo> SortedMatches(std::vector<FileInfo> files, const std::string& pattern) {
    if (files.empty()) {
        throw Exception(ErrorKind::IO, "No files found that match the pattern \"" + pattern + "\"");
    }
    std::sort(files.begin(), files.end(),
              [](const FileInfo& a, const FileInfo& b) { return a.path < b.path; });
    return files;
}

bool HasGlobCharacters(const std::string& pattern) {
    return pattern.find_first_of("*?[") != std::string::npos;
}

} // namespace sluice
