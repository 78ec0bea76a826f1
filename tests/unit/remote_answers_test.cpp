// Answers of HTTP servers and S3 that the fuzzers found mishandled, kept as regression tests:
// a folded header line opening a response on a client that made requests before (a use after
// free inside libcurl 7.88 when easy handles were reused), and S3 listing pages with missing,
// malformed or endless parts (once skipped silently or thrown as std::invalid_argument).
#include "common/exception.hpp"
#include "io/glob_pattern.hpp"
#include "io/http_client.hpp"
#include "io/s3_xml.hpp"
#include "scripted_http_server.hpp"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(RemoteAnswers, AFoldedFirstHeaderLineOnAReusedClientIsHarmless) {
    ScriptedHttpServer server;
    HttpClient client;
    HttpOptions options;
    options.retries = 0;
    options.io_threads = 1;
    client.SetOptions(options);
    std::string ok = "HTTP/1.1 200 OK\r\nA: b\r\nContent-Length: 2\r\n\r\nok";
    std::string folded = "HTTP/1.1 404 Not Found\r\n folded: x\r\nContent-Length: 0\r\n\r\n";
    server.SetScript({ok, folded, ok, folded});
    std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/x";
    for (int i = 0; i < 4; i++) {
        HttpRequest request;
        request.url = url;
        HttpResponse response;
        try {
            response = client.Execute(request);
        } catch (const Exception& error) {
            EXPECT_EQ(error.Kind(), ErrorKind::IO) << error.what();
            continue; // libcurl may refuse the folded line; it must not crash
        }
        EXPECT_EQ(response.status, i % 2 == 0 ? 200 : 404);
    }
}

std::string Page(const std::string& contents, const std::string& tail = "") {
    return "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name>" + contents + tail +
           "</ListBucketResult>";
}

TEST(S3Xml, ListingPagesAreReadStrictly) {
    S3ListingPage page = ParseS3ListingPage(
        Page("<Contents><Key>a&amp;b&#x1F600;&#233;.parquet</Key><Size>12</Size></Contents>"
             "<Contents><Key>c</Key><Size>0</Size></Contents>",
             "<IsTruncated>true</IsTruncated><NextContinuationToken>t&lt;1</"
             "NextContinuationToken>"));
    ASSERT_EQ(page.objects.size(), 2u);
    EXPECT_EQ(page.objects[0].key, "a&b\xF0\x9F\x98\x80\xC3\xA9.parquet");
    EXPECT_EQ(page.objects[0].size, 12u);
    EXPECT_EQ(page.continuation_token, "t<1");
    EXPECT_TRUE(ParseS3ListingPage(Page("", "<IsTruncated>false</IsTruncated>"))
                    .continuation_token.empty());

    auto fails = [](const std::string& xml, const std::string& expected) {
        try {
            ParseS3ListingPage(xml);
            ADD_FAILURE() << "no error for " << xml;
        } catch (const Exception& error) {
            EXPECT_EQ(error.Kind(), ErrorKind::IO);
            EXPECT_NE(error.RawMessage().find(expected), std::string::npos) << error.what();
        }
    };
    fails(Page("<Contents><Key>k</Key></Contents>"), "without one <Key> and one <Size>");
    fails(Page("<Contents><Key>k</Key><Size>12x</Size></Contents>"), "not a number of bytes");
    fails(Page("<Contents><Key>k</Key><Size></Size></Contents>"), "not a number of bytes");
    fails(Page("<Contents><Key>k&#;</Key><Size>1</Size></Contents>"), "malformed entity");
    fails(Page("<Contents><Key>k&#xD800;</Key><Size>1</Size></Contents>"), "malformed entity");
    fails(Page("<Contents><Key>k&nbsp;</Key><Size>1</Size></Contents>"), "malformed entity");
    fails(Page("", "<IsTruncated>true</IsTruncated>"), "no NextContinuationToken");
    // A key with a NUL byte is listed, but no glob matches it (fnmatch would see "data").
    EXPECT_EQ(ParseS3ListingPage(Page(std::string("<Contents><Key>data\0x/a.parquet</Key>"
                                                  "<Size>1</Size></Contents>",
                                                  62)))
                  .objects.size(),
              1u);
    EXPECT_FALSE(GlobMatches("data/*.parquet", std::string("data\0x/a.parquet", 16)));
    EXPECT_TRUE(GlobMatches("data/*.parquet", "data/a.parquet"));
    fails("<Error><Code>AccessDenied</Code></Error>", "not a ListBucketResult");

    EXPECT_EQ(ExplainS3Error("<Error><Code>NoSuchKey</Code><Message>no &quot;k&quot; &#;"
                             "</Message></Error>"),
              "NoSuchKey: no &quot;k&quot; &#;"); // malformed: shown as it came
    EXPECT_EQ(ExplainS3Error("<Error><Code>SlowDown</Code><Message>a &amp; b</Message></Error>"),
              "SlowDown: a & b");
    EXPECT_EQ(ExplainS3Error("not xml"), "");
}

} // namespace
} // namespace sluice
