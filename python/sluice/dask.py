"""Sluice on Dask: one query over many Parquet files, fanned out to the workers of a Dask cluster.

    from dask.distributed import Client, LocalCluster
    import sluice.dask

    client = Client(LocalCluster(n_workers=2, threads_per_worker=1))
    frame = sluice.dask.sql(
        "SELECT l_returnflag, sum(l_quantity) AS qty, avg(l_discount) AS disc "
        "FROM lineitem WHERE l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag "
        "ORDER BY l_returnflag",
        tables={"lineitem": "s3://bucket/lineitem/*.parquet"}, client=client)

The files are cut into partitions: one per file, and a large file's row groups into several
(each then reads only its row groups, by a range of file_row_number). Each partition is a Dask
task that runs, in a Sluice inside the worker process, the scan, the WHERE clause and the partial
aggregation: sum, count, min and max of its rows per group (avg as its sum and count). One more
task combines the partials (sums of sums and counts, min of mins, max of maxes, avg as sum over
count), then applies HAVING, ORDER BY and LIMIT. A query without aggregates concatenates the
partitions' rows instead. Dask schedules the tasks, moves the partials (small frames) and re-runs
the partition of a worker that dies. docs/scale-out.md explains the design and its limits.

What distributes: SELECT over one table (no joins: they need a shuffle), WHERE, GROUP BY,
HAVING, ORDER BY, LIMIT, and the aggregates sum, count (also count(*)), min, max and avg, also
inside expressions (sum(a) / sum(b)). Anything else is refused with NotImplementedError naming it.
"""
import re

import sluice

_AGGREGATES = ("sum", "count", "min", "max", "avg")
_CLAUSES = ("select", "from", "where", "group by", "having", "order by", "limit")


def _top_level(text):
    """The positions of `text` outside parentheses and quotes."""
    depth, quote = 0, None
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth == 0:
            yield i


def _top_level_clauses(query):
    """The query's clauses {keyword: text}, found outside parentheses and quotes."""
    positions = []
    lowered = query.lower()
    skip_to = 0
    for i in _top_level(query):
        if i < skip_to or (i > 0 and (query[i - 1].isalnum() or query[i - 1] == "_")):
            continue
        for keyword in _CLAUSES:
            match = re.match(r"\s+".join(keyword.split()) + r"\b", lowered[i:])
            if match:
                positions.append((i, keyword, match.end()))
                skip_to = i + match.end()
                break
    clauses = {}
    for n, (start, keyword, length) in enumerate(positions):
        if keyword in clauses:
            raise NotImplementedError(f"sluice.dask: {keyword.upper()} appears twice at the top "
                                      "level (UNION, subqueries): not distributed")
        end = positions[n + 1][0] if n + 1 < len(positions) else len(query)
        clauses[keyword] = query[start + length:end].strip()
    if "select" not in clauses or "from" not in clauses:
        raise NotImplementedError("sluice.dask: the query must be SELECT ... FROM <table> ...")
    return clauses


def _split_list(text):
    """Comma-separated items at the top level."""
    items, start = [], 0
    for i in _top_level(text):
        if text[i] == ",":
            items.append(text[start:i].strip())
            start = i + 1
    items.append(text[start:].strip())
    return [item for item in items if item]


def _aggregate_calls(text):
    """(start, end, function, argument) of each aggregate call in an expression."""
    calls = []
    for match in re.finditer(r"\b(" + "|".join(_AGGREGATES) + r")\s*\(", text, re.IGNORECASE):
        if calls and match.start() < calls[-1][1]:
            raise NotImplementedError("sluice.dask: an aggregate inside an aggregate")
        depth, i = 1, match.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        argument = text[match.end():i - 1].strip()
        if re.match(r"distinct\b", argument, re.IGNORECASE):
            raise NotImplementedError("sluice.dask: DISTINCT aggregates need every value in one "
                                      "place: not distributed")
        calls.append((match.start(), i, match.group(1).lower(), argument))
    return calls


