#include "tpch/tpch_tables.hpp"

#include "common/date_time.hpp"
#include "common/exception.hpp"
#include "common/number_format.hpp"
#include "tpch/distributions.hpp"
#include "tpch/text_pool.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace sluice::tpch {

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
    // Text whose storage outlives the chunk: the text pool or the distributions.
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

namespace {

// Dates as dbgen draws them: days counted from STARTDATE (1992-01-01). Orders are placed up to
// 151 days before ENDDATE (1998-12-31) so that every line ships and arrives by then; CURRENTDATE
// (1995-06-17) splits shipped (F) from open (O) lines and decides whether a line can have been
// returned.
const int32_t kStartDate = date::FromCivil(1992, 1, 1);
const int32_t kCurrentDate = date::FromCivil(1995, 6, 17);
constexpr int64_t kOrderDays = 2557 - (121 + 30) - 1; // last order date, in days after the start

// dbgen's random number streams (its seed indexes, dss.h) with their seeds and the most numbers
// one row may draw from each (rnd.h). Stream 5 is the text pool's; 10 and 39 are never drawn.
enum Stream : int {
    kPartManufacturer = 0,
    kPartBrand = 1,
    kPartType = 2,
    kPartSize = 3,
    kPartContainer = 4,
    kPartComment = 6,
    kPartSuppQuantity = 7,
    kPartSuppCost = 8,
    kPartSuppComment = 9,
    kOrderClerk = 11,
    kOrderComment = 12,
    kOrderDate = 13,
    kLineQuantity = 14,
    kLineDiscount = 15,
    kLineTax = 16,
    kLineInstruction = 17,
    kLineMode = 18,
    kLinePart = 19,
    kLineSupplier = 20,
    kLineShipDate = 21,
    kLineCommitDate = 22,
    kLineReceiptDate = 23,
    kLineReturnFlag = 24,
    kLineComment = 25,
    kCustomerAddress = 26,
    kCustomerNation = 27,
    kCustomerPhone = 28,
    kCustomerBalance = 29,
    kCustomerSegment = 30,
    kCustomerComment = 31,
    kSupplierAddress = 32,
    kSupplierNation = 33,
    kSupplierPhone = 34,
    kSupplierBalance = 35,
    kSupplierComment = 36,
    kPartName = 37,
    kOrderPriority = 38,
    kOrderCustomer = 40,
    kNationComment = 41,
    kRegionComment = 42,
    kOrderLines = 43,
    kReviewNoise = 44,    // the gap between "Customer " and the verdict
    kReviewVerdict = 45,  // complaint or recommendation
    kReviewChosen = 46,   // whether the supplier has a review at all
    kReviewPosition = 47, // where the review starts
    kStreamCount = 48,
};

constexpr int64_t kMaxLines = 7;
constexpr uint64_t kOrdersPerBlock = 1024; // lineitem's index: first line of every block
constexpr int64_t kSuppliersPerPart = 4;

struct StreamSpec {
    int64_t seed;
    int64_t boundary;
};
constexpr StreamSpec kStreams[kStreamCount] = {
    {1, 1},
    {46831694, 1},
    {1841581359, 1},
    {1193163244, 1},
    {727633698, 1},
    {933588178, 1},
    {804159733, 2},
    {1671059989, kSuppliersPerPart},
    {1051288424, kSuppliersPerPart},
    {1961692154, kSuppliersPerPart * 2},
    {1227283347, 1},
    {1171034773, 1},
    {276090261, 2},
    {1066728069, 1},
    {209208115, kMaxLines},
    {554590007, kMaxLines},
    {721958466, kMaxLines},
    {1371272478, kMaxLines},
    {675466456, kMaxLines},
    {1808217256, kMaxLines},
    {2095021727, kMaxLines},
    {1769349045, kMaxLines},
    {904914315, kMaxLines},
    {373135028, kMaxLines},
    {717419739, kMaxLines},
    {1095462486, kMaxLines * 2},
    {881155353, 9},
    {1489529863, 1},
    {1521138112, 3},
    {298370230, 1},
    {1140279430, 1},
    {1335826707, 2},
    {706178559, 9},
    {110356601, 1},
    {884434366, 3},
    {962338209, 1},
    {1341315363, 2},
    {709314158, 92},
    {591449447, 1},
    {431918286, 1},
    {851767375, 1},
    {606179079, 2},
    {1500869201, 2},
    {1434868289, 1},
    {263032577, 1},
    {753643799, 1},
    {202794285, 1},
    {715851524, 1},
};

// The streams of one table, moved from row to row together as dbgen's row_stop moves them.
class RowStreams {
public:
    RowStreams(std::initializer_list<Stream> ids) : ids_(ids) {
        for (Stream id : ids_) {
            streams_[id] = DbgenStream(kStreams[id].seed, kStreams[id].boundary);
        }
    }
    DbgenStream& operator[](Stream id) { return streams_[id]; }
    void SeekRow(uint64_t row) {
        for (Stream id : ids_) {
            streams_[id].SeekRow(row);
        }
    }
    void EndRow() {
        for (Stream id : ids_) {
            streams_[id].EndRow();
        }
    }

private:
    std::vector<Stream> ids_;
    std::array<DbgenStream, kStreamCount> streams_;
};

// Row counts and key ranges at a scale factor, as dbgen computes them: below 1 every base count
// is scaled by the whole thousandths of the factor (at least one row), from 1 up by the whole
// factor. Clerks are never fewer than 1000.
struct Cardinalities {
    int64_t parts, suppliers, customers, orders, clerks;

