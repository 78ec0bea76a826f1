// Embedding Sluice: open a database, run SQL, read typed values and chunks.
//
//   build/embed_example
#include "main/sluice.hpp"

#include <iostream>

int main() {
    sluice::Database database;
    sluice::Connection connection(database);

    connection.Query("SET threads = 2");
    auto result = connection.Query(
        "SELECT 6 * 7 AS answer, 1.5 + 2.25 AS exact, DATE '2026-11-30' + 1 AS tomorrow");

    for (size_t i = 0; i < result->ColumnCount(); i++) {
        std::cout << result->names()[i] << " (" << result->types()[i].ToString()
                  << ") = " << result->GetValue(i, 0).ToString() << "\n";
    }

    // Results stream as chunks of up to 2048 rows.
    auto settings = connection.Query("SELECT name, value FROM sluice_settings()");
    while (auto chunk = settings->Fetch()) {
        for (sluice::idx_t row = 0; row < chunk->size(); row++) {
            std::cout << chunk->GetValue(0, row).ToString() << " = "
                      << chunk->GetValue(1, row).ToString() << "\n";
        }
    }

    try {
        connection.Query("SET async_threads = 1000");
    } catch (const sluice::Exception& error) {
        std::cout << "rejected as expected: " << error.what() << "\n";
    }
    return 0;
}