def _split_alias(item):
    match = re.match(r"(.*?)\s+as\s+(\"[^\"]+\"|\w+)$", item, re.IGNORECASE | re.DOTALL)
    return (match.group(1).strip(), match.group(2)) if match else (item, None)


def _quote_string(text):
    return "'" + text.replace("'", "''") + "'"


class Plan:
    """A query cut into partition queries and the query that combines their results."""

    def __init__(self, query, tables, partitions):
        clauses = _top_level_clauses(query)
        table = clauses["from"].strip()
        name = table.split()[0].strip('"')
        if name not in tables or not re.fullmatch(r"[\w\"]+(\s+(as\s+)?\w+)?", table,
                                                  re.IGNORECASE):
            raise NotImplementedError(f"sluice.dask: FROM {table}: one table of `tables` is "
                                      "distributed (joins need a shuffle: not yet)")
        self.table = table
        self.where = clauses.get("where")
        self.partitions = partitions
        keys = _split_list(clauses.get("group by", ""))
        items = [_split_alias(item) for item in _split_list(clauses["select"])]
        pieces = [expression for expression, _ in items]
        pieces += [clauses.get("having", "")] + _split_list(clauses.get("order by", ""))
        self.aggregating = bool(keys) or any(_aggregate_calls(piece) for piece in pieces)
        self.exact_averages = []
        if not self.aggregating:
            # Rows: each partition filters and projects; the final step orders and limits.
            self.partial_select = clauses["select"]
            self.final = "SELECT * FROM partials"  # the columns keep the query's names
            if "order by" in clauses:
                self.final += " ORDER BY " + clauses["order by"]
            if "limit" in clauses:
                self.final += " LIMIT " + clauses["limit"]
                self.partial_limit = clauses["limit"]
            return
        # Group keys: the GROUP BY expressions (or SELECT aliases they name), as k0, k1, ...
        aliases = {alias.strip('"'): expression for expression, alias in items if alias}
        key_expressions = [aliases.get(key.strip('"'), key) for key in keys]
        self.partial_columns = [f"{expression} AS k{n}" for n, expression in enumerate(key_expressions)]
        self.partial_keys = [f"k{n}" for n in range(len(keys))]

        def rewrite(expression):
            """`expression` over the partials: aggregates combined, keys as their columns."""
            out, last = "", 0
            for start, end, function, argument in _aggregate_calls(expression):
                out += self._keys_replaced(expression[last:start], key_expressions)
                out += self._combine(function, argument)
                last = end
            return out + self._keys_replaced(expression[last:], key_expressions)

        select = [rewrite(expression) + (f" AS {alias}" if alias else f' AS "{expression}"')
                  for expression, alias in items]
        # An avg that is a whole SELECT item is finished exactly as one Sluice would (see
        # _exact_average): its combined sum and count ride along as hidden last columns.
        self.exact_averages = []
        for position, (expression, _) in enumerate(items):
            calls = _aggregate_calls(expression)
            if len(calls) == 1 and calls[0][2] == "avg" and calls[0][:2] == (0, len(expression)):
                n = len(self.partial_columns)
                self._combine("avg", calls[0][3])
                select += [f"sum(p{n}) AS __sluice_sum_{position}",
                           f"sum(p{n + 1}) AS __sluice_count_{position}"]
                self.exact_averages.append(position)
        self.final = f"SELECT {', '.join(select)} FROM partials"
        if keys:
            self.final += " GROUP BY " + ", ".join(self.partial_keys)
        if "having" in clauses:
            self.final += " HAVING " + rewrite(clauses["having"])
        if "order by" in clauses:
            self.final += " ORDER BY " + ", ".join(
                rewrite(term) if _aggregate_calls(term) else term
                for term in _split_list(clauses["order by"]))
        if "limit" in clauses:
            self.final += " LIMIT " + clauses["limit"]

    def _combine(self, function, argument):
        """The partial column(s) of one aggregate call, and their combination."""
        n = len(self.partial_columns)
        if function == "avg":
            self.partial_columns += [f"sum({argument}) AS p{n}", f"count({argument}) AS p{n + 1}"]
            return f"(sum(p{n})::DOUBLE / sum(p{n + 1}))"
        self.partial_columns.append(f"{function}({argument}) AS p{n}")
        return {"sum": f"sum(p{n})", "count": f"sum(p{n})::BIGINT", "min": f"min(p{n})",
                "max": f"max(p{n})"}[function]

    @staticmethod
    def _keys_replaced(text, key_expressions):
        for n, expression in enumerate(key_expressions):
            text = re.sub(r"(?<![\w.\"])" + re.escape(expression) + r"(?![\w\"])", f"k{n}", text)
        return text

    def partition_query(self, partition):
        files, first_row, last_row = partition
        source = ("read_parquet([" + ", ".join(_quote_string(f) for f in files) + "]"
                  + (", file_row_number = true" if first_row is not None else "") + ")")
        alias = self.table.split()[-1].strip('"')
        conditions = []
        if self.where:
            conditions.append(f"({self.where})")
        if first_row is not None:
            conditions.append(f"file_row_number BETWEEN {first_row} AND {last_row}")
        where = " WHERE " + " AND ".join(conditions) if conditions else ""
        if not self.aggregating:
            limit = f" LIMIT {self.partial_limit}" if hasattr(self, "partial_limit") else ""
            return f"SELECT {self.partial_select} FROM {source} AS {alias}{where}{limit}"
        group = " GROUP BY " + ", ".join(self.partial_keys) if self.partial_keys else ""
        return f"SELECT {', '.join(self.partial_columns)} FROM {source} AS {alias}{where}{group}"


