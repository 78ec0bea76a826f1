#include "io/read_context.hpp"

namespace sluice {

namespace {
thread_local ReadContext tls_context;
} // namespace

const ReadContext& CurrentReadContext() {
    return tls_context;
}

ScopedReadContext::ScopedReadContext(ReadContext context) : previous_(tls_context) {
    tls_context = context;
}

ScopedReadContext::~ScopedReadContext() {
    tls_context = previous_;
}

} // namespace sluice
