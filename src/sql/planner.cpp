#include "sql/planner.hpp"

#include "common/exception.hpp"
#include "execution/chunk_scan_source.hpp"
#include "execution/fan_out_sink.hpp"
#include "execution/physical_filter.hpp"
#include "execution/physical_hash_aggregate.hpp"
#include "execution/physical_hash_join.hpp"
#include "execution/physical_limit.hpp"
#include "execution/physical_order.hpp"
#include "execution/physical_projection.hpp"
#include "execution/physical_repeat_rows.hpp"
#include "execution/physical_unnest.hpp"
#include "execution/physical_window.hpp"
#include "execution/result_collector.hpp"
#include "execution/rows_source.hpp"
#include "execution/subquery_value_sink.hpp"
#include "sql/materialized_cte.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>

namespace sluice {

namespace {

// A pipeline under construction and the bindings of the columns its last stage outputs.
struct Planned {
    Pipeline* pipeline;
    std::vector<ColumnBinding> bindings;
    std::vector<LogicalType> types;
};

class PhysicalPlanner {
public:
    PhysicalPlanner(Executor& executor, MemoryManager* memory)
        : executor_(executor), memory_(memory) {}

    Planned Plan(LogicalOperator& op);
    void PlanSubplan(Subplan& subplan);
    // An aggregate with grouping sets: one pass over its input feeds a hash aggregate per set
    // (FanOutSink), each part widened to every key (NULL where the set leaves a key out) and its
    // grouping() values, and the parts concatenated.
    Planned PlanGroupingSets(LogicalOperator& op);
    // Window functions: the child's columns and every expression the functions read (keys,
    // arguments, frame offsets) into a WindowSink, its result scanned by a WindowSource.
    Planned PlanWindow(LogicalOperator& op);
    // A pipeline scanning the rows of `parts` one after the other, once `producers` (the
    // pipelines filling them) are done: UNION's inputs, grouping sets' parts.
    Pipeline& Concatenate(const std::vector<LogicalType>& types,
                          std::vector<std::shared_ptr<ResultCollector>> parts,
                          const std::vector<Pipeline*>& producers);
    // For every join probe that may spill, the pipeline that joins its partitions on disk and
    // feeds the rest of the probe's pipeline; run once the whole plan is planned.
    void AddJoinContinuations();

private:
    Pipeline& NewPipeline() {
        Pipeline& pipeline = executor_.AddPipeline();
        pipeline.dependencies = barrier_;
        created_.push_back(&pipeline);
        return pipeline;
    }
    static ExpressionPtr Resolve(const Expression& expression,
                                 const std::vector<ColumnBinding>& bindings);
    static void AddOperator(Planned& planned, std::shared_ptr<PipelineOperator> op) {
        planned.types = op->OutputTypes();
        planned.pipeline->operators.push_back(std::move(op));
    }
    // Appends a projection computing `expressions` over the planned output.
    static void Project(Planned& planned, const std::vector<const Expression*>& expressions);
    // A hash join: the right input builds, the left probes.
    struct JoinBuild {
        Planned planned;
        std::shared_ptr<HashJoinState> state;
        std::vector<ColumnBinding> bindings; // of the right input's columns
        std::vector<int> payload_keys;       // see HashJoinProbe::SetPayloadKeys
    };
    JoinBuild PlanBuild(LogicalOperator& op);
    Planned Probe(LogicalOperator& op, JoinBuild& build, Planned probe);
    // A dependent join: the left input into a buffer, the distinct delim columns of the buffer
    // into another that the right input's DelimGets scan, the buffer probing the right's rows.
    Planned PlanDelimJoin(LogicalOperator& op);
    // The distinct values of one dependent join, and the pipeline that finishes them.
    struct DelimValues {
        std::shared_ptr<MaterializedCte> values;
        Pipeline* ready = nullptr;
    };

