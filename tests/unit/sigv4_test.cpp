// AWS Signature Version 4 against the AWS test-suite vectors in ../shared/corpus/sigv4 (both
// suites listed in its INDEX.tsv): every case's canonical request, string to sign and
// Authorization header must match. Skipped (with a message) when ../shared is absent.
#include "io/aws_sigv4.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

namespace sluice {
namespace {

const std::filesystem::path kCorpus =
    std::filesystem::path(SLUICE_SOURCE_DIR) / ".." / "shared" / "corpus" / "sigv4";

std::string ReadFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> SplitTabs(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    std::string field;
    while (std::getline(stream, field, '\t')) {
        fields.push_back(field);
    }
    return fields;
}

// A raw request: "METHOD target HTTP/1.1", headers (folded lines start with spaces), a blank
// line, the body.
SigV4Request ParseRequest(const std::string& text, std::string& body) {
    SigV4Request request;
    std::vector<std::string> lines;
    std::stringstream stream(text);
    std::string line;
    while (std::getline(stream, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(line);
    }
    const std::string& first = lines.at(0);
    size_t space = first.find(' ');
    size_t last_space = first.rfind(" HTTP/");
    request.method = first.substr(0, space);
    std::string target = first.substr(space + 1, last_space - space - 1);
    size_t question = target.find('?');
    request.path = target.substr(0, question);
    request.query = question == std::string::npos ? "" : target.substr(question + 1);
    size_t i = 1;
    for (; i < lines.size() && !lines[i].empty(); i++) {
        if ((lines[i][0] == ' ' || lines[i][0] == '\t') && !request.headers.empty()) {
            request.headers.back().second += " " + lines[i];
            continue;
        }
        size_t colon = lines[i].find(':');
        request.headers.emplace_back(lines[i].substr(0, colon), lines[i].substr(colon + 1));
    }
    body.clear();
    for (i++; i < lines.size(); i++) {
        body += (body.empty() ? "" : "\n") + lines[i];
    }
    return request;
}

TEST(SigV4, AwsTestSuiteVectors) {
    if (!std::filesystem::exists(kCorpus / "INDEX.tsv")) {
        GTEST_SKIP() << "no ../shared/corpus/sigv4 beside the project";
    }
    std::ifstream index(kCorpus / "INDEX.tsv");
    std::string line;
    std::getline(index, line);
    std::vector<std::string> header = SplitTabs(line);
    auto column = [&](const std::string& name) {
        return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
    };
    int checked = 0;
    while (std::getline(index, line)) {
        std::vector<std::string> row = SplitTabs(line);
        row.resize(header.size());
        std::string suite = row[column("suite_dir")], name = row[column("case")];
        std::filesystem::path dir = kCorpus / suite / name;
        if (suite.empty() || !std::filesystem::is_directory(dir)) {
            continue; // licence files, the normalize-path notes
        }
        bool c_suite = suite == "aws-c-auth-v4";
        std::string base = std::filesystem::path(name).filename().string();
        std::string body;
        SigV4Request request =
            ParseRequest(ReadFile(c_suite ? dir / "request.txt" : dir / (base + ".req")), body);
        request.payload_hash = Sha256Hex(body);
        AwsCredentials credentials{row[column("access_key_id")], row[column("secret_access_key")],
                                   row[column("session_token")]};
        SigV4Options options;
        options.region = row[column("region")];
        options.service = row[column("service")];
        options.amz_date = row[column("x_amz_date")];
        options.normalize_path = row[column("normalize_path")].rfind("yes", 0) == 0;
        options.sign_payload_header = row[column("sign_body")].rfind("yes", 0) == 0;
        // "post-sts-header-after": the token is sent but added after signing.
        options.sign_session_token =
            row[column("notes")].find("after signing") == std::string::npos;
        SigV4Signature signature = SignV4(request, credentials, options);
        SCOPED_TRACE(suite + "/" + name);
        if (c_suite) {
            EXPECT_EQ(signature.canonical_request, ReadFile(dir / "header-canonical-request.txt"));
            EXPECT_EQ(signature.string_to_sign, ReadFile(dir / "header-string-to-sign.txt"));
            EXPECT_EQ(signature.signature, ReadFile(dir / "header-signature.txt"));
        } else {
            EXPECT_EQ(signature.canonical_request, ReadFile(dir / (base + ".creq")));
            EXPECT_EQ(signature.string_to_sign, ReadFile(dir / (base + ".sts")));
            EXPECT_EQ(signature.authorization, ReadFile(dir / (base + ".authz")));
        }
        checked++;
    }
    EXPECT_GE(checked, 70); // both suites, every case
}

TEST(SigV4, S3KeysAreEncodedOnceAndKeepTheirSlashes) {
    SigV4Request request;
    request.method = "GET";
    request.path = "/bucket/dir//a key+ü.parquet";
    request.headers = {{"Host", "127.0.0.1:9000"}};
    request.payload_hash = "UNSIGNED-PAYLOAD";
    SigV4Options options;
    options.region = "us-east-1";
    options.amz_date = "20261130T000000Z";
    SigV4Signature signature = SignV4(request, {"AKID", "secret", ""}, options);
    EXPECT_NE(signature.canonical_request.find("\n/bucket/dir//a%20key%2B%C3%BC.parquet\n"),
              std::string::npos)
        << signature.canonical_request;
    EXPECT_NE(signature.canonical_request.find("x-amz-content-sha256:UNSIGNED-PAYLOAD\n"),
              std::string::npos);
}

} // namespace
} // namespace sluice
