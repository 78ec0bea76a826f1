#include "io/s3_xml.hpp"

#include "common/exception.hpp"

#include <charconv>

namespace sluice {

namespace {

// The text of each <tag>...</tag> in `xml`, in order.
std::vector<std::string> XmlElements(const std::string& xml, const std::string& tag) {
    std::vector<std::string> found;
    std::string open = "<" + tag + ">", close = "</" + tag + ">";
    size_t at = 0;
    while ((at = xml.find(open, at)) != std::string::npos) {
        size_t end = xml.find(close, at);
        if (end == std::string::npos) {
            break;
        }
        found.push_back(xml.substr(at + open.size(), end - at - open.size()));
        at = end + close.size();
    }
    return found;
}

void AppendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
        out += static_cast<char>(code);
    } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
    }
}

// A numeric character reference's code point ("#65", "#x41"); nullopt when malformed.
std::optional<uint32_t> CharacterReference(const std::string& entity) {
    bool hex = entity.size() > 1 && entity[1] == 'x';
    const char* begin = entity.data() + (hex ? 2 : 1);
    const char* end = entity.data() + entity.size();
    uint32_t code = 0;
    auto [stop, error] = std::from_chars(begin, end, code, hex ? 16 : 10);
    if (begin == end || error != std::errc() || stop != end || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF)) {
        return std::nullopt;
    }
    return code;
}

std::string Unescaped(const std::string& text, const char* what) {
    std::optional<std::string> value = XmlUnescape(text);
    if (!value) {
        throw Exception(ErrorKind::IO, std::string("the listing has a malformed entity in ") +
                                           what + " \"" + text.substr(0, 200) + "\"");
    }
    return *value;
}

} // namespace

std::optional<std::string> XmlUnescape(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); i++) {
        if (text[i] != '&') {
            out += text[i];
            continue;
        }
        size_t end = text.find(';', i);
        if (end == std::string::npos) {
            return std::nullopt;
        }
        std::string entity = text.substr(i + 1, end - i - 1);
        if (entity == "amp") {
            out += '&';
        } else if (entity == "lt") {
            out += '<';
        } else if (entity == "gt") {
            out += '>';
        } else if (entity == "quot") {
            out += '"';
        } else if (entity == "apos") {
            out += '\'';
        } else if (!entity.empty() && entity[0] == '#') {
            std::optional<uint32_t> code = CharacterReference(entity);
            if (!code) {
                return std::nullopt;
            }
            AppendUtf8(out, *code);
        } else {
            return std::nullopt;
        }
        i = end;
    }
    return out;
}

S3ListingPage ParseS3ListingPage(const std::string& xml) {
    if (xml.find("<ListBucketResult") == std::string::npos) {
        throw Exception(ErrorKind::IO,
                        "the answer is not a ListBucketResult: \"" + xml.substr(0, 200) + "\"");
    }
    S3ListingPage page;
    for (const std::string& contents : XmlElements(xml, "Contents")) {
        std::vector<std::string> keys = XmlElements(contents, "Key");
        std::vector<std::string> sizes = XmlElements(contents, "Size");
        if (keys.size() != 1 || sizes.size() != 1) {
            throw Exception(ErrorKind::IO, "the listing has an entry without one <Key> and one "
                                           "<Size>: \"" +
                                               contents.substr(0, 200) + "\"");
        }
        S3ListedObject object;
        object.key = Unescaped(keys[0], "the key");
        const std::string& size = sizes[0];
        auto [stop, error] = std::from_chars(size.data(), size.data() + size.size(), object.size);
        if (size.empty() || error != std::errc() || stop != size.data() + size.size()) {
            throw Exception(ErrorKind::IO, "the listing gives \"" + object.key + "\" the size \"" +
                                               size.substr(0, 40) +
                                               "\", which is not a number of bytes");
        }
        page.objects.push_back(std::move(object));
    }
    std::vector<std::string> truncated = XmlElements(xml, "IsTruncated");
    if (!truncated.empty() && truncated[0] == "true") {
        std::vector<std::string> next = XmlElements(xml, "NextContinuationToken");
        if (next.empty() || next[0].empty()) {
            throw Exception(ErrorKind::IO,
                            "the listing says it is truncated but gives no NextContinuationToken");
        }
        page.continuation_token = Unescaped(next[0], "the continuation token");
    }
    return page;
}

std::string ExplainS3Error(const std::string& body) {
    std::vector<std::string> code = XmlElements(body, "Code");
    std::vector<std::string> message = XmlElements(body, "Message");
    if (code.empty()) {
        return "";
    }
    // An error is explained as well as it can be: a malformed entity is shown as it came.
    auto text = [](const std::string& raw) { return XmlUnescape(raw).value_or(raw); };
    return text(code[0]) + (message.empty() ? "" : ": " + text(message[0]));
}

} // namespace sluice
