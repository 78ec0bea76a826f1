#include "tpch/tpch_tables.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "tpch/distributions.hpp"
#include "tpch/random_stream.hpp"
#include "tpch/text_pool.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sluice::tpch {

namespace {

// Clause 4.2.3's dates: orders are placed between STARTDATE and ENDDATE - 151 days; CURRENTDATE
// splits shipped (F) from open (O) lines and decides whether a line can have been returned.
const int32_t kStartDate = date::FromCivil(1992, 1, 1);
const int32_t kCurrentDate = date::FromCivil(1995, 6, 17);
const int32_t kEndDate = date::FromCivil(1998, 12, 31);

constexpr uint64_t kOrdersPerBlock = 1024;
// A prime; multiplying row numbers by it modulo the row count permutes them.
constexpr uint64_t kCommentPermutation = 1000003;
constexpr int64_t kLinesPerOrderSlot = 8; // line streams are numbered order * 8 + line

// One random stream per row and table; the seeds only need to differ.
enum Seed : uint64_t {
    kPartSeed = 11,
    kSupplierSeed,
    kPartSuppSeed,
    kCustomerSeed,
    kOrderSeed,
    kLineSeed,
    kNationSeed,
    kRegionSeed,
};

struct Cardinalities {
    int64_t parts, suppliers, customers, orders;

    explicit Cardinalities(double sf)
        : parts(Scaled(200000, sf)), suppliers(std::max<int64_t>(4, Scaled(10000, sf))),
          customers(Scaled(150000, sf)), orders(Scaled(1500000, sf)) {}
    static int64_t Scaled(double base, double sf) {
        return std::max<int64_t>(1, static_cast<int64_t>(std::floor(base * sf + 1e-9)));
    }
};

LogicalType Money() {
    return LogicalType::Decimal(15, 2);
}

TableSchema Schema(std::vector<std::pair<std::string, LogicalType>> columns) {
    TableSchema schema;
    for (auto& [name, type] : columns) {
        schema.names.push_back(name);
        schema.types.push_back(type);
    }
    return schema;
}

// Writes into the columns of one chunk row by row.
class RowWriter {
public:
    explicit RowWriter(DataChunk& chunk) : chunk_(chunk) {}

    void Int32(idx_t column, idx_t row, int64_t value) {
        chunk_.column(column).data<int32_t>()[row] = static_cast<int32_t>(value);
    }
    void Int64(idx_t column, idx_t row, int64_t value) {
        chunk_.column(column).data<int64_t>()[row] = value;
    }
    // Text whose storage outlives the chunk: the text pool or a string literal.
    void Static(idx_t column, idx_t row, std::string_view text) {
        chunk_.column(column).data<string_t>()[row] =
            string_t(text.data(), static_cast<uint32_t>(text.size()));
    }
    void Copy(idx_t column, idx_t row, std::string_view text) {
        Vector& vector = chunk_.column(column);
        vector.data<string_t>()[row] = vector.AddString(text);
    }
    template <class... Args>
    void Format(idx_t column, idx_t row, const char* format, Args... args) {
        char buffer[64];
        int length = std::snprintf(buffer, sizeof(buffer), format, args...);
        Copy(column, row, std::string_view(buffer, static_cast<size_t>(length)));
    }

private:
    DataChunk& chunk_;
};

// A string of random characters of random length in [min, max] (clause 4.2.2.7's v-string).
std::string RandomCharacters(RandomStream& random, int64_t min_length, int64_t max_length) {
    static constexpr std::string_view kAlphabet =
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ,.";
    std::string text(static_cast<size_t>(random.Uniform(min_length, max_length)), ' ');
    for (char& c : text) {
        c = kAlphabet[static_cast<size_t>(random.Uniform(0, kAlphabet.size() - 1))];
    }
    return text;
}

// Clause 4.2.2.9: country code (nation key + 10) and three local groups.
void WritePhone(RowWriter& out, idx_t column, idx_t row, RandomStream& random, int64_t nation) {
    int64_t a = random.Uniform(100, 999), b = random.Uniform(100, 999),
            c = random.Uniform(1000, 9999);
    out.Format(column, row, "%02lld-%03lld-%03lld-%04lld", static_cast<long long>(nation + 10),
               static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(c));
}

// p_retailprice in cents (clause 4.2.3): (90000 + ((key / 10) mod 20001) + 100 * (key mod 1000)).
int64_t RetailPriceCents(int64_t part_key) {
    return 90000 + ((part_key / 10) % 20001) + 100 * (part_key % 1000);
}

// The supplier of part `part_key`'s `index`-th (0-3) partsupp row (clause 4.2.3).
int64_t SupplierOf(int64_t part_key, int64_t index, int64_t suppliers) {
    return (part_key + index * (suppliers / 4 + (part_key - 1) / suppliers)) % suppliers + 1;
}

// Order keys are sparse: of every 32 keys only the first 8 are used (clause 4.2.3).
int64_t OrderKey(uint64_t order_index) {
    return static_cast<int64_t>((order_index / 8) * 32 + order_index % 8 + 1);
}

// What an order draws first: its number of lines and its date, needed by its lineitems.
struct OrderHead {
    int64_t lines;
    int32_t order_date;
};

OrderHead DrawOrderHead(RandomStream& random) {
    OrderHead head;
    head.lines = random.Uniform(1, 7);
    head.order_date = static_cast<int32_t>(random.Uniform(kStartDate, kEndDate - 151));
    return head;
}

int64_t LineCount(uint64_t order_index) {
    RandomStream random(kOrderSeed, order_index);
    return random.Uniform(1, 7);
}

struct Line {
    int64_t part_key, supplier_key, quantity, discount, tax; // discount, tax in hundredths
    int32_t ship_date, commit_date, receipt_date;
    std::string_view return_flag, instruction, mode, comment;

