#pragma once

#include "common/exception.hpp"

#include <cstdio>
#include <cstdlib>

namespace sluice::fuzz {

// Hostile input may only ever produce one of the errors a user is meant to see; an Internal
// error means the engine reached a state it believed impossible, which is a finding.
inline void ExpectUserError(const Exception& error) {
    if (error.Kind() == ErrorKind::Internal) {
        std::fprintf(stderr, "internal error: %s\n", error.what());
        std::abort();
    }
}

} // namespace sluice::fuzz
