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

namespace sluice {
namespace {

// Our S3 GET/HEAD/List signatures for tricky keys and queries equal botocore's (Debian's
// python3-botocore, at a fixed time). Skipped where botocore is not installed.
TEST(SigV4, S3SignaturesMatchBotocore) {
    const std::string script = std::string(SLUICE_SOURCE_DIR) + "/tests/s3/botocore_sign.py";
    if (std::system("/usr/bin/python3 -c 'import botocore' 2>/dev/null") != 0) {
        GTEST_SKIP() << "python3-botocore is not installed";
    }
    struct Case {
        std::string method, host, path, query, token;
    };
    const std::string token = "FwoGZXIvYXdzEXAMPLE/token+with=chars";
    std::vector<Case> cases = {
        {"GET", "bucket.s3.us-east-1.amazonaws.com", "/data/lineitem.parquet", "", ""},
        {"HEAD", "bucket.s3.us-east-1.amazonaws.com", "/dir%20with%20space/a%2Bb.parquet", "", ""},
        {"GET", "127.0.0.1:9000", "/bucket/%C3%BCnic%C3%B6de/%E2%9C%93.parquet", "", ""},
        {"GET", "127.0.0.1:9000", "/bucket/odd%21%27%28%29%2A%2C%3B%3D%40%24.parquet", "", ""},
        {"GET", "bucket.s3.eu-west-1.amazonaws.com", "/k~e_y-1.2.parquet", "", token},
        {"GET", "bucket.s3.us-east-1.amazonaws.com", "/", "list-type=2&prefix=dir%2Fsub%20dir%2F",
         ""},
        {"GET", "127.0.0.1:9000", "/bucket",
         "continuation-token=1%2Fabc%2Bdef%3D%3D&list-type=2&prefix=a%2Bb", token},
    };
    std::string input;
    for (const auto& c : cases) {
        input += c.method + " https://" + c.host + c.path + (c.query.empty() ? "" : "?" + c.query) +
                 " " + (c.token.empty() ? "-" : c.token) + "\n";
    }
    std::string input_file = ::testing::TempDir() + "/botocore_cases.txt";
    std::ofstream(input_file) << input;
    FILE* pipe = popen(("/usr/bin/python3 " + script + " < " + input_file).c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[4096];
    while (size_t got = fread(buffer, 1, sizeof(buffer), pipe)) {
        output.append(buffer, got);
    }
    ASSERT_EQ(pclose(pipe), 0) << output;
    std::stringstream lines(output);
    for (const auto& c : cases) {
        std::string line;
        ASSERT_TRUE(std::getline(lines, line));
        std::string payload_hash = line.substr(0, line.find('\t'));
        std::string expected = line.substr(line.find('\t') + 1);
        SigV4Request request;
        request.method = c.method;
        request.path = c.path;
        request.query = c.query;
        request.headers = {{"host", c.host}};
        request.payload_hash = payload_hash;
        SigV4Options options;
        options.region = "us-east-1";
        options.amz_date = "20261130T120000Z";
        SigV4Signature signature = SignV4(
            request, {"AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", c.token}, options);
        EXPECT_EQ(signature.authorization, expected)
            << c.method << " " << c.host << c.path << "?" << c.query << "\n"
            << signature.canonical_request;
    }
}

} // namespace
} // namespace sluice