    int64_t ExtendedPriceCents() const { return quantity * RetailPriceCents(part_key); }
    bool Shipped() const { return ship_date <= kCurrentDate; }
};

// `pool` is null when the text columns are not wanted.
Line DrawLine(uint64_t order_index, int64_t line_number, int32_t order_date,
              const Cardinalities& counts, const TextPool* pool) {
    const Distributions& d = Distributions::Get();
    RandomStream random(kLineSeed,
                        order_index * kLinesPerOrderSlot + static_cast<uint64_t>(line_number));
    Line line;
    line.part_key = random.Uniform(1, counts.parts);
    line.supplier_key = SupplierOf(line.part_key, random.Uniform(0, 3), counts.suppliers);
    line.quantity = random.Uniform(1, 50);
    line.discount = random.Uniform(0, 10);
    line.tax = random.Uniform(0, 8);
    line.ship_date = order_date + static_cast<int32_t>(random.Uniform(1, 121));
    line.commit_date = order_date + static_cast<int32_t>(random.Uniform(30, 90));
    line.receipt_date = line.ship_date + static_cast<int32_t>(random.Uniform(1, 30));
    bool returned = random.Uniform(0, 1) == 0;
    line.return_flag = line.receipt_date <= kCurrentDate ? (returned ? "R" : "A") : "N";
    if (pool) {
        line.instruction = d.instructions.Pick(random);
        line.mode = d.modes.Pick(random);
        line.comment = pool->Text(random, 10, 43);
    }
    return line;
}

} // namespace

const std::vector<Table>& AllTables() {
    static const std::vector<Table> tables = {Table::Part,     Table::Supplier, Table::PartSupp,
                                              Table::Customer, Table::Orders,   Table::LineItem,
                                              Table::Nation,   Table::Region};
    return tables;
}

const std::string& TableName(Table table) {
    static const std::string names[] = {"part",   "supplier", "partsupp", "customer",
                                        "orders", "lineitem", "nation",   "region"};
    return names[static_cast<size_t>(table)];
}

std::optional<Table> TableFromName(const std::string& name) {
    for (Table table : AllTables()) {
        if (TableName(table) == name) {
            return table;
        }
    }
    return std::nullopt;
}