    explicit Cardinalities(double sf) {
        if (sf < 1) {
            auto thousandths = static_cast<int64_t>(1000 * sf);
            auto scaled = [&](int64_t base) {
                return std::max<int64_t>(1, thousandths * base / 1000);
            };
            parts = scaled(200000);
            suppliers = scaled(10000);
            customers = scaled(150000);
            orders = scaled(1500000);
            clerks = 1000;
        } else {
            auto scale = static_cast<int64_t>(sf);
            parts = 200000 * scale;
            suppliers = 10000 * scale;
            customers = 150000 * scale;
            orders = 1500000 * scale;
            clerks = 1000 * scale;
        }
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

// dbgen's TEXT(average): pool text of length [0.4, 1.6] x average, bounds computed in doubles.
std::string_view Comment(DbgenStream& stream, int average) {
    return TextPool::Get().Text(stream, static_cast<int64_t>(average * 0.4),
                                static_cast<int64_t>(average * 1.6));
}

// dbgen's a_rnd (the specification's v-string, clause 4.2.2.7): a length in [min, max], then
// one draw per five characters, each character from six bits of the draw.
std::string RandomCharacters(DbgenStream& stream, int64_t min_length, int64_t max_length) {
    static constexpr char kAlphabet[] =
        "0123456789abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ,";
    std::string text(static_cast<size_t>(stream.Uniform(min_length, max_length)), ' ');
    int64_t bits = 0;
    for (size_t i = 0; i < text.size(); i++) {
        if (i % 5 == 0) {
            bits = stream.CharacterBits();
        }
        text[i] = kAlphabet[bits & 63];
        bits >>= 6;
    }
    return text;
}

// dbgen's V_STR(25): an address of 10 to 40 random characters.
std::string Address(DbgenStream& stream) {
    return RandomCharacters(stream, 10, 40);
}

// Clause 4.2.2.9: country code (nation key + 10) and three local groups.
void WritePhone(RowWriter& out, idx_t column, idx_t row, DbgenStream& stream, int64_t nation) {
    int64_t area = stream.Uniform(100, 999), exchange = stream.Uniform(100, 999),
            number = stream.Uniform(1000, 9999);
    out.Format(column, row, "%02d-%03d-%03d-%04d", static_cast<int>(10 + nation % 90),
               static_cast<int>(area), static_cast<int>(exchange), static_cast<int>(number));
}

// p_retailprice in cents (clause 4.2.3): 90000 + ((key / 10) mod 20001) + 100 * (key mod 1000).
int64_t RetailPriceCents(int64_t part_key) {
    return 90000 + ((part_key / 10) % 20001) + 100 * (part_key % 1000);
}

// The supplier of part `part_key`'s `index`-th (0-3) partsupp row (clause 4.2.3).
int64_t SupplierOf(int64_t part_key, int64_t index, int64_t suppliers) {
    return (part_key + index * (suppliers / kSuppliersPerPart + (part_key - 1) / suppliers)) %
               suppliers +
           1;
}

// Order keys are sparse: of every 32 keys only the first 8 are used (dbgen's mk_sparse of the
// 1-based order number).
int64_t OrderKey(uint64_t order_index) {
    auto number = static_cast<int64_t>(order_index + 1);
    return ((number >> 3) << 5) | (number & 7);
}

bool ShippedBy(int32_t date) {
    return date <= kCurrentDate;
}

struct LineDraw {
    int64_t part_key, supplier_key, quantity, discount, tax, extended_price; // money in cents
    int32_t ship_date, commit_date, receipt_date;
    std::string_view return_flag, line_status, instruction, mode, comment;
};

struct OrderDraw {
    int64_t customer_key, total_price, clerk, line_count;
    int32_t order_date;
    std::string_view status, priority, comment;
    LineDraw lines[kMaxLines];
};

const std::initializer_list<Stream> kOrderStreams = {
    kOrderClerk,   kOrderComment, kOrderDate,      kOrderPriority,   kOrderCustomer,  kOrderLines,
    kLineQuantity, kLineDiscount, kLineTax,        kLineInstruction, kLineMode,       kLinePart,
    kLineSupplier, kLineShipDate, kLineCommitDate, kLineReceiptDate, kLineReturnFlag, kLineComment};

// dbgen's mk_order: one order with its lines, from the streams positioned at its row. Without
// `line_text` the lines' instructions, modes and comments are not drawn (orders need only their
// prices and dates; their own streams are moved on at the row's end all the same).
void DrawOrder(RowStreams& s, const Cardinalities& counts, bool line_text, OrderDraw& order) {
    const Distributions& d = Distributions::Get();
    int64_t customer = s[kOrderCustomer].Uniform(1, counts.customers);
    // Customers whose key is a multiple of 3 place no orders: step to a neighbour.
    for (int64_t step = 1; customer % 3 == 0; step = -step) {
        customer = std::min(customer + step, counts.customers);
    }
    order.customer_key = customer;
    int64_t order_day = s[kOrderDate].Uniform(0, kOrderDays);
    order.order_date = kStartDate + static_cast<int32_t>(order_day);
    order.priority = d.priorities[d.priorities.Pick(s[kOrderPriority])];
    order.clerk = s[kOrderClerk].Uniform(1, counts.clerks);
    order.comment = Comment(s[kOrderComment], 49);
    order.line_count = s[kOrderLines].Uniform(1, kMaxLines);
    order.total_price = 0;
    int64_t shipped = 0;
    for (int64_t i = 0; i < order.line_count; i++) {
        LineDraw& line = order.lines[i];
        line.quantity = s[kLineQuantity].Uniform(1, 50);
        line.discount = s[kLineDiscount].Uniform(0, 10);
        line.tax = s[kLineTax].Uniform(0, 8);
        if (line_text) {
            line.instruction = d.instructions[d.instructions.Pick(s[kLineInstruction])];
            line.mode = d.ship_modes[d.ship_modes.Pick(s[kLineMode])];
            line.comment = Comment(s[kLineComment], 27);
        }
        line.part_key = s[kLinePart].Uniform(1, counts.parts);
        line.supplier_key =
            SupplierOf(line.part_key, s[kLineSupplier].Uniform(0, 3), counts.suppliers);
        line.extended_price = RetailPriceCents(line.part_key) * line.quantity;
        order.total_price +=
            line.extended_price * (100 - line.discount) / 100 * (100 + line.tax) / 100;
        line.ship_date = order.order_date + static_cast<int32_t>(s[kLineShipDate].Uniform(1, 121));
        line.commit_date =
            order.order_date + static_cast<int32_t>(s[kLineCommitDate].Uniform(30, 90));
        line.receipt_date =
            line.ship_date + static_cast<int32_t>(s[kLineReceiptDate].Uniform(1, 30));
        line.return_flag = ShippedBy(line.receipt_date)
                               ? d.return_flags[d.return_flags.Pick(s[kLineReturnFlag])]
                               : "N";
        line.line_status = ShippedBy(line.ship_date) ? "F" : "O";
        shipped += ShippedBy(line.ship_date) ? 1 : 0;
    }
    order.status = shipped == order.line_count ? "F" : (shipped > 0 ? "P" : "O");
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
    if (!(scale_factor > 0) || !std::isfinite(scale_factor) || scale_factor >= 30000) {
        throw Exception(ErrorKind::InvalidInput,
                        "TPC-H scale factor must be greater than 0 and below 30000, got " +
                            FormatDouble(scale_factor));
    }
    // dbgen scales by the whole factor from 1 up; a fraction would silently be dropped.
    if (scale_factor > 1 && scale_factor != std::floor(scale_factor)) {
        throw Exception(ErrorKind::InvalidInput,
                        "TPC-H scale factors above 1 must be whole numbers (as in dbgen), got " +
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
        row_count_ = static_cast<uint64_t>(counts.parts * kSuppliersPerPart);
        break;
    case Table::Customer:
        row_count_ = static_cast<uint64_t>(counts.customers);
        break;
    case Table::Orders:
        row_count_ = static_cast<uint64_t>(counts.orders);
        break;
    case Table::LineItem: {
        // Line counts are the only draws of their stream, one per order: count them in order.
        auto orders = static_cast<uint64_t>(counts.orders);
        block_first_line_.reserve(orders / kOrdersPerBlock + 2);
        DbgenStream line_counts(kStreams[kOrderLines].seed, kStreams[kOrderLines].boundary);
        uint64_t lines = 0;
        for (uint64_t order = 0; order < orders; order++) {
            if (order % kOrdersPerBlock == 0) {
                block_first_line_.push_back(lines);
            }
            lines += static_cast<uint64_t>(line_counts.Uniform(1, kMaxLines));
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
    RowWriter out(chunk);
    switch (table_) {
    case Table::Part:
        GenerateParts(first, count, out);
        break;
    case Table::PartSupp:
        GeneratePartSupps(first, count, out);
        break;
    case Table::Supplier:
        GenerateSuppliers(first, count, out);
        break;
    case Table::Customer:
        GenerateCustomers(first, count, out);
        break;
    case Table::Orders:
        GenerateOrders(first, count, out);
        break;
    case Table::LineItem:
        GenerateLineItems(first, count, out);
        break;
    case Table::Nation:
    case Table::Region: {
        bool nation = table_ == Table::Nation;
        RowStreams s({nation ? kNationComment : kRegionComment});
        s.SeekRow(first);
        for (idx_t row = 0; row < count; row++) {
            uint64_t index = first + row;
            out.Int32(0, row, static_cast<int64_t>(index));
            if (nation) {
                out.Static(1, row, kNations[index].name);
                out.Int32(2, row, kNations[index].region);
                out.Static(3, row, Comment(s[kNationComment], 72));
            } else {
                out.Static(1, row, kRegions[index]);
                out.Static(2, row, Comment(s[kRegionComment], 72));
            }
            s.EndRow();
        }
        break;
    }
    }
    for (idx_t column = 0; column < chunk.ColumnCount(); column++) {
        chunk.column(column).KeepAlive(TextPool::Owner());
    }
    chunk.SetSize(count);
}

void TableGenerator::GenerateParts(uint64_t first, idx_t count, RowWriter& out) const {
    const Distributions& d = Distributions::Get();
    RowStreams s({kPartManufacturer, kPartBrand, kPartType, kPartSize, kPartContainer, kPartComment,
                  kPartName});
    s.SeekRow(first);
    size_t colors[92];
    for (idx_t row = 0; row < count; row++) {
        auto key = static_cast<int64_t>(first + row + 1);
        // Five distinct colours: the first five of a random permutation (dbgen's agg_str).
        for (size_t i = 0; i < d.colors.size(); i++) {
            colors[i] = i;
        }
        for (size_t i = 0; i < d.colors.size(); i++) {
            auto other = static_cast<size_t>(s[kPartName].Uniform(
                static_cast<int64_t>(i), static_cast<int64_t>(d.colors.size() - 1)));
            std::swap(colors[i], colors[other]);
        }
        std::string name;
        for (size_t i = 0; i < 5; i++) {
            name += i ? " " : "";
            name += d.colors[colors[i]];
        }
        int64_t manufacturer = s[kPartManufacturer].Uniform(1, 5);
        int64_t brand = s[kPartBrand].Uniform(1, 5);
        out.Int32(0, row, key);
        out.Copy(1, row, name);
        out.Format(2, row, "Manufacturer#%d", static_cast<int>(manufacturer));
        out.Format(3, row, "Brand#%02d", static_cast<int>(manufacturer * 10 + brand));
        out.Static(4, row, d.part_types[d.part_types.Pick(s[kPartType])]);
        out.Int32(5, row, s[kPartSize].Uniform(1, 50));
        out.Static(6, row, d.containers[d.containers.Pick(s[kPartContainer])]);
        out.Int64(7, row, RetailPriceCents(key));
        out.Static(8, row, Comment(s[kPartComment], 14));
        s.EndRow();
    }
}

void TableGenerator::GeneratePartSupps(uint64_t first, idx_t count, RowWriter& out) const {
    Cardinalities counts(scale_factor_);
    RowStreams s({kPartSuppQuantity, kPartSuppCost, kPartSuppComment});
    // Each part draws its four partsupp rows in turn; rows before `first` are drawn and dropped.
    uint64_t part = first / kSuppliersPerPart;
    s.SeekRow(part);
    idx_t row = 0;
    for (uint64_t index = part * kSuppliersPerPart; row < count; part++) {
        auto key = static_cast<int64_t>(part + 1);
        for (int64_t supplier = 0; supplier < kSuppliersPerPart; supplier++, index++) {
            int64_t quantity = s[kPartSuppQuantity].Uniform(1, 9999);
            int64_t cost = s[kPartSuppCost].Uniform(100, 100000);
            std::string_view comment = Comment(s[kPartSuppComment], 124);
            if (index < first || row == count) {
                continue;
            }
            out.Int32(0, row, key);
            out.Int32(1, row, SupplierOf(key, supplier, counts.suppliers));
            out.Int32(2, row, quantity);
            out.Int64(3, row, cost);
            out.Static(4, row, comment);
            row++;
        }
        s.EndRow();
    }
}

void TableGenerator::GenerateSuppliers(uint64_t first, idx_t count, RowWriter& out) const {
    RowStreams s({kSupplierAddress, kSupplierNation, kSupplierPhone, kSupplierBalance,
                  kSupplierComment, kReviewNoise, kReviewVerdict, kReviewChosen, kReviewPosition});
    s.SeekRow(first);
    for (idx_t row = 0; row < count; row++) {
        auto key = static_cast<int64_t>(first + row + 1);
        out.Int32(0, row, key);
        out.Format(1, row, "Supplier#%09lld", static_cast<long long>(key));
        out.Copy(2, row, Address(s[kSupplierAddress]));
        int64_t nation = s[kSupplierNation].Uniform(0, 24);
        out.Int32(3, row, nation);
        WritePhone(out, 4, row, s[kSupplierPhone], nation);
        out.Int64(5, row, s[kSupplierBalance].Uniform(-99999, 999999));
        std::string_view comment = Comment(s[kSupplierComment], 63);
        // Ten suppliers in 10,000 carry a review for Q16 to find: "Customer ", some noise, then
        // "Complaints" or "Recommends", written over the comment. The draws are made for every
        // supplier (dbgen's choice, so that rows stay independent).
        constexpr int64_t kBaseLength = 9, kReviewLength = 19;
        auto length = static_cast<int64_t>(comment.size());
        int64_t chosen = s[kReviewChosen].Uniform(1, 10000);
        int64_t verdict = s[kReviewVerdict].Uniform(0, 100);
        int64_t noise = s[kReviewNoise].Uniform(0, length - kReviewLength);
        int64_t position = s[kReviewPosition].Uniform(0, length - (kReviewLength + noise));
        if (chosen <= 10) {
            std::string text(comment);
            text.replace(static_cast<size_t>(position), kBaseLength, "Customer ");
            text.replace(static_cast<size_t>(position + kBaseLength + noise), 10,
                         verdict < 50 ? "Complaints" : "Recommends");
            out.Copy(6, row, text);
        } else {
            out.Static(6, row, comment);
        }
        s.EndRow();
    }
}

void TableGenerator::GenerateCustomers(uint64_t first, idx_t count, RowWriter& out) const {
    const Distributions& d = Distributions::Get();
    RowStreams s({kCustomerAddress, kCustomerNation, kCustomerPhone, kCustomerBalance,
                  kCustomerSegment, kCustomerComment});
    s.SeekRow(first);
    for (idx_t row = 0; row < count; row++) {
        auto key = static_cast<int64_t>(first + row + 1);
        out.Int32(0, row, key);
        out.Format(1, row, "Customer#%09lld", static_cast<long long>(key));
        out.Copy(2, row, Address(s[kCustomerAddress]));
        int64_t nation = s[kCustomerNation].Uniform(0, 24);
        out.Int32(3, row, nation);
        WritePhone(out, 4, row, s[kCustomerPhone], nation);
        out.Int64(5, row, s[kCustomerBalance].Uniform(-99999, 999999));
        out.Static(6, row, d.segments[d.segments.Pick(s[kCustomerSegment])]);
        out.Static(7, row, Comment(s[kCustomerComment], 73));
        s.EndRow();
    }
}

void TableGenerator::GenerateOrders(uint64_t first, idx_t count, RowWriter& out) const {
    Cardinalities counts(scale_factor_);
    RowStreams s(kOrderStreams);
    s.SeekRow(first);
    OrderDraw order;
    for (idx_t row = 0; row < count; row++) {
        DrawOrder(s, counts, false, order);
        out.Int64(0, row, OrderKey(first + row));
        out.Int32(1, row, order.customer_key);
        out.Static(2, row, order.status);
        out.Int64(3, row, order.total_price);
        out.Int32(4, row, order.order_date);
        out.Static(5, row, order.priority);
        out.Format(6, row, "Clerk#%09lld", static_cast<long long>(order.clerk));
        out.Int32(7, row, 0);
        out.Static(8, row, order.comment);
        s.EndRow();
    }
}

void TableGenerator::GenerateLineItems(uint64_t first, idx_t count, RowWriter& out) const {
    Cardinalities counts(scale_factor_);
    // Find the order holding row `first`: its block from the index, then order by order.
    auto block = static_cast<uint64_t>(
        std::upper_bound(block_first_line_.begin(), block_first_line_.end(), first) -
        block_first_line_.begin() - 1);
    uint64_t order_index = block * kOrdersPerBlock;
    uint64_t line_row = block_first_line_[block];
    DbgenStream line_counts(kStreams[kOrderLines].seed, kStreams[kOrderLines].boundary);
    line_counts.SeekRow(order_index);
    for (;;) {
        auto lines = static_cast<uint64_t>(line_counts.Uniform(1, kMaxLines));
        if (line_row + lines > first) {
            break;
        }
        line_row += lines;
        order_index++;
    }
    RowStreams s(kOrderStreams);
    s.SeekRow(order_index);
    OrderDraw order;
    DrawOrder(s, counts, true, order);
    auto line = static_cast<int64_t>(first - line_row);
    for (idx_t row = 0; row < count; row++, line++) {
        if (line == order.line_count) {
            s.EndRow();
            order_index++;
            DrawOrder(s, counts, true, order);
            line = 0;
        }
        const LineDraw& draw = order.lines[line];
        out.Int64(0, row, OrderKey(order_index));
        out.Int32(1, row, draw.part_key);
        out.Int32(2, row, draw.supplier_key);
        out.Int32(3, row, line + 1);
        out.Int64(4, row, draw.quantity * 100);
        out.Int64(5, row, draw.extended_price);
        out.Int64(6, row, draw.discount);
        out.Int64(7, row, draw.tax);
        out.Static(8, row, draw.return_flag);
        out.Static(9, row, draw.line_status);
        out.Int32(10, row, draw.ship_date);
        out.Int32(11, row, draw.commit_date);
        out.Int32(12, row, draw.receipt_date);
        out.Static(13, row, draw.instruction);
        out.Static(14, row, draw.mode);
        out.Static(15, row, draw.comment);
    }
}

} // namespace sluice::tpch
