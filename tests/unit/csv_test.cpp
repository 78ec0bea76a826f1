// The CSV reader: rows found exactly once whatever the job size and thread count, quoted line
// breaks, CRLF, empty lines and long fields; errors that name file, line, byte and column.
#include "common/exception.hpp"
#include "formats/csv/csv_value_parser.hpp"
#include "main/sluice.hpp"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

using namespace sluice;

namespace {

std::string WriteFile(const std::string& name, const std::string& text) {
    auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

// Every row of a query as text, in order.
std::vector<std::string> Rows(Connection& connection, const std::string& sql) {
    auto result = connection.Query(sql);
    std::vector<std::string> rows;
    for (idx_t r = 0; r < result->RowCount(); r++) {
        std::string row;
        for (idx_t c = 0; c < result->ColumnCount(); c++) {
            Value value = result->GetValue(c, r);
            row += (c ? "|" : "") + (value.IsNull() ? std::string("NULL") : value.ToString());
        }
        rows.push_back(row);
    }
    return rows;
}

// Rows with quoted delimiters and line breaks (LF and CRLF), doubled quotes, empty lines and,
// every so often, a field far longer than a tiny job.
std::string AwkwardCsv(size_t rows, bool quoted_line_breaks, const char* line_end) {
    std::mt19937 random(42);
    std::string text = std::string("id,name,amount") + line_end;
    for (size_t i = 0; i < rows; i++) {
        std::string name = "n" + std::to_string(random() % 1000);
        switch (random() % 6) {
        case 0:
            name = "\"with, comma " + name + "\"";
            break;
        case 1:
            name = "\"say \"\"hi\"\" " + name + "\"";
            break;
        case 2:
            if (quoted_line_breaks) {
                name = "\"two" + std::string(line_end) + "lines " + name + "\"";
            }
            break;
        case 3:
            if (i % 50 == 0) {
                name = std::string(9000, 'x');
            }
            break;
        default:
            break;
        }
        text += std::to_string(i) + "," + name + "," + std::to_string(random() % 100000) + "." +
                std::to_string(random() % 100) + line_end;
        if (random() % 17 == 0) {
            text += line_end; // an empty line
        }
    }
    return text;
}

std::string Gzip(const std::string& text) {
    z_stream stream{};
    deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY); // gzip wrapper
    std::string out(deflateBound(&stream, text.size()) + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    stream.avail_in = static_cast<uInt>(text.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

std::string Zstd(const std::string& text) {
    std::string out(ZSTD_compressBound(text.size()), '\0');
    size_t size = ZSTD_compress(out.data(), out.size(), text.data(), text.size(), 3);
    EXPECT_FALSE(ZSTD_isError(size));
    out.resize(size);
    return out;
}

// UTF-8 text (of code points below U+0100) as Latin-1 bytes.
std::string Latin1(const std::string& utf8) {
    std::string out;
    for (size_t i = 0; i < utf8.size(); i++) {
        auto byte = static_cast<unsigned char>(utf8[i]);
        if (byte >= 0xC2 && byte <= 0xC3) {
            out.push_back(static_cast<char>(((byte & 0x1F) << 6) | (utf8[++i] & 0x3F)));
        } else {
            out.push_back(utf8[i]);
        }
    }
    return out;
}

// UTF-8 text as UTF-16 code units, little- or big-endian.
std::string Utf16(const std::string& utf8, bool big_endian) {
    std::string out;
    auto put = [&](uint16_t unit) {
        char low = static_cast<char>(unit & 0xFF);
        char high = static_cast<char>(unit >> 8);
        out += big_endian ? std::string{high, low} : std::string{low, high};
    };
    for (size_t i = 0; i < utf8.size();) {
        auto byte = static_cast<unsigned char>(utf8[i]);
        size_t length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : byte < 0xF0 ? 3 : 4;
        uint32_t code = length == 1 ? byte : byte & (0x3F >> (length - 1));
        for (size_t k = 1; k < length; k++) {
            code = (code << 6) | (utf8[i + k] & 0x3F);
        }
        i += length;
        if (code >= 0x10000) {
            put(static_cast<uint16_t>(0xD800 + ((code - 0x10000) >> 10)));
            put(static_cast<uint16_t>(0xDC00 + ((code - 0x10000) & 0x3FF)));
        } else {
            put(static_cast<uint16_t>(code));
        }
    }
    return out;
}

// AwkwardCsv with accented names (and, `beyond_latin1`, a euro sign and an emoji).
std::string AccentedCsv(bool beyond_latin1) {
    std::string text = AwkwardCsv(2000, true, "\n");
    std::string accented;
    for (size_t i = 0; i < text.size(); i++) {
        if (text[i] == 'n' && i > 0 && text[i - 1] != '\\') {
            accented += beyond_latin1 && i % 3 == 0 ? "\xE2\x82\xAC\xF0\x9F\x98\x80" : "\xC3\xB1";
        } else {
            accented.push_back(text[i]);
        }
    }
    return accented;
}

} // namespace

TEST(CsvReader, Latin1AndUtf16FilesReadAsTheirUtf8Text) {
    Database database;
    Connection connection(database);
    std::string latin1_text = AccentedCsv(false);
    std::string utf16_text = AccentedCsv(true);
    std::string utf8_latin1 = WriteFile("sluice_accented_latin1_as_utf8.csv", latin1_text);
    std::string utf8_utf16 = WriteFile("sluice_accented_utf16_as_utf8.csv", utf16_text);
    std::string latin1 = WriteFile("sluice_accented_latin1.csv", Latin1(latin1_text));
    std::string utf16le = WriteFile("sluice_accented_utf16le.csv", Utf16(utf16_text, false));
    std::string utf16bom =
        WriteFile("sluice_accented_utf16bom.csv", "\xFF\xFE" + Utf16(utf16_text, false));
    std::string utf16be =
        WriteFile("sluice_accented_utf16be.csv", "\xFE\xFF" + Utf16(utf16_text, true));
    auto read = [&](const std::string& path, const std::string& options) {
        return Rows(connection, "SELECT * FROM read_csv('" + path + "'" + options + ")");
    };
    std::vector<std::string> expected_latin1 = read(utf8_latin1, ", parallel = false");
    std::vector<std::string> expected_utf16 = read(utf8_utf16, ", parallel = false");
    ASSERT_EQ(expected_latin1.size(), 2000u);
    ASSERT_NE(expected_latin1[0].find("\xC3\xB1"), std::string::npos) << expected_latin1[0];
    for (int threads : {1, 4}) {
        connection.Query("SET threads = " + std::to_string(threads));
        for (int buffer_size : {1000, 8 << 20}) {
            SCOPED_TRACE(std::to_string(threads) + " threads, buffer_size " +
                         std::to_string(buffer_size));
            std::string size = ", buffer_size = " + std::to_string(buffer_size);
            EXPECT_EQ(read(latin1, ", encoding = 'latin-1'" + size), expected_latin1);
            for (const std::string& path : {utf16le, utf16bom, utf16be}) {
                EXPECT_EQ(read(path, ", encoding = 'utf-16'" + size), expected_utf16) << path;
            }
        }
    }
    // Latin-1 read as UTF-8 is an error that says which option helps; a UTF-16 file cut in the
    // middle of a character is a truncated file.
    EXPECT_THROW(
        {
            try {
                read(latin1, "");
            } catch (const Exception& error) {
                EXPECT_NE(std::string(error.what()).find("encoding = 'latin-1'"), std::string::npos)
                    << error.what();
                throw;
            }
        },
        Exception);
    std::string bytes = Utf16(utf16_text, false);
    std::string cut = WriteFile("sluice_accented_cut.csv", bytes.substr(0, bytes.size() - 1));
    EXPECT_THROW(
        {
            try {
                read(cut, ", encoding = 'utf-16', buffer_size = 1000");
            } catch (const Exception& error) {
                EXPECT_NE(std::string(error.what()).find("UTF-16 data ends early"),
                          std::string::npos)
                    << error.what();
                throw;
            }
        },
        Exception);
}

TEST(CsvReader, CompressedFilesReadAsOneStreamEqualThePlainFile) {
    std::string text = AwkwardCsv(3000, true, "\n");
    std::string plain = WriteFile("sluice_stream.csv", text);
    // Two gzip members (as `cat a.gz b.gz` makes) and two zstd frames: read whole.
    size_t half = text.find('\n', text.size() / 2) + 1;
    std::string gz =
        WriteFile("sluice_stream.csv.gz", Gzip(text.substr(0, half)) + Gzip(text.substr(half)));
    std::string zst =
        WriteFile("sluice_stream.csv.zst", Zstd(text.substr(0, half)) + Zstd(text.substr(half)));
    std::string unnamed = WriteFile("sluice_stream.data", Gzip(text));
    Database database;
    Connection connection(database);
    std::vector<std::string> expected =
        Rows(connection, "SELECT * FROM read_csv('" + plain + "', parallel = false)");
    ASSERT_EQ(expected.size(), 3000u);
    for (int threads : {1, 4}) {
        connection.Query("SET threads = " + std::to_string(threads));
        for (int buffer_size : {100, 4096, 8 << 20}) {
            for (std::string source :
                 {"'" + gz + "'", "'" + zst + "'", "'" + unnamed + "', compression = 'gzip'"}) {
                SCOPED_TRACE(source + ", " + std::to_string(threads) + " threads, buffer_size " +
                             std::to_string(buffer_size));
                EXPECT_EQ(Rows(connection, "SELECT * FROM read_csv(" + source + ", buffer_size = " +
                                               std::to_string(buffer_size) + ")"),
                          expected);
            }
        }
    }
    std::string profile = connection.Query("EXPLAIN ANALYZE SELECT count(*) FROM '" + gz + "'")
                              ->GetValue(1, 0)
                              .ToString();
    EXPECT_NE(profile.find("1 read in order"), std::string::npos) << profile;
    // A conversion error names the line as the plain file's error does.
    std::string bad = text;
    bad.replace(bad.find("\n2000,") + 1, 4, "2x00");
    WriteFile("sluice_stream_bad.csv", bad);
    std::string bad_gz = WriteFile("sluice_stream_bad.csv.gz", Gzip(bad));
    std::string plain_error, gzip_error;
    try {
        connection.Query("SELECT * FROM read_csv('" + bad_gz +
                         "', buffer_size = 1000, types = {'id': 'BIGINT'})");
    } catch (const Exception& error) {
        gzip_error = error.what();
    }
    try {
        connection.Query(
            "SELECT * FROM read_csv('" +
            (std::filesystem::temp_directory_path() / "sluice_stream_bad.csv").string() +
            "', types = {'id': 'BIGINT'})");
    } catch (const Exception& error) {
        plain_error = error.what();
    }
    auto line = [](const std::string& message) {
        size_t at = message.find("on line ");
        return at == std::string::npos ? "" : message.substr(at, message.find(" (", at) - at);
    };
    EXPECT_NE(line(gzip_error), "") << gzip_error;
    EXPECT_EQ(line(gzip_error), line(plain_error)) << gzip_error << "\n" << plain_error;
    EXPECT_NE(gzip_error.find("\"2x00\""), std::string::npos) << gzip_error;
}

TEST(CsvReader, TruncatedOrCorruptCompressedFilesAreClearErrors) {
    std::string text = AwkwardCsv(3000, false, "\n");
    std::string gz = Gzip(text);
    std::string zst = Zstd(text);
    struct Case {
        std::string name;
        std::string bytes;
        std::string error;
    };
    std::vector<Case> cases = {
        {"sluice_cut.csv.gz", gz.substr(0, gz.size() / 2), "gzip data ends early"},
        {"sluice_cut.csv.zst", zst.substr(0, zst.size() - 10), "zstd data ends early"},
        {"sluice_tiny_cut.csv.gz", gz.substr(0, 100), "gzip data ends early"},
        {"sluice_garbage.csv.gz", std::string(5000, 'q'), "corrupt gzip data"},
        {"sluice_garbage.csv.zst", "\x28\xb5\x2f\xfd" + std::string(5000, 'q'),
         "corrupt zstd data"},
    };
    Database database;
    Connection connection(database);
    for (const Case& c : cases) {
        std::string path = WriteFile(c.name, c.bytes);
        for (int buffer_size : {1000, 8 << 20}) {
            SCOPED_TRACE(c.name + ", buffer_size " + std::to_string(buffer_size));
            try {
                connection.Query("SELECT count(*) FROM read_csv('" + path +
                                 "', buffer_size = " + std::to_string(buffer_size) + ")");
                ADD_FAILURE() << "no error";
            } catch (const Exception& error) {
                std::string message = error.what();
                EXPECT_NE(message.find(c.error), std::string::npos) << message;
                EXPECT_NE(message.find(path), std::string::npos) << message;
            }
        }
    }
    EXPECT_THROW(connection.Query("SELECT * FROM read_csv('x.csv', compression = 'lzma')"),
                 Exception);
}

TEST(CsvReader, ParallelEqualsSerialAtEveryJobSizeAndThreadCount) {
    for (bool quoted_line_breaks : {false, true}) {
        for (const char* line_end : {"\n", "\r\n"}) {
            std::string path =
                WriteFile("sluice_awkward.csv", AwkwardCsv(3000, quoted_line_breaks, line_end));
            Database database;
            Connection connection(database);
            std::string serial_sql = "SELECT * FROM read_csv('" + path + "', parallel = false)";
            connection.Query("SET threads = 1");
            std::vector<std::string> expected = Rows(connection, serial_sql);
            ASSERT_EQ(expected.size(), 3000u);
            for (int threads : {1, 2, 4}) {
                connection.Query("SET threads = " + std::to_string(threads));
                for (int buffer_size : {1000, 4096, 100000, 8 << 20}) {
                    SCOPED_TRACE(std::to_string(threads) + " threads, buffer_size " +
                                 std::to_string(buffer_size) +
                                 (quoted_line_breaks ? ", quoted line breaks" : ""));
                    std::string sql = "SELECT * FROM read_csv('" + path +
                                      "', buffer_size = " + std::to_string(buffer_size) +
                                      ") ORDER BY id";
                    EXPECT_EQ(Rows(connection, sql), expected);
                }
            }
        }
    }
}

TEST(CsvReader, AQuotedLineBreakTheSampleMissedIsAnErrorNotAWrongRow) {
    // 30000 plain rows, then quoted line breaks: the sniffer's sample (20480 rows) sees none,
    // so the file is split for parallel reading and the boundary check must catch the split.
    std::string text = "a,b\n";
    for (int i = 0; i < 30000; i++) {
        text += std::to_string(i) + ",plain\n";
    }
    for (int i = 0; i < 3000; i++) {
        text += std::to_string(i) + ",\"x\ny\"\n";
    }
    std::string path = WriteFile("sluice_late_quotes.csv", text);
    Database database;
    Connection connection(database);
    connection.Query("SET threads = 2");
    try {
        auto result = connection.Query("SELECT count(*), sum(a) FROM read_csv('" + path +
                                       "', buffer_size = 2000)");
        // If every split happened to fall between rows, the answer must be right.
        EXPECT_EQ(result->GetValue(0, 0).ToString(), "33000");
    } catch (const Exception& error) {
        EXPECT_NE(std::string(error.what()).find("parallel = false"), std::string::npos)
            << error.what();
    }
    auto serial = connection.Query("SELECT count(*) FROM read_csv('" + path +
                                   "', buffer_size = 2000, parallel = false)");
    EXPECT_EQ(serial->GetValue(0, 0).ToString(), "33000");
}

TEST(CsvReader, ConversionErrorsNameFileLineByteAndColumn) {
    std::string text = "a,b\n";
    for (int i = 0; i < 5000; i++) {
        text += std::to_string(i) + ",x\n";
    }
    text += "12x,y\n";
    std::string path = WriteFile("sluice_bad_value.csv", text);
    Database database;
    Connection connection(database);
    connection.Query("SET threads = 2");
    for (int buffer_size : {1000, 1 << 20}) {
        try {
            // The sniffer samples 100 rows: column a looks like BIGINT until line 5002.
            connection.Query("SELECT * FROM read_csv('" + path +
                             "', sample_size = 100, "
                             "buffer_size = " +
                             std::to_string(buffer_size) + ")");
            ADD_FAILURE() << "no error";
        } catch (const Exception& error) {
            std::string message = error.what();
            EXPECT_NE(message.find("on line 5002 (byte "), std::string::npos) << message;
            EXPECT_NE(message.find("column \"a\": could not convert \"12x\" to BIGINT"),
                      std::string::npos)
                << message;
            EXPECT_NE(message.find(path), std::string::npos) << message;
        }
    }
    auto skipped = connection.Query("SELECT count(*) FROM read_csv('" + path +
                                    "', ignore_errors = true, sample_size = 100, "
                                    "buffer_size = 1000)");
    EXPECT_EQ(skipped->GetValue(0, 0).ToString(), "5000");
}

TEST(CsvReader, BadInputAndAbsurdOptionsAreClearErrors) {
    Database database;
    Connection connection(database);
    auto expect_error = [&](const std::string& sql, const std::string& part) {
        try {
            connection.Query(sql);
            ADD_FAILURE() << "no error for " << sql;
        } catch (const Exception& error) {
            EXPECT_NE(std::string(error.what()).find(part), std::string::npos)
                << sql << ": " << error.what();
        }
    };
    std::string unterminated = WriteFile("sluice_unterminated.csv", "a,b\n1,\"open\n2,3\n");
    expect_error("SELECT * FROM read_csv('" + unterminated + "', delim = ',', quote = '\"')",
                 "unterminated quoted field");
    std::string long_line =
        WriteFile("sluice_long_line.csv", "a\n" + std::string(5000, 'x') + "\n");
    expect_error("SELECT * FROM read_csv('" + long_line + "', max_line_size = 1000)",
                 "longer than 1000 bytes");
    std::string invalid = WriteFile("sluice_invalid_utf8.csv", "a,b\n1,ok\n2,\xff\xfe\n");
    expect_error("SELECT * FROM read_csv('" + invalid + "')", "invalid UTF-8");
    std::string plain = WriteFile("sluice_plain.csv", "a,b\n1,2\n");
    expect_error("SELECT * FROM read_csv('" + plain + "', buffer_size = 0)", "buffer_size");
    expect_error("SELECT * FROM read_csv('" + plain + "', delim = '')", "delim");
    expect_error("SELECT * FROM read_csv('" + plain + "', delim = 'abcde')", "delim");
    expect_error("SELECT * FROM read_csv('" + plain + "', quote = 'ab')", "quote");
    expect_error("SELECT * FROM read_csv('" + plain + "', sample_size = 0)", "sample_size");
    expect_error("SELECT * FROM read_csv('" + plain + "', nonsense = 1)", "no parameter");
    expect_error("SELECT * FROM read_csv('/nonexistent/sluice.csv')", "/nonexistent/sluice.csv");
    std::string short_row = WriteFile("sluice_short_row.csv", "a,b,c\n1,2,3\n4,5\n");
    expect_error("SELECT * FROM read_csv('" + short_row + "', delim = ',')",
                 "on line 3 (byte 12): expected 3 columns, found 2");
    EXPECT_EQ(Rows(connection,
                   "SELECT * FROM read_csv('" + short_row + "', delim = ',', null_padding = true)"),
              (std::vector<std::string>{"1|2|3", "4|5|NULL"}));
}

TEST(CsvReader, ProjectionFiltersFilenameAndHivePartitions) {
    auto root = std::filesystem::temp_directory_path() / "sluice_hive";
    std::filesystem::remove_all(root);
    for (int year : {2020, 2021}) {
        auto folder = root / ("year=" + std::to_string(year));
        std::filesystem::create_directories(folder);
        std::ofstream(folder / "part.csv") << "k,v\n1,a\n2,b\n";
    }
    Database database;
    Connection connection(database);
    std::string glob = (root / "*" / "*.csv").string();
    EXPECT_EQ(Rows(connection,
                   "SELECT year, k, v FROM read_csv('" + glob + "') WHERE year = 2021 ORDER BY k"),
              (std::vector<std::string>{"2021|1|a", "2021|2|b"}));
    auto types = connection.Query("SELECT * FROM read_csv('" + glob + "')");
    EXPECT_EQ(types->types()[2], LogicalType(LogicalTypeId::BIGINT));
    auto given = connection.Query("SELECT * FROM read_csv('" + glob +
                                  "', hive_types = {'year': 'VARCHAR'})");
    EXPECT_EQ(given->types()[2], LogicalType(LogicalTypeId::VARCHAR));
    EXPECT_THROW(connection.Query("SELECT * FROM read_csv('" + glob +
                                  "', hive_types = {'year': 'NOSUCHTYPE'})"),
                 Exception);
    auto profile = connection.Query("EXPLAIN ANALYZE SELECT k FROM read_csv('" + glob +
                                    "') WHERE year = 2020");
    EXPECT_NE(profile->GetValue(1, 0).ToString().find("1 pruned by partition"), std::string::npos)
        << profile->GetValue(1, 0).ToString();
    auto named = Rows(connection, "SELECT k, filename FROM read_csv('" + glob +
                                      "', filename = true, hive_partitioning = false) ORDER BY "
                                      "filename, k LIMIT 1");
    ASSERT_EQ(named.size(), 1u);
    EXPECT_NE(named[0].find("year=2020/part.csv"), std::string::npos) << named[0];
}

TEST(CsvReader, TpchQ1AndQ6OverCsvEqualParquet) {
    auto dir = std::filesystem::temp_directory_path() / "sluice_csv_tpch";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::string csv = (dir / "lineitem.csv").string();
    std::string parquet = (dir / "lineitem.parquet").string();
    {
        Database database;
        Connection connection(database);
        connection.Query("CALL dbgen(sf = 0.01)");
        connection.Query("COPY lineitem TO '" + csv + "'");
        connection.Query("COPY lineitem TO '" + parquet + "'");
    }
    // The CSV's money columns typed as the Parquet file's, so that results are exactly equal.
    std::string decimals = "types = {'l_quantity': 'DECIMAL(15,2)', 'l_extendedprice': "
                           "'DECIMAL(15,2)', 'l_discount': 'DECIMAL(15,2)', 'l_tax': "
                           "'DECIMAL(15,2)'}";
    auto results = [&](const std::string& view) {
        Database database;
        Connection connection(database);
        connection.Query("SET threads = 2");
        connection.Query("CREATE VIEW lineitem AS SELECT * FROM " + view);
        return std::make_pair(Rows(connection, "PRAGMA tpch(1)"),
                              Rows(connection, "PRAGMA tpch(6)"));
    };
    auto from_parquet = results("read_parquet('" + parquet + "')");
    auto from_csv = results("read_csv('" + csv + "', buffer_size = 100000, " + decimals + ")");
    ASSERT_EQ(from_parquet.first.size(), 4u);
    EXPECT_EQ(from_csv.first, from_parquet.first);
    EXPECT_EQ(from_csv.second, from_parquet.second);
}

TEST(CsvReader, DateAndTimestampFormatsGivenOrSniffed) {
    // What DuckDB 1.5.6 does with this file, option by option.
    std::string path = WriteFile("sluice_formats.csv", "d,ts\n05/06/2019,06-05-2019 01:02:03 PM\n"
                                                       "31/12/2020,31-12-2020 11:59:59 AM\n");
    Database database;
    Connection connection(database);
    auto read = [&](const std::string& options) {
        return "SELECT * FROM read_csv('" + path + "'" + options + ")";
    };
    // Sniffed: day-first dates (31/12 rules out month-first); a day-first 12-hour timestamp is
    // none of the candidates, so text.
    auto sniffed = connection.Query(read(""));
    EXPECT_EQ(sniffed->types()[0], LogicalType(LogicalTypeId::DATE));
    EXPECT_EQ(sniffed->types()[1], LogicalType(LogicalTypeId::VARCHAR));
    EXPECT_EQ(Rows(connection, read("")),
              (std::vector<std::string>{"2019-06-05|06-05-2019 01:02:03 PM",
                                        "2020-12-31|31-12-2020 11:59:59 AM"}));
    // Given formats are the sniffer's candidates: one that fits is used ...
    EXPECT_EQ(Rows(connection, read(", timestampformat = '%d-%m-%Y %I:%M:%S %p'")),
              (std::vector<std::string>{"2019-06-05|2019-05-06 13:02:03",
                                        "2020-12-31|2020-12-31 11:59:59"}));
    // ... one that does not leaves the column text, and with the type given it is an error.
    EXPECT_EQ(connection.Query(read(", dateformat = '%m/%d/%Y'"))->types()[0],
              LogicalType(LogicalTypeId::VARCHAR));
    try {
        connection.Query(read(", dateformat = '%m/%d/%Y', types = {'d': 'DATE'}"));
        ADD_FAILURE() << "no error";
    } catch (const Exception& error) {
        EXPECT_NE(std::string(error.what())
                      .find("on line 3 (byte 39): column \"d\": could not "
                            "convert \"31/12/2020\" to DATE"),
                  std::string::npos)
            << error.what();
    }
    try {
        connection.Query(read(", timestampformat = '%Q'"));
        ADD_FAILURE() << "no error";
    } catch (const Exception& error) {
        EXPECT_NE(std::string(error.what()).find("%Q, which is not supported"), std::string::npos)
            << error.what();
    }
}

TEST(CsvReader, StoredRejectsNameTheSameLinesInParallelAsInOrder) {
    std::string text = AwkwardCsv(3000, false, "\n");
    // Every 97th row gets an amount that is no number, every 89th an extra column.
    std::string bad;
    size_t row = 0;
    for (size_t start = 0; start < text.size();) {
        size_t end = text.find('\n', start);
        std::string line = text.substr(start, end - start);
        if (row > 0 && !line.empty() && row % 97 == 0) {
            line += "x";
        } else if (row > 0 && !line.empty() && row % 89 == 0) {
            line += ",extra";
        }
        bad += line + "\n";
        start = end + 1;
        row += line.empty() ? 0 : 1;
    }
    std::string path = WriteFile("sluice_rejects.csv", bad);
    Database database;
    Connection connection(database);
    const std::string columns =
        "columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'amount': 'DOUBLE'}, header = true";
    auto rejects = [&](const std::string& options, const std::string& table) {
        connection.Query("SELECT count(*), sum(amount) FROM read_csv('" + path + "', " + columns +
                         ", rejects_table = '" + table + "', rejects_scan = '" + table +
                         "_scans', " + options + ")");
        return Rows(connection, "SELECT line, line_byte_position, error_type, csv_line FROM " +
                                    table + " ORDER BY line");
    };
    std::vector<std::string> in_order = rejects("parallel = false", "in_order");
    EXPECT_EQ(in_order.size(), 63u); // 30 amounts, 33 extra columns
    connection.Query("SET threads = 4");
    EXPECT_EQ(rejects("buffer_size = 1000", "parallel_small"), in_order);
    EXPECT_EQ(rejects("buffer_size = 100000", "parallel_large"), in_order);
    // Without store_rejects, the error names one of those lines (whichever job met its error
    // first) and the value on it.
    try {
        connection.Query("SELECT * FROM read_csv('" + path + "', " + columns +
                         ", buffer_size = 1000)");
        ADD_FAILURE() << "no error";
    } catch (const Exception& error) {
        std::string message = error.what();
        size_t at = message.find("on line ") + 8;
        std::string line = message.substr(at, message.find(' ', at) - at);
        auto rejected = std::find_if(in_order.begin(), in_order.end(), [&](const auto& row) {
            return row.substr(0, row.find('|')) == line;
        });
        EXPECT_NE(rejected, in_order.end()) << message;
    }
}

TEST(CsvReader, DoublesParseToTheSameBitsAsFromChars) {
    csv::CsvReadOptions options;
    csv::CsvValueParser parser(LogicalTypeId::DOUBLE, options);
    Vector vector(LogicalTypeId::DOUBLE, 1);
    std::mt19937_64 random(7);
    for (int i = 0; i < 200000; i++) {
        // Up to 18 digits (past the fast path's 15), the point anywhere, a sign sometimes.
        std::string text = random() % 4 == 0 ? "-" : "";
        int digits = 1 + static_cast<int>(random() % 18);
        int point = static_cast<int>(random() % (digits + 1));
        for (int d = 0; d < digits; d++) {
            if (d == point && d > 0) {
                text += '.';
            }
            text += static_cast<char>('0' + random() % 10);
        }
        double expected = 0;
        auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), expected);
        ASSERT_TRUE(error == std::errc() && end == text.data() + text.size()) << text;
        ASSERT_TRUE(parser.Parse(text, vector, 0)) << text;
        double got = vector.data<double>()[0];
        ASSERT_EQ(std::memcmp(&got, &expected, sizeof(double)), 0)
            << text << ": " << got << " vs " << expected;
    }
}