const TableSchema& SchemaOf(Table table) {
    static const LogicalType kInt = LogicalTypeId::INTEGER, kBig = LogicalTypeId::BIGINT,
                             kText = LogicalTypeId::VARCHAR, kDate = LogicalTypeId::DATE;
    static const TableSchema schemas[] = {
        Schema({{"p_partkey", kInt},
                {"p_name", kText},
                {"p_mfgr", kText},
                {"p_brand", kText},
                {"p_type", kText},
                {"p_size", kInt},
                {"p_container", kText},
                {"p_retailprice", Money()},
                {"p_comment", kText}}),
        Schema({{"s_suppkey", kInt},
                {"s_name", kText},
                {"s_address", kText},
                {"s_nationkey", kInt},
                {"s_phone", kText},
                {"s_acctbal", Money()},
                {"s_comment", kText}}),
        Schema({{"ps_partkey", kInt},
                {"ps_suppkey", kInt},
                {"ps_availqty", kInt},
                {"ps_supplycost", Money()},
                {"ps_comment", kText}}),
        Schema({{"c_custkey", kInt},
                {"c_name", kText},
                {"c_address", kText},
                {"c_nationkey", kInt},
                {"c_phone", kText},
                {"c_acctbal", Money()},
                {"c_mktsegment", kText},
                {"c_comment", kText}}),
        Schema({{"o_orderkey", kBig},
                {"o_custkey", kInt},
                {"o_orderstatus", kText},
                {"o_totalprice", Money()},
                {"o_orderdate", kDate},
                {"o_orderpriority", kText},
                {"o_clerk", kText},
                {"o_shippriority", kInt},
                {"o_comment", kText}}),
        Schema({{"l_orderkey", kBig},
                {"l_partkey", kInt},
                {"l_suppkey", kInt},
                {"l_linenumber", kInt},
                {"l_quantity", Money()},
                {"l_extendedprice", Money()},
                {"l_discount", Money()},
                {"l_tax", Money()},
                {"l_returnflag", kText},
                {"l_linestatus", kText},
                {"l_shipdate", kDate},
                {"l_commitdate", kDate},
                {"l_receiptdate", kDate},
                {"l_shipinstruct", kText},
                {"l_shipmode", kText},
                {"l_comment", kText}}),
        Schema({{"n_nationkey", kInt},
                {"n_name", kText},
                {"n_regionkey", kInt},
                {"n_comment", kText}}),
        Schema({{"r_regionkey", kInt}, {"r_name", kText}, {"r_comment", kText}}),
    };
    return schemas[static_cast<size_t>(table)];
}

void CheckScaleFactor(double scale_factor) {
    if (!(scale_factor > 0) || !std::isfinite(scale_factor) || scale_factor > 100000) {
        throw Exception(ErrorKind::InvalidInput,
                        "TPC-H scale factor must be greater than 0 and at most 100000, got " +
                            FormatDouble(scale_factor));
    }
}

TableGenerator::TableGenerator(Table table, double scale_factor) : table_(table) {
    CheckScaleFactor(scale_factor);
    scale_factor_ = scale_factor;
    Cardinalities counts(scale_factor);
    switch (table) {
    case Table::Part:
        row_count_ = static_cast<uint64_t>(counts.parts);
        break;
    case Table::Supplier:
        row_count_ = static_cast<uint64_t>(counts.suppliers);
        break;
    case Table::PartSupp:
        row_count_ = static_cast<uint64_t>(counts.parts) * 4;
        break;
    case Table::Customer:
        row_count_ = static_cast<uint64_t>(counts.customers);
        break;
    case Table::Orders:
        row_count_ = static_cast<uint64_t>(counts.orders);
        break;
    case Table::LineItem: {
        auto orders = static_cast<uint64_t>(counts.orders);
        block_first_line_.reserve(orders / kOrdersPerBlock + 2);
        uint64_t lines = 0;
        for (uint64_t order = 0; order < orders; order++) {
            if (order % kOrdersPerBlock == 0) {
                block_first_line_.push_back(lines);
            }
            lines += static_cast<uint64_t>(LineCount(order));
        }
        row_count_ = lines;
        break;
    }
    case Table::Nation:
        row_count_ = 25;
        break;
    case Table::Region:
        row_count_ = 5;
        break;
    }
}

