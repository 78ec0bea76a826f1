#include "io/file_system.hpp"

namespace sluice {

void FileHandle::ReadAsync(AsyncRead read) {
    std::exception_ptr error;
    try {
        ScopedIoContext context(read.context);
        Read(read.buffer, read.length, read.offset);
    } catch (...) {
        error = std::current_exception();
    }
    read.done(error);
}

} // namespace sluice
