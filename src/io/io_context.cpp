#include "io/io_context.hpp"

namespace sluice {

namespace {
thread_local IoContext tls_context;
} // namespace

const IoContext& CurrentIoContext() {
    return tls_context;
}

ScopedIoContext::ScopedIoContext(IoContext context) : previous_(tls_context) {
    tls_context = context;
}

ScopedIoContext::~ScopedIoContext() {
    tls_context = previous_;
}

} // namespace sluice
