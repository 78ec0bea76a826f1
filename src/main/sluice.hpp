#pragma once

// The embedding API in one include: Database, Connection, QueryResult, Value.
#include "common/exception.hpp"
#include "common/value.hpp"
#include "main/connection.hpp"
#include "main/database.hpp"
#include "main/query_result.hpp"
