#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// S3's XML answers, read as far as Sluice needs them: a ListObjectsV2 page, and the <Code> and
// <Message> of an error. S3's documents are flat and machine-written, so elements are found by
// their tags rather than by a general XML parser; what is found is checked strictly.

struct S3ListedObject {
    std::string key; // unescaped
    uint64_t size = 0;
};

struct S3ListingPage {
    std::vector<S3ListedObject> objects;
    // The token that asks for the next page; empty on the last page.
    std::string continuation_token;
};

// Parses one ListObjectsV2 page. Throws an IO Exception saying what is wrong with it (an entry
// without a key or a numeric size, a malformed entity, a truncated page without a token).
S3ListingPage ParseS3ListingPage(const std::string& xml);

// "NoSuchKey: The specified key does not exist." from an error body; empty when it has no
// <Code>.
std::string ExplainS3Error(const std::string& body);

// The text with XML's five named entities and numeric character references replaced; nullopt
// when an entity is malformed or names no Unicode scalar value.
std::optional<std::string> XmlUnescape(const std::string& text);

} // namespace sluice
