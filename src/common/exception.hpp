#pragma once

#include <stdexcept>
#include <string>

namespace sluice {

// The kinds of error a user can see. Each surfaces as "<Kind> Error: message", as DuckDB does,
// so scripts written against either engine can match on the prefix.
enum class ErrorKind {
    Parser,
    Binder,
    Catalog,
    Conversion,
    OutOfRange,
    InvalidInput,
    IO,
    OutOfMemory,
    Interrupted,
    NotImplemented,
    Internal,
};

const char* ErrorKindName(ErrorKind kind);

class Exception : public std::runtime_error {
public:
    Exception(ErrorKind kind, const std::string& message);

    ErrorKind Kind() const { return kind_; }
    // The message without the "<Kind> Error: " prefix.
    const std::string& RawMessage() const { return message_; }

private:
    ErrorKind kind_;
    std::string message_;
};

} // namespace sluice