_worker_connections = {}


def _connection(config):
    """The worker process's Sluice for these settings, made once."""
    key = tuple(sorted((config or {}).items()))
    if key not in _worker_connections:
        _worker_connections[key] = sluice.connect(config=dict(config or {}))
    return _worker_connections[key]


def run_partition(query, config=None):
    """One partition's query, in the calling (worker) process: (names, types, rows), the values
    exact (DECIMAL as decimal.Decimal), as the combining step needs them."""
    result = _connection(config).sql(query)
    return result.columns, result.types, result.fetchall()


def _exact_average(total, count):
    """avg as one Sluice finishes it from its exact sum and count: in long double (numpy's is
    the C compiler's on this platform), sum / count / 10^scale, rounded to double."""
    import decimal

    import numpy

    if total is None or not count:
        return None
    if isinstance(total, float):
        return total / count
    scale = -total.as_tuple().exponent if isinstance(total, decimal.Decimal) else 0
    scaled = int(decimal.Decimal(total).scaleb(scale, decimal.Context(prec=80)))
    quotient = numpy.longdouble(str(scaled)) / numpy.longdouble(count)
    return float(quotient / numpy.longdouble(10.0 ** scale))


def combine(plan, partials, config=None, form="df"):
    """The partials in one table, and the combining query over it: a DataFrame (form "df") or
    the rows as tuples (form "rows")."""
    con = sluice.connect(config=dict(config or {}))
    names, types, _ = partials[0]
    columns = ", ".join(f'"{name}" {type_}' for name, type_ in zip(names, types))
    con.execute(f"CREATE TABLE partials ({columns})")
    rows = [row for _, _, part in partials for row in part]
    batch = 512  # rows per INSERT, their values as parameters
    for start in range(0, len(rows), batch):
        chunk = rows[start:start + batch]
        row_marks = "(" + ", ".join("?" * len(names)) + ")"
        con.execute("INSERT INTO partials VALUES " + ", ".join([row_marks] * len(chunk)),
                    [value for row in chunk for value in row])
    hidden = 2 * len(plan.exact_averages)
    exact = con.sql(plan.final).fetchall()
    width = len(exact[0]) - hidden if exact else 0
    averages = {}
    for n, position in enumerate(plan.exact_averages):
        averages[position] = [_exact_average(row[width + 2 * n], row[width + 2 * n + 1])
                              for row in exact]
    if form == "rows":
        return [tuple(averages[c][r] if c in averages else row[c] for c in range(width))
                for r, row in enumerate(exact)]
    frame = con.sql(plan.final).df()
    frame = frame.iloc[:, :len(frame.columns) - hidden]
    for position, values in averages.items():
        frame.iloc[:, position] = values
    return frame


