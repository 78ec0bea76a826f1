#include "common/exception.hpp"

namespace sluice {

const char* ErrorKindName(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::Parser:
        return "Parser";
    case ErrorKind::Binder:
        return "Binder";
    case ErrorKind::Catalog:
        return "Catalog";
    case ErrorKind::Conversion:
        return "Conversion";
    case ErrorKind::OutOfRange:
        return "Out of Range";
    case ErrorKind::InvalidInput:
        return "Invalid Input";
    case ErrorKind::IO:
        return "IO";
    case ErrorKind::OutOfMemory:
        return "Out of Memory";
    case ErrorKind::Interrupted:
        return "Interrupted";
    case ErrorKind::NotImplemented:
        return "Not implemented";
    case ErrorKind::Internal:
        return "INTERNAL";
    }
    return "Unknown";
}

Exception::Exception(ErrorKind kind, const std::string& message)
    : std::runtime_error(std::string(ErrorKindName(kind)) + " Error: " + message), kind_(kind),
      message_(message) {
}

} // namespace sluice