    Executor& executor_;
    MemoryManager* memory_;
    std::vector<Pipeline*> barrier_;            // subplans every later pipeline waits for
    std::vector<Pipeline*> created_;            // every pipeline, in the order planned
    std::optional<idx_t> order_limit_;          // set while planning the ORDER BY under a LIMIT
    std::map<idx_t, DelimValues> delim_values_; // by delim_index
    // The keys a join hands to a scan below it, shared by the two (by TableFilter::join_filter).
    std::shared_ptr<JoinKeyFilter> JoinKeys(idx_t id, const LogicalType& type) {
        auto& filter = join_key_filters_[id];
        if (!filter) {
            filter = std::make_shared<JoinKeyFilter>(type);
        }
        return filter;
    }
    std::map<idx_t, std::shared_ptr<JoinKeyFilter>> join_key_filters_;
};

ExpressionPtr PhysicalPlanner::Resolve(const Expression& expression,
                                       const std::vector<ColumnBinding>& bindings) {
    ExpressionPtr copy = expression.Copy();
    std::function<void(Expression&)> resolve = [&](Expression& e) {
        if (e.kind == ExpressionKind::BoundColumn) {
            auto found = std::find(bindings.begin(), bindings.end(), e.binding);
            if (found == bindings.end()) {
                throw Exception(ErrorKind::Internal, "column " + e.ToString() +
                                                         " is not available at this point of "
                                                         "the plan");
            }
            e.kind = ExpressionKind::ColumnRef;
            e.column_index = static_cast<idx_t>(found - bindings.begin());
        }
        for (auto& child : e.children) {
            resolve(*child);
        }
    };
    resolve(*copy);
    return copy;
}

namespace {

bool IsComputation(const Expression& expression) {
    return (expression.kind == ExpressionKind::Function ||
            expression.kind == ExpressionKind::Cast) &&
           !expression.IsFoldable();
}

// Occurrences of `target` in `expression`, not looking inside subtrees equal to `chosen` ones
// (those are computed once already).
idx_t CountOccurrences(const Expression& expression, const Expression& target,
                       const std::vector<ExpressionPtr>& chosen) {
    for (const auto& done : chosen) {
        if (done->Equals(expression)) {
            return 0;
        }
    }
    if (expression.Equals(target)) {
        return 1;
    }
    idx_t count = 0;
    for (const auto& child : expression.children) {
        count += CountOccurrences(*child, target, chosen);
    }
    return count;
}

// Replaces subtrees equal to chosen[i] by a reference to column `first_column + i`.
void ReplaceChosen(ExpressionPtr& expression, const std::vector<ExpressionPtr>& chosen,
                   idx_t first_column) {
    for (idx_t i = 0; i < chosen.size(); i++) {
        if (chosen[i]->Equals(*expression)) {
            auto reference = std::make_unique<Expression>();
            reference->kind = ExpressionKind::ColumnRef;
            reference->type = expression->type;
            reference->column_index = first_column + i;
            expression = std::move(reference);
            return;
        }
    }
    for (auto& child : expression->children) {
        ReplaceChosen(child, chosen, first_column);
    }
}

} // namespace

Planned PhysicalPlanner::PlanGroupingSets(LogicalOperator& op) {
    constexpr idx_t kNotComputed = ~idx_t(0);
    Planned child = Plan(*op.children[0]);
    idx_t key_count = op.expressions.size();
    std::vector<const Expression*> inputs;
    for (const auto& key : op.expressions) {
        inputs.push_back(key.get());
    }
    // The aggregates computed from rows (grouping() is not): their argument columns, counted
    // from the first argument column.
    std::vector<std::vector<idx_t>> argument_offsets(op.aggregates.size());
    for (idx_t a = 0; a < op.aggregates.size(); a++) {
        const BoundAggregate& aggregate = op.aggregates[a];
        if (aggregate.grouping_keys) {
            continue;
        }
        for (const auto& argument : aggregate.arguments) {
            argument_offsets[a].push_back(inputs.size() - key_count);
            inputs.push_back(argument.get());
        }
    }
    Project(child, inputs);
    std::vector<std::vector<idx_t>> sets = op.grouping_sets;
    if (sets.empty()) {
        sets.emplace_back();
        for (idx_t k = 0; k < key_count; k++) {
            sets.back().push_back(k);
        }
    }
    std::vector<LogicalType> types = op.Types();
    // Which aggregates each set computes (all of them unless the plan says), and where each
    // is among its set's aggregates.
    std::vector<std::vector<idx_t>> position_in_set(
        sets.size(), std::vector<idx_t>(op.aggregates.size(), kNotComputed));
    std::vector<std::vector<AggregateFunction>> set_functions(sets.size());
    std::vector<std::vector<std::vector<idx_t>>> set_arguments(sets.size());
    for (size_t s = 0; s < sets.size(); s++) {
        for (idx_t a = 0; a < op.aggregates.size(); a++) {
            const BoundAggregate& aggregate = op.aggregates[a];
            const auto& chosen = op.grouping_set_aggregates;
            if (aggregate.grouping_keys ||
                (!chosen.empty() &&
                 std::find(chosen[s].begin(), chosen[s].end(), a) == chosen[s].end())) {
                continue;
            }
            position_in_set[s][a] = set_functions[s].size();
            set_functions[s].push_back(aggregate.distinct ? MakeDistinct(aggregate.function)
                                                          : aggregate.function);
            set_arguments[s].push_back(argument_offsets[a]);
        }
    }
    // One pass over the input feeds every set's hash aggregate, each seeing its keys and
    // every argument column.
    std::vector<FanOutSink::Target> targets;
    std::vector<std::shared_ptr<HashAggregateSink>> sinks;
    for (size_t s = 0; s < sets.size(); s++) {
        const auto& set = sets[s];
        FanOutSink::Target target;
        target.columns = set;
        for (idx_t c = key_count; c < child.types.size(); c++) {
            target.columns.push_back(c);
        }
        std::vector<LogicalType> key_types;
        for (idx_t column : target.columns) {
            target.types.push_back(child.types[column]);
        }
        for (idx_t key : set) {
            key_types.push_back(child.types[key]);
        }
        std::vector<std::vector<idx_t>> argument_columns = set_arguments[s];
        for (auto& columns : argument_columns) {
            for (auto& column : columns) {
                column += set.size();
            }
        }
        sinks.push_back(std::make_shared<HashAggregateSink>(key_types, set_functions[s],
                                                            std::move(argument_columns), memory_));
        target.sink = sinks.back();
        targets.push_back(std::move(target));
    }
    child.pipeline->sink = std::make_shared<FanOutSink>(std::move(targets));
    std::vector<std::shared_ptr<ResultCollector>> parts;
    std::vector<Pipeline*> producers;
    for (size_t s = 0; s < sets.size(); s++) {
        const auto& set = sets[s];
        const auto& sink = sinks[s];
        Pipeline& result = NewPipeline();
        result.source = std::make_shared<AggregateResultSource>(sink);
        result.dependencies.push_back(child.pipeline);
        // Widen to [every key..., every aggregate...]: the set's own columns by position.
        constexpr idx_t kPartTable = ~idx_t(0);
        Planned part{&result, {}, sink->OutputTypes()};
        for (idx_t i = 0; i < part.types.size(); i++) {
            part.bindings.push_back({kPartTable, i});
        }
        std::vector<ExpressionPtr> widened;
        for (idx_t k = 0; k < key_count; k++) {
            auto at = std::find(set.begin(), set.end(), k);
            widened.push_back(
                at == set.end() ? MakeConstant(Value::Null(types[k]))
                                : MakeBoundColumn({kPartTable, idx_t(at - set.begin())}, types[k]));
        }
        for (idx_t a = 0; a < op.aggregates.size(); a++) {
            const BoundAggregate& aggregate = op.aggregates[a];
            if (!aggregate.grouping_keys) {
                idx_t position = position_in_set[s][a];
                widened.push_back(position == kNotComputed
                                      ? MakeConstant(Value::Null(types[key_count + a]))
                                      : MakeBoundColumn({kPartTable, set.size() + position},
                                                        types[key_count + a]));
                continue;
            }
            // Bit i from the right for the i-th argument from the right: 1 where left out.
            int64_t bits = 0;
            for (idx_t key : *aggregate.grouping_keys) {
                bool left_out = std::find(set.begin(), set.end(), key) == set.end();
                bits = (bits << 1) | (left_out ? 1 : 0);
            }
            widened.push_back(MakeConstant(Value::Integer(LogicalTypeId::BIGINT, bits)));
        }
        std::vector<const Expression*> pointers;
        for (const auto& expression : widened) {
            pointers.push_back(expression.get());
        }
        Project(part, pointers);
        auto collector = std::make_shared<ResultCollector>(types, memory_);
        result.sink = collector;
        parts.push_back(collector);
        producers.push_back(&result);
    }
    return {&Concatenate(types, std::move(parts), producers), op.Bindings(), types};
}

Pipeline& PhysicalPlanner::Concatenate(const std::vector<LogicalType>& types,
                                       std::vector<std::shared_ptr<ResultCollector>> parts,
                                       const std::vector<Pipeline*>& producers) {
    auto concatenated = [parts]() -> std::shared_ptr<const ChunkSequence> {
        std::vector<std::shared_ptr<const ChunkSequence>> sequences;
        for (const auto& part : parts) {
            sequences.push_back(part->TakeRows());
        }
        return std::make_shared<ConcatenatedSequence>(std::move(sequences));
    };
    std::vector<idx_t> all_columns;
    for (idx_t i = 0; i < types.size(); i++) {
        all_columns.push_back(i);
    }
    Pipeline& pipeline = NewPipeline();
    pipeline.source = std::make_shared<ChunkScanSource>(types, concatenated, all_columns);
    pipeline.dependencies.insert(pipeline.dependencies.end(), producers.begin(), producers.end());
    return pipeline;
}

void PhysicalPlanner::Project(Planned& planned, const std::vector<const Expression*>& expressions) {
    std::vector<ExpressionPtr> resolved;
    for (const Expression* expression : expressions) {
        resolved.push_back(Resolve(*expression, planned.bindings));
    }
    // Common subexpressions (as in sum(a * b) and sum(a * b * c)) are computed once, by a
    // projection before this one; larger ones are found first, walking each tree top-down.
    std::vector<ExpressionPtr> chosen;
    std::function<void(const Expression&)> visit = [&](const Expression& node) {
        if (IsComputation(node)) {
            idx_t occurrences = 0;
            for (const auto& expression : resolved) {
                occurrences += CountOccurrences(*expression, node, chosen);
            }
            if (occurrences >= 2) {
                chosen.push_back(node.Copy());
                return;
            }
        }
        for (const auto& child : node.children) {
            visit(*child);
        }
    };
    for (const auto& expression : resolved) {
        visit(*expression);
    }
    if (!chosen.empty()) {
        std::vector<ExpressionPtr> shared;
        idx_t inputs = planned.types.size();
        for (idx_t column = 0; column < inputs; column++) {
            auto reference = std::make_unique<Expression>();
            reference->kind = ExpressionKind::ColumnRef;
            reference->type = planned.types[column];
            reference->column_index = column;
            shared.push_back(std::move(reference));
        }
        for (const auto& expression : chosen) {
            shared.push_back(expression->Copy());
        }
        for (auto& expression : resolved) {
            ReplaceChosen(expression, chosen, inputs);
        }
        AddOperator(planned, std::make_shared<PhysicalProjection>(std::move(shared)));
    }
    AddOperator(planned, std::make_shared<PhysicalProjection>(std::move(resolved)));
}

void PhysicalPlanner::PlanSubplan(Subplan& subplan) {
    Planned planned = Plan(*subplan.plan);
    if (subplan.cte) {
        planned.pipeline->sink = subplan.cte->Collector(memory_);
        barrier_.push_back(planned.pipeline);
        return;
    }
    if (subplan.exists) {
        AddOperator(planned, std::make_shared<PhysicalLimit>(planned.types, 1, 0));
        planned.pipeline->max_threads = 1;
    }
    planned.pipeline->sink =
        std::make_shared<SubqueryValueSink>(subplan.value, subplan.type, subplan.exists);
    barrier_.push_back(planned.pipeline);
}

Planned PhysicalPlanner::Plan(LogicalOperator& op) {
    switch (op.kind) {
    case LogicalOperatorKind::Get: {
        Pipeline& pipeline = NewPipeline();
        std::vector<TableFilter> filters = op.table_filters;
        for (TableFilter& filter : filters) {
            if (filter.op == TableFilter::Op::JoinKeys) {
                filter.join_keys = JoinKeys(filter.join_filter, op.function->types[filter.column]);
            }
        }
        pipeline.source = op.function->make_source(op.column_ids, filters, op.leaf_masks);
        return {&pipeline, op.Bindings(), pipeline.source->OutputTypes()};
    }
    case LogicalOperatorKind::Unnest: {
        Planned planned = Plan(*op.children[0]);
        std::vector<ExpressionPtr> lists;
        for (const auto& list : op.expressions) {
            lists.push_back(Resolve(*list, planned.bindings));
        }
        // The child's columns handed on (op.passthrough: those read above).
        std::vector<idx_t> passed;
        for (idx_t i = 0; i < planned.bindings.size(); i++) {
            if (!op.passthrough || std::find(op.passthrough->begin(), op.passthrough->end(),
                                             planned.bindings[i]) != op.passthrough->end()) {
                passed.push_back(i);
            }
        }
        auto unnest =
            std::make_shared<PhysicalUnnest>(planned.types, std::move(passed), std::move(lists));
        std::vector<LogicalType> types = unnest->OutputTypes();
        AddOperator(planned, std::move(unnest));
        planned.bindings = op.Bindings();
        planned.types = std::move(types);
        return planned;
    }
    case LogicalOperatorKind::Repeat: {
        Planned planned = Plan(*op.children[0]);
        AddOperator(planned, std::make_shared<PhysicalRepeatRows>(
                                 planned.types, Resolve(*op.expressions[0], planned.bindings)));
        return planned;
    }
    case LogicalOperatorKind::Filter: {
        Planned planned = Plan(*op.children[0]);
        ExpressionPtr predicate;
        for (const auto& conjunct : op.expressions) {
            predicate = MakeAnd(std::move(predicate), Resolve(*conjunct, planned.bindings));
        }
        AddOperator(planned, std::make_shared<PhysicalFilter>(planned.types, std::move(predicate)));
        return planned;
    }
    case LogicalOperatorKind::Projection: {
        Planned planned = Plan(*op.children[0]);
        std::vector<const Expression*> expressions;
        for (const auto& expression : op.expressions) {
            expressions.push_back(expression.get());
        }
        Project(planned, expressions);
        planned.bindings = op.Bindings();
        return planned;
    }
    case LogicalOperatorKind::Aggregate: {
        bool grouping = std::any_of(op.aggregates.begin(), op.aggregates.end(),
                                    [](const BoundAggregate& a) { return a.grouping_keys; });
        if (!op.grouping_sets.empty() || grouping) {
            return PlanGroupingSets(op);
        }
        Planned child = Plan(*op.children[0]);
        std::vector<const Expression*> inputs;
        std::vector<LogicalType> key_types;
        for (const auto& key : op.expressions) {
            inputs.push_back(key.get());
            key_types.push_back(key->type);
        }
        std::vector<AggregateFunction> functions;
        std::vector<std::vector<idx_t>> argument_columns;
        for (const auto& aggregate : op.aggregates) {
            std::vector<idx_t> columns;
            for (const auto& argument : aggregate.arguments) {
                columns.push_back(inputs.size());
                inputs.push_back(argument.get());
            }
            argument_columns.push_back(std::move(columns));
            functions.push_back(aggregate.distinct ? MakeDistinct(aggregate.function)
                                                   : aggregate.function);
        }
        Project(child, inputs);
        auto sink = std::make_shared<HashAggregateSink>(std::move(key_types), std::move(functions),
                                                        std::move(argument_columns), memory_);
        child.pipeline->sink = sink;
        Pipeline& pipeline = NewPipeline();
        pipeline.source = std::make_shared<AggregateResultSource>(sink);
        pipeline.dependencies.push_back(child.pipeline);
        return {&pipeline, op.Bindings(), sink->OutputTypes()};
    }
    case LogicalOperatorKind::Join:
        if (op.delim_index) {
            return PlanDelimJoin(op);
        } else {
            JoinBuild build = PlanBuild(op);
            return Probe(op, build, Plan(*op.children[0]));
        }
    case LogicalOperatorKind::DelimGet: {
        auto found = delim_values_.find(op.delim_index);
        if (found == delim_values_.end()) {
            throw Exception(ErrorKind::Internal, "DELIM_SCAN outside its DELIM_JOIN");
        }
        std::vector<idx_t> column_ids;
        for (idx_t i = 0; i < op.delim_types.size(); i++) {
            column_ids.push_back(i);
        }
        Pipeline& pipeline = NewPipeline();
        pipeline.source = found->second.values->Function()->make_source(column_ids, {}, {});
        pipeline.dependencies.push_back(found->second.ready);
        return {&pipeline, op.Bindings(), op.delim_types};
    }
    case LogicalOperatorKind::Order: {
        std::optional<idx_t> top = order_limit_;
        order_limit_.reset();
        Planned child = Plan(*op.children[0]);
        std::vector<SortKey> keys;
        for (const auto& order : op.orders) {
            ExpressionPtr resolved = Resolve(*order.expression, child.bindings);
            if (resolved->kind != ExpressionKind::ColumnRef) {
                throw Exception(ErrorKind::Internal, "ORDER BY key is not a column");
            }
            keys.push_back({resolved->column_index, order.descending, order.nulls_first});
        }
        auto sink = std::make_shared<OrderSink>(child.types, std::move(keys), top, memory_);
        child.pipeline->sink = sink;
        Pipeline& pipeline = NewPipeline();
        pipeline.source = std::make_shared<OrderSource>(sink);
        pipeline.dependencies.push_back(child.pipeline);
        return {&pipeline, child.bindings, child.types};
    }
    case LogicalOperatorKind::Window:
        return PlanWindow(op);
    case LogicalOperatorKind::Limit: {
        // ORDER BY ... LIMIT: the sort keeps only the first limit + offset rows.
        bool known = !op.limit_expression && !op.offset_expression;
        if (known && op.limit == uint64_t(0)) {
            // LIMIT 0: no rows, so the input is not computed at all (it may be huge).
            Pipeline& pipeline = NewPipeline();
            std::vector<LogicalType> types = op.children[0]->Types();
            pipeline.source =
                std::make_shared<RowsSource>(types, std::vector<std::vector<Value>>{});
            return {&pipeline, op.children[0]->Bindings(), types};
        }
        if (known && op.limit && op.children[0]->kind == LogicalOperatorKind::Order) {
            order_limit_ = *op.limit + op.offset;
        }
        Planned planned = Plan(*op.children[0]);
        order_limit_.reset();
        AddOperator(planned, std::make_shared<PhysicalLimit>(
                                 planned.types, op.limit, op.offset,
                                 op.limit_expression ? op.limit_expression->Copy() : nullptr,
                                 op.offset_expression ? op.offset_expression->Copy() : nullptr));
        planned.pipeline->max_threads = 1; // LIMIT counts rows in arrival order
        return planned;
    }
    case LogicalOperatorKind::Union: {
        std::vector<std::shared_ptr<ResultCollector>> inputs;
        std::vector<Pipeline*> producers;
        std::vector<LogicalType> types;
        for (auto& child : op.children) {
            Planned planned = Plan(*child);
            types = planned.types;
            auto collector = std::make_shared<ResultCollector>(planned.types, memory_);
            planned.pipeline->sink = collector;
            inputs.push_back(collector);
            producers.push_back(planned.pipeline);
        }
        return {&Concatenate(types, std::move(inputs), producers), op.Bindings(), types};
    }
    }
    throw Exception(ErrorKind::Internal, "unknown logical operator");
}

Planned PhysicalPlanner::PlanWindow(LogicalOperator& op) {
    Planned child = Plan(*op.children[0]);
    std::vector<ExpressionPtr> passthrough;
    std::vector<const Expression*> inputs;
    for (idx_t i = 0; i < child.bindings.size(); i++) {
        const ColumnBinding& binding = child.bindings[i];
        if (op.passthrough && std::find(op.passthrough->begin(), op.passthrough->end(), binding) ==
                                  op.passthrough->end()) {
            continue; // read by nothing above
        }
        passthrough.push_back(MakeBoundColumn(binding, child.types[i]));
        inputs.push_back(passthrough.back().get());
    }
    auto add = [&](const ExpressionPtr& expression) {
        inputs.push_back(expression.get());
        return inputs.size() - 1;
    };
    std::vector<idx_t> partitions;
    for (const auto& expression : op.expressions) {
        partitions.push_back(add(expression));
    }
    std::vector<SortKey> keys;
    for (const auto& order : op.orders) {
        keys.push_back({add(order.expression), order.descending, order.nulls_first});
    }
    std::vector<WindowFunction> functions;
    for (const auto& window : op.windows) {
        WindowFunction function;
        function.kind = window.kind;
        function.aggregate = window.aggregate;
        for (const auto& argument : window.arguments) {
            function.arguments.push_back(add(argument));
        }
        if (window.filter) {
            function.filter = add(window.filter);
        }
        function.frame.unit = window.unit;
        function.frame.start.kind = window.start;
        function.frame.end.kind = window.end;
        function.frame.exclude = window.exclude;
        auto offset = [&](const ExpressionPtr& expression, WindowFrameBound& bound) {
            if (!expression) {
                return;
            }
            if (window.unit != FrameUnit::Range && expression->kind == ExpressionKind::Constant &&
                !expression->value.IsNull()) {
                auto value = static_cast<int64_t>(expression->value.GetInteger());
                if (value < 0) {
                    throw Exception(ErrorKind::InvalidInput, "Invalid window frame: the offset " +
                                                                 std::to_string(value) +
                                                                 " is negative");
                }
                bound.constant = value;
                return;
            }
            bound.column = add(expression);
        };
        offset(window.start_offset, function.frame.start);
        offset(window.end_offset, function.frame.end);
        function.ignore_nulls = window.ignore_nulls;
        function.type = window.type;
        functions.push_back(std::move(function));
    }
    Project(child, inputs);
    auto sink = std::make_shared<WindowSink>(child.types, passthrough.size(), std::move(partitions),
                                             std::move(keys), std::move(functions), memory_);
    child.pipeline->sink = sink;
    Pipeline& pipeline = NewPipeline();
    pipeline.source = std::make_shared<WindowSource>(sink);
    pipeline.dependencies.push_back(child.pipeline);
    return {&pipeline, op.Bindings(), sink->OutputTypes()};
}

PhysicalPlanner::JoinBuild PhysicalPlanner::PlanBuild(LogicalOperator& op) {
    JoinBuild build{Plan(*op.children[1]), nullptr, {}, {}};
    std::vector<const Expression*> build_columns;
    for (const auto& condition : op.conditions) {
        build_columns.push_back(condition.right.get());
    }
    std::vector<ExpressionPtr> passthrough;
    for (idx_t i = 0; i < build.planned.bindings.size(); i++) {
        passthrough.push_back(MakeBoundColumn(build.planned.bindings[i], build.planned.types[i]));
        build_columns.push_back(passthrough.back().get());
        int key = -1;
        for (idx_t c = 0; c < op.conditions.size() && key < 0; c++) {
            const Expression& right = *op.conditions[c].right;
            bool same = right.kind == ExpressionKind::BoundColumn &&
                        right.binding == build.planned.bindings[i] &&
                        op.conditions[c].left->type == right.type;
            key = same && JoinKeyFilter::Supports(right.type) ? static_cast<int>(c) : -1;
        }
        build.payload_keys.push_back(key);
    }
    build.bindings = build.planned.bindings;
    Project(build.planned, build_columns);
    build.state = std::make_shared<HashJoinState>(op.conditions.size(), build.planned.types);
    build.state->memory = memory_;
    std::vector<std::shared_ptr<JoinKeyFilter>> key_filters(op.conditions.size());
    for (idx_t c = 0; c < op.join_key_filters.size(); c++) {
        if (op.join_key_filters[c]) {
            key_filters[c] = JoinKeys(op.join_key_filters[c], op.conditions[c].right->type);
        }
    }
    build.planned.pipeline->sink =
        std::make_shared<HashJoinBuildSink>(build.state, memory_, std::move(key_filters));
    return build;
}

Planned PhysicalPlanner::Probe(LogicalOperator& op, JoinBuild& build, Planned probe) {
    std::vector<ExpressionPtr> probe_keys;
    for (const auto& condition : op.conditions) {
        probe_keys.push_back(Resolve(*condition.left, probe.bindings));
    }
    std::vector<ColumnBinding> pair_bindings = probe.bindings;
    pair_bindings.insert(pair_bindings.end(), build.bindings.begin(), build.bindings.end());
    ExpressionPtr residual = op.residual ? Resolve(*op.residual, pair_bindings) : nullptr;
    build.state->probe_types = probe.types;
    build.state->emits_unmatched_build = EmitsUnmatchedBuild(op.join_type);
    auto join = std::make_shared<HashJoinProbe>(op.join_type, probe.types, std::move(probe_keys),
                                                build.state, std::move(residual));
    join->SetPayloadKeys(build.payload_keys);
    AddOperator(probe, std::move(join));
    probe.pipeline->dependencies.push_back(build.planned.pipeline);
    probe.bindings = op.Bindings();
    return probe;
}

Planned PhysicalPlanner::PlanDelimJoin(LogicalOperator& op) {
    // The left input, computed once.
    Planned left = Plan(*op.children[0]);
    std::vector<std::string> names(left.types.size());
    auto buffer = std::make_shared<MaterializedCte>("DELIM_JOIN left", names, left.types);
    left.pipeline->sink = buffer->Collector(memory_);
    std::vector<idx_t> all_columns;
    for (idx_t i = 0; i < left.types.size(); i++) {
        all_columns.push_back(i);
    }
    auto scan_buffer = [&]() {
        Planned scan{&NewPipeline(), left.bindings, left.types};
        scan.pipeline->source = buffer->Function()->make_source(all_columns, {}, {});
        scan.pipeline->dependencies.push_back(left.pipeline);
        return scan;
    };

    // Its distinct delim columns, for the DelimGets of the right input.
    Planned distinct = scan_buffer();
    std::vector<const Expression*> delim_columns;
    std::vector<LogicalType> delim_types;
    for (const auto& column : op.delim_columns) {
        delim_columns.push_back(column.get());
        delim_types.push_back(column->type);
    }
    Project(distinct, delim_columns);
    auto groups = std::make_shared<HashAggregateSink>(delim_types, std::vector<AggregateFunction>{},
                                                      std::vector<std::vector<idx_t>>{}, memory_);
    distinct.pipeline->sink = groups;
    Pipeline& collect = NewPipeline();
    collect.source = std::make_shared<AggregateResultSource>(groups);
    collect.dependencies.push_back(distinct.pipeline);
    auto values = std::make_shared<MaterializedCte>(
        "DELIM_JOIN values", std::vector<std::string>(delim_types.size()), delim_types);
    collect.sink = values->Collector(memory_);
    delim_values_[op.delim_index] = {values, &collect};

    // The right input over them; the join probes it with the buffered left rows.
    JoinBuild build = PlanBuild(op);
    return Probe(op, build, scan_buffer());
}

void PhysicalPlanner::AddJoinContinuations() {
    std::vector<Pipeline*> planned = created_;
    for (Pipeline* pipeline : planned) {
        std::vector<Pipeline*> continuations;
        for (idx_t i = 0; i < pipeline->operators.size(); i++) {
            auto* probe = dynamic_cast<HashJoinProbe*>(pipeline->operators[i].get());
            if (!probe || !probe->NeedsContinuation()) {
                continue;
            }
            // After the probe pipeline and the continuations of earlier joins in it, which
            // also feed this probe.
            Pipeline& continuation = executor_.AddPipeline();
            continuation.source = probe->MakeContinuationSource();
            continuation.operators.assign(pipeline->operators.begin() +
                                              static_cast<std::ptrdiff_t>(i + 1),
                                          pipeline->operators.end());
            continuation.sink = pipeline->sink;
            continuation.max_threads = pipeline->max_threads;
            continuation.dependencies = pipeline->dependencies;
            continuation.dependencies.push_back(pipeline);
            continuation.dependencies.insert(continuation.dependencies.end(), continuations.begin(),
                                             continuations.end());
            continuations.push_back(&continuation);
        }
        if (continuations.empty()) {
            continue;
        }
        // Whoever waited for the pipeline's sink waits for its continuations too.
        for (Pipeline* other : planned) {
            auto& dependencies = other->dependencies;
            if (std::find(dependencies.begin(), dependencies.end(), pipeline) !=
                dependencies.end()) {
                dependencies.insert(dependencies.end(), continuations.begin(), continuations.end());
            }
        }
    }
}

} // namespace

void PlanQuery(BoundQuery& query, Executor& executor, MemoryManager* memory,
               std::shared_ptr<PipelineSink> sink, idx_t max_threads) {
    PhysicalPlanner planner(executor, memory);
    for (auto& subplan : query.subplans) {
        planner.PlanSubplan(subplan);
    }
    Pipeline& root = *planner.Plan(*query.plan).pipeline;
    root.sink = std::move(sink);
    if (max_threads > 0) {
        root.max_threads =
            root.max_threads > 0 ? std::min(root.max_threads, max_threads) : max_threads;
    }
    planner.AddJoinContinuations();
}

} // namespace sluice
