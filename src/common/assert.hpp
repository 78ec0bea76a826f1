#pragma once

#include "common/exception.hpp"

// SLUICE_ASSERT(condition, what): an invariant of the engine's own making (a chunk within its
// capacity, a selection within its source). Checked in debug builds, the sanitizer builds among
// them, where a broken one fails at its source as an INTERNAL error naming the file and line
// rather than later and elsewhere; compiled out of release builds, whose hot loops it sits in.
#ifdef NDEBUG
#define SLUICE_ASSERT(condition, what) ((void)0)
#else
#define SLUICE_ASSERT(condition, what)                                                             \
    ((condition) ? (void)0 : ::sluice::FailAssertion(#condition, what, __FILE__, __LINE__))
#endif

namespace sluice {

[[noreturn]] inline void FailAssertion(const char* condition, const char* what, const char* file,
                                       int line) {
    throw Exception(ErrorKind::Internal, std::string(what) + " (" + condition + " at " + file +
                                             ":" + std::to_string(line) + ")");
}

} // namespace sluice