void TableGenerator::Generate(uint64_t first, idx_t count, DataChunk& chunk) const {
    if (table_ == Table::LineItem) {
        GenerateLineItems(first, count, chunk);
        return;
    }
    const Distributions& d = Distributions::Get();
    const TextPool& pool = TextPool::Get();
    Cardinalities counts(scale_factor_);
    RowWriter out(chunk);
    for (idx_t row = 0; row < count; row++) {
        uint64_t index = first + row;
        auto key = static_cast<int64_t>(index + 1);
        switch (table_) {
        case Table::Part: {
            RandomStream random(kPartSeed, index);
            std::string_view words[5];
            std::string name;
            for (int i = 0; i < 5; i++) { // five distinct colours
                do {
                    words[i] = d.colors.Pick(random);
                } while (std::find(words, words + i, words[i]) != words + i);
                if (i > 0) {
                    name += ' ';
                }
                name += words[i];
            }
            int64_t manufacturer = random.Uniform(1, 5);
            out.Int32(0, row, key);
            out.Copy(1, row, name);
            out.Format(2, row, "Manufacturer#%lld", static_cast<long long>(manufacturer));
            out.Format(3, row, "Brand#%lld%lld", static_cast<long long>(manufacturer),
                       static_cast<long long>(random.Uniform(1, 5)));
            out.Copy(4, row,
                     std::string(d.type_size.Pick(random)) + " " +
                         std::string(d.type_finish.Pick(random)) + " " +
                         std::string(d.type_material.Pick(random)));
            out.Int32(5, row, random.Uniform(1, 50));
            out.Copy(6, row,
                     std::string(d.container_size.Pick(random)) + " " +
                         std::string(d.container_kind.Pick(random)));
            out.Int64(7, row, RetailPriceCents(key));
            out.Static(8, row, pool.Text(random, 5, 22));
            break;
        }
        case Table::Supplier: {
            RandomStream random(kSupplierSeed, index);
            out.Int32(0, row, key);
            out.Format(1, row, "Supplier#%09lld", static_cast<long long>(key));
            out.Copy(2, row, RandomCharacters(random, 10, 40));
            int64_t nation = random.Uniform(0, 24);
            out.Int32(3, row, nation);
            WritePhone(out, 4, row, random, nation);
            out.Int64(5, row, random.Uniform(-99999, 999999));
            std::string_view comment = pool.Text(random, 25, 100);
            // SF x 5 suppliers (at least one) have a complaint and as many a recommendation
            // (clause 4.2.3), which Q16 looks for: "Customer" then, later, the verdict. Rows are
            // picked through a permutation of the row numbers, so the count is exact.
            auto suppliers = static_cast<uint64_t>(counts.suppliers);
            uint64_t chosen = std::max<uint64_t>(1, (suppliers + 1999) / 2000);
            uint64_t rank = (index * kCommentPermutation) % suppliers;
            if (rank < 2 * chosen) {
                std::string text(comment);
                std::string_view verdict = rank < chosen ? "Complaints" : "Recommends";
                std::string mention = "Customer " + std::string(verdict);
                if (text.size() < mention.size()) {
                    text = mention;
                } else {
                    auto at = static_cast<size_t>(
                        random.Uniform(0, static_cast<int64_t>(text.size() - mention.size())));
                    text.replace(at, mention.size(), mention);
                }
                out.Copy(6, row, text);
            } else {
                out.Static(6, row, comment);
            }
            break;
        }
        case Table::PartSupp: {
            RandomStream random(kPartSuppSeed, index);
            int64_t part = static_cast<int64_t>(index / 4) + 1;
            out.Int32(0, row, part);
            out.Int32(1, row, SupplierOf(part, static_cast<int64_t>(index % 4), counts.suppliers));
            out.Int32(2, row, random.Uniform(1, 9999));
            out.Int64(3, row, random.Uniform(100, 100000));
            out.Static(4, row, pool.Text(random, 49, 198));
            break;
        }
        case Table::Customer: {
            RandomStream random(kCustomerSeed, index);
            out.Int32(0, row, key);
            out.Format(1, row, "Customer#%09lld", static_cast<long long>(key));
            out.Copy(2, row, RandomCharacters(random, 10, 40));
            int64_t nation = random.Uniform(0, 24);
            out.Int32(3, row, nation);
            WritePhone(out, 4, row, random, nation);
            out.Int64(5, row, random.Uniform(-99999, 999999));
            out.Static(6, row, d.segments.Pick(random));
            out.Static(7, row, pool.Text(random, 29, 116));
            break;
        }
        case Table::Orders: {
            RandomStream random(kOrderSeed, index);
            OrderHead head = DrawOrderHead(random);
            // Customers whose key is a multiple of 3 place no orders (clause 4.2.3).
            int64_t eligible = counts.customers - counts.customers / 3;
            int64_t pick = random.Uniform(0, std::max<int64_t>(eligible, 1) - 1);
            out.Int64(0, row, OrderKey(index));
            out.Int32(1, row, (pick / 2) * 3 + pick % 2 + 1);
            // Status and total price follow from the order's lines.
            __int128 total = 0; // in 1/1,000,000 cents
            int64_t shipped = 0;
            for (int64_t number = 1; number <= head.lines; number++) {
                Line line = DrawLine(index, number, head.order_date, counts, nullptr);
                total += static_cast<__int128>(line.ExtendedPriceCents()) * (100 - line.discount) *
                         (100 + line.tax);
                shipped += line.Shipped() ? 1 : 0;
            }
            out.Static(2, row, shipped == head.lines ? "F" : (shipped == 0 ? "O" : "P"));
            out.Int64(3, row, static_cast<int64_t>((total + 5000) / 10000));
            out.Int32(4, row, head.order_date);
            out.Static(5, row, d.priorities.Pick(random));
            int64_t clerks = std::max<int64_t>(1, Cardinalities::Scaled(1000, scale_factor_));
            out.Format(6, row, "Clerk#%09lld", static_cast<long long>(random.Uniform(1, clerks)));
            out.Int32(7, row, 0);
            out.Static(8, row, pool.Text(random, 19, 78));
            break;
        }
        case Table::Nation: {
            RandomStream random(kNationSeed, index);
            out.Int32(0, row, static_cast<int64_t>(index));
            out.Static(1, row, kNations[index].name);
            out.Int32(2, row, kNations[index].region);
            out.Static(3, row, pool.Text(random, 31, 114));
            break;
        }
        case Table::Region: {
            RandomStream random(kRegionSeed, index);
            out.Int32(0, row, static_cast<int64_t>(index));
            out.Static(1, row, kRegions[index]);
            out.Static(2, row, pool.Text(random, 31, 115));
            break;
        }
        case Table::LineItem:
            break;
        }
    }
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        chunk.column(column).KeepAlive(TextPool::Owner());
    }
    chunk.SetSize(count);
}

