#include "common/memory_size.hpp"
#include "main/sluice.hpp"

#include <gtest/gtest.h>

#include <thread>

using namespace sluice;

namespace {

std::string ErrorOf(Connection& connection, const std::string& sql) {
    try {
        connection.Query(sql);
    } catch (const Exception& error) {
        return error.what();
    }
    return "";
}

} // namespace

TEST(Settings, DefaultsFollowTheMachine) {
    Database database;
    Settings& settings = database.settings();
    int64_t cores = std::max(1u, std::thread::hardware_concurrency());
    EXPECT_EQ(settings.GetInteger("threads"), cores);
    EXPECT_EQ(settings.GetInteger("async_threads"), std::min<int64_t>(4 * cores, 256));
    EXPECT_EQ(settings.GetInteger("read_ahead_depth"), -1);
    EXPECT_EQ(settings.GetInteger("http_retries"), 3);
    EXPECT_EQ(settings.GetInteger("http_retry_wait_ms"), 100);
    EXPECT_EQ(settings.GetDouble("http_retry_backoff"), 4.0);
    EXPECT_TRUE(settings.GetBoolean("enable_external_file_cache"));
    EXPECT_EQ(static_cast<uint64_t>(settings.GetInteger("memory_limit")),
              SystemMemoryBytes() / 10 * 8);
    EXPECT_EQ(database.scheduler().RegularThreads(), cores);
}

TEST(Settings, SetValidatesAndAppliesPoolSizes) {
    Database database;
    Connection connection(database);
    connection.Query("SET threads = 3");
    EXPECT_EQ(database.scheduler().RegularThreads(), 3u);
    // async_threads follows threads until it is set itself.
    EXPECT_EQ(database.scheduler().AsyncThreads(), 12u);
    connection.Query("SET async_threads TO 5");
    EXPECT_EQ(database.scheduler().AsyncThreads(), 5u);
    connection.Query("SET threads = '1'");
    EXPECT_EQ(database.scheduler().AsyncThreads(), 5u);
    connection.Query("RESET async_threads");
    EXPECT_EQ(database.scheduler().AsyncThreads(), 4u);
    connection.Query("SET read_ahead_depth = 0");
    EXPECT_EQ(database.settings().GetInteger("read_ahead_depth"), 0);
}

TEST(Settings, OutOfRangeValuesNameTheSettingAndTheRange) {
    Database database;
    Connection connection(database);
    EXPECT_EQ(ErrorOf(connection, "SET async_threads = 1000"),
              "Invalid Input Error: Invalid value for setting \"async_threads\": must be between "
              "1 and 256, got 1000");
    EXPECT_NE(ErrorOf(connection, "SET async_threads = 0").find("between 1 and 256"),
              std::string::npos);
    EXPECT_NE(ErrorOf(connection, "SET threads = 0").find("\"threads\""), std::string::npos);
    EXPECT_NE(ErrorOf(connection, "SET read_ahead_depth = -2").find("-1, 0 or between"),
              std::string::npos);
    EXPECT_NE(ErrorOf(connection, "SET memory_limit = 'lots'").find("'4GB', '512MiB' or '80%'"),
              std::string::npos);
    EXPECT_NE(ErrorOf(connection, "SET http_retry_backoff = 0.5").find("between 1 and 100"),
              std::string::npos);
    EXPECT_NE(ErrorOf(connection, "SET threads = 'many'").find("expected a BIGINT"),
              std::string::npos);
    EXPECT_NE(ErrorOf(connection, "SET no_such_thing = 1")
                  .find("Catalog Error: unrecognized configuration parameter \"no_such_thing\""),
              std::string::npos);
    // A rejected value leaves the old one in place.
    EXPECT_EQ(database.settings().GetInteger("async_threads"),
              std::min<int64_t>(4 * database.settings().GetInteger("threads"), 256));
}

TEST(Settings, MemoryLimitAcceptsUnitsAndPercentages) {
    Database database;
    Connection connection(database);
    connection.Query("SET memory_limit = '4GB'");
    EXPECT_EQ(database.settings().GetInteger("memory_limit"), 4000000000);
    EXPECT_EQ(database.settings().Display("memory_limit"), "3.7 GiB");
    connection.Query("SET memory_limit = '512MiB'");
    EXPECT_EQ(database.settings().GetInteger("memory_limit"), 512 << 20);
    EXPECT_EQ(database.settings().Display("memory_limit"), "512.0 MiB");
    connection.Query("SET memory_limit = '50%'");
    EXPECT_EQ(static_cast<uint64_t>(database.settings().GetInteger("memory_limit")),
              SystemMemoryBytes() / 2);
}

TEST(Settings, SluiceSettingsListsEverySetting) {
    Database database;
    Connection connection(database);
    auto result = connection.Query("SELECT * FROM sluice_settings()");
    ASSERT_EQ(result->names(),
              (std::vector<std::string>{"name", "value", "default", "description", "type"}));
    ASSERT_EQ(result->RowCount(), Settings::Definitions().size());
    for (idx_t row = 0; row < result->RowCount(); row++) {
        EXPECT_EQ(result->GetValue(0, row).GetString(), Settings::Definitions()[row].name);
        EXPECT_FALSE(result->GetValue(3, row).GetString().empty());
    }
}
