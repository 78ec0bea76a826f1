#include "io/file_system.hpp"

namespace sluice {

void FileHandle::ReadAsync(AsyncRead read) {
    std::exception_ptr error;
    try {
        Read(read.buffer, read.length, read.offset, read.context);
    } catch (...) {
        error = std::current_exception();
    }
    read.done(error);
}

} // namespace sluice