void TableGenerator::GenerateLineItems(uint64_t first, idx_t count, DataChunk& chunk) const {
    Cardinalities counts(scale_factor_);
    auto block = static_cast<uint64_t>(
        std::upper_bound(block_first_line_.begin(), block_first_line_.end(), first) -
        block_first_line_.begin() - 1);
    uint64_t order = block * kOrdersPerBlock;
    uint64_t line_row = block_first_line_[block];
    // Walk to the order holding row `first`.
    while (line_row + static_cast<uint64_t>(LineCount(order)) <= first) {
        line_row += static_cast<uint64_t>(LineCount(order));
        order++;
    }
    auto line_number = static_cast<int64_t>(first - line_row) + 1;
    RandomStream order_random(kOrderSeed, order);
    OrderHead head = DrawOrderHead(order_random);
    RowWriter out(chunk);
    const TextPool& pool = TextPool::Get();
    for (idx_t row = 0; row < count; row++) {
        if (line_number > head.lines) {
            order++;
            line_number = 1;
            order_random = RandomStream(kOrderSeed, order);
            head = DrawOrderHead(order_random);
        }
        Line line = DrawLine(order, line_number, head.order_date, counts, &pool);
        out.Int64(0, row, OrderKey(order));
        out.Int32(1, row, line.part_key);
        out.Int32(2, row, line.supplier_key);
        out.Int32(3, row, line_number);
        out.Int64(4, row, line.quantity * 100);
        out.Int64(5, row, line.ExtendedPriceCents());
        out.Int64(6, row, line.discount);
        out.Int64(7, row, line.tax);
        out.Static(8, row, line.return_flag);
        out.Static(9, row, line.Shipped() ? "F" : "O");
        out.Int32(10, row, line.ship_date);
        out.Int32(11, row, line.commit_date);
        out.Int32(12, row, line.receipt_date);
        out.Static(13, row, line.instruction);
        out.Static(14, row, line.mode);
        out.Static(15, row, line.comment);
        line_number++;
    }
    chunk.column(15).KeepAlive(TextPool::Owner());
    chunk.SetSize(count);
}

} // namespace sluice::tpch