def plan_partitions(pattern, rows_per_partition=None, config=None, files_per_partition=1):
    """(files, first row, last row) per partition: `files_per_partition` files each (read by one
    multi-file scan, which fetches the next files ahead while it decodes), a large file's row
    groups cut into ranges of about `rows_per_partition` rows (first row None: whole files)."""
    con = sluice.connect(config=dict(config or {}))
    patterns = pattern if isinstance(pattern, (list, tuple)) else [pattern]
    files = []
    for one in patterns:
        if not any(c in one for c in "*?["):
            files.append(one)  # a file named as it is (an HTTP URL cannot be listed)
            continue
        files += [row[0] for row in con.sql(f"SELECT file FROM glob({_quote_string(one)}) "
                                            "ORDER BY file").fetchall()]
    if not files:
        raise sluice.IOException(f"No files found that match the pattern \"{pattern}\"")
    partitions = []
    if rows_per_partition is None:
        step = max(1, files_per_partition)
        return [(files[i:i + step], None, None) for i in range(0, len(files), step)]
    for file in files:
        groups = con.sql("SELECT row_group_id, any_value(row_group_num_rows) FROM "
                         f"parquet_metadata({_quote_string(file)}) GROUP BY row_group_id "
                         "ORDER BY row_group_id").fetchall()
        total = sum(rows for _, rows in groups)
        if total <= rows_per_partition:
            partitions.append(([file], None, None))
            continue
        first = rows_in_range = 0
        for _, rows in groups:
            rows_in_range += rows
            if rows_in_range >= rows_per_partition:
                partitions.append(([file], first, first + rows_in_range - 1))
                first += rows_in_range
                rows_in_range = 0
        if rows_in_range:
            partitions.append(([file], first, first + rows_in_range - 1))
    return partitions


def delayed_query(query, tables, config=None, rows_per_partition=None, form="df",
                  files_per_partition=1):
    """The query as Dask delayed objects: (the partitions' tasks, the combining task)."""
    import dask

    if len(tables) != 1:
        raise NotImplementedError("sluice.dask: one table per query (joins need a shuffle)")
    (pattern,) = tables.values()
    plan = Plan(query, tables, plan_partitions(pattern, rows_per_partition, config,
                                               files_per_partition))
    partials = [dask.delayed(run_partition, pure=True)(plan.partition_query(p), config,
                                                       dask_key_name=f"sluice-partition-{n}")
                for n, p in enumerate(plan.partitions)]
    final = dask.delayed(combine, pure=True)(plan, partials, config, form)
    return partials, final


def sql(query, tables, client=None, config=None, rows_per_partition=None, form="df",
        files_per_partition=None):
    """The query's result, computed on the Dask cluster of `client` (else Dask's default
    scheduler): a pandas DataFrame, or with form="rows" a list of tuples as fetchall() gives.
    `tables`: {name: glob or list of globs} (one table); `config`: the settings of each worker's
    Sluice (threads, memory_limit, s3_* ...); `rows_per_partition`: cut files with more rows
    into ranges of their row groups; `files_per_partition`: files read by one partition (by
    default about four partitions per worker, so that each worker's scan reads ahead across
    files while Dask still balances the load)."""
    if files_per_partition is None:
        files_per_partition = 1
        if client is not None and rows_per_partition is None:
            (pattern,) = tables.values()
            count = len(plan_partitions(pattern, config=config))
            workers = max(1, len(client.scheduler_info()["workers"]))
            files_per_partition = max(1, count // (4 * workers))
    _, final = delayed_query(query, tables, config, rows_per_partition, form,
                             files_per_partition)
    if client is not None:
        return client.compute(final).result()
    return final.compute()
