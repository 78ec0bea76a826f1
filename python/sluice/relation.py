"""Relations: queries built step by step and run when their rows are asked for, as DuckDB's
relational API (con.read_parquet(...).filter(...).aggregate(...).df()).

A relation is SQL text over a connection; each step wraps it in a new SELECT, and fetching runs
it. Nothing is read before then.
"""


def _quote_string(text):
    return "'" + str(text).replace("'", "''") + "'"


def _quote_identifier(name):
    return '"' + str(name).replace('"', '""') + '"'


class Relation:
    """A query not yet run: its rows come from fetchall(), df(), fetchnumpy(), ..."""

    def __init__(self, connection, query, alias="rel"):
        self._connection = connection
        self._query = query
        self._alias = alias

    # What it is ------------------------------------------------------------------------------

    def sql_query(self):
        """The SQL text the relation runs."""
        return self._query

    @property
    def alias(self):
        return self._alias

    def set_alias(self, alias):
        return Relation(self._connection, self._query, alias)

    def _describe(self):
        return self._connection.sql(f"DESCRIBE {self._query}").fetchall()

    @property
    def columns(self):
        return [row[0] for row in self._describe()]

    @property
    def types(self):
        return [row[1] for row in self._describe()]

    @property
    def dtypes(self):
        return self.types

    @property
    def shape(self):
        rows = self._connection.sql(f"SELECT count(*) FROM ({self._query})").fetchone()[0]
        return (rows, len(self.columns))

    def __len__(self):
        return self.shape[0]

    # Steps -----------------------------------------------------------------------------------

    def _wrap(self, select):
        return Relation(self._connection, select.format(rel=f"({self._query}) AS {self._alias}"),
                        self._alias)

    def filter(self, condition):
        return self._wrap(f"SELECT * FROM {{rel}} WHERE {condition}")

    def project(self, *expressions):
        return self._wrap(f"SELECT {', '.join(expressions)} FROM {{rel}}")

    select = project

    def aggregate(self, aggregates, group_by=""):
        group = f" GROUP BY {group_by}" if group_by else ""
        return self._wrap(f"SELECT {aggregates} FROM {{rel}}{group}")

    def order(self, expression):
        return self._wrap(f"SELECT * FROM {{rel}} ORDER BY {expression}")

    sort = order

    def limit(self, count, offset=0):
        return self._wrap(f"SELECT * FROM {{rel}} LIMIT {int(count)} OFFSET {int(offset)}")

    def distinct(self):
        return self._wrap("SELECT DISTINCT * FROM {rel}")

    def count(self, expression="*"):
        return self._wrap(f"SELECT count({expression}) FROM {{rel}}")

    def query(self, name, sql):
        """Runs `sql`, in which the relation is called `name`."""
        return Relation(self._connection, f"WITH {_quote_identifier(name)} AS ({self._query}) {sql}")

    # Rows ------------------------------------------------------------------------------------

    def execute(self):
        return self._connection.sql(self._query)

    def fetchall(self):
        return self.execute().fetchall()

    def fetchone(self):
        return self.execute().fetchone()

    def fetchmany(self, size=1):
        return self.execute().fetchmany(size)

    def fetchnumpy(self):
        return self.execute().fetchnumpy()

    def df(self):
        return self.execute().df()

    fetchdf = df
    to_df = df

    def arrow(self):
        return self.execute().arrow()

    fetch_arrow_table = arrow
    to_arrow_table = arrow

    def fetch_record_batch(self):
        return self.execute().fetch_record_batch()

    def __arrow_c_stream__(self, requested_schema=None):
        return self.execute().__arrow_c_stream__(requested_schema)

    # Elsewhere -------------------------------------------------------------------------------

    def create(self, table):
        self._connection.execute(f"CREATE TABLE {_quote_identifier(table)} AS {self._query}")

    def create_view(self, view, replace=True):
        verb = "CREATE OR REPLACE VIEW" if replace else "CREATE VIEW"
        self._connection.execute(f"{verb} {_quote_identifier(view)} AS {self._query}")
        return self

    to_view = create_view

    def write_parquet(self, path):
        self._connection.execute(f"COPY ({self._query}) TO {_quote_string(path)} (FORMAT parquet)")

    to_parquet = write_parquet

    def write_csv(self, path):
        self._connection.execute(f"COPY ({self._query}) TO {_quote_string(path)} (FORMAT csv)")

    to_csv = write_csv

    def write_arrow(self, path, stream=False):
        form = "arrows" if stream else "arrow"
        self._connection.execute(f"COPY ({self._query}) TO {_quote_string(path)} (FORMAT {form})")

    def __repr__(self):
        preview = self.limit(10).fetchall()
        names = self.columns
        lines = [" | ".join(names)]
        lines += [" | ".join("NULL" if value is None else str(value) for value in row)
                  for row in preview]
        return "\n".join(lines)

    def show(self):
        print(repr(self))


def _read(function):
    def read(connection, path, **options):
        arguments = [_quote_string(path) if isinstance(path, str)
                     else "[" + ", ".join(_quote_string(p) for p in path) + "]"]
        for name, value in options.items():
            if isinstance(value, bool):
                text = "true" if value else "false"
            elif isinstance(value, (int, float)):
                text = str(value)
            else:
                text = _quote_string(value)
            arguments.append(f"{name} = {text}")
        return Relation(connection, f"SELECT * FROM {function}({', '.join(arguments)})")
    read.__doc__ = f"A relation over {function}(path, options...): nothing is read until fetched."
    return read


def install(connection_class, module):
    """Adds the relational API to the connection class and the module."""
    connection_class.read_parquet = _read("read_parquet")
    connection_class.read_csv = _read("read_csv")
    connection_class.table = lambda con, name: Relation(
        con, f"SELECT * FROM {_quote_identifier(name)}", name)
    connection_class.view = connection_class.table
    connection_class.values = lambda con, *values: Relation(
        con, "SELECT * FROM (VALUES (" + ", ".join(_sql_literal(v) for v in values) + "))")
    module.Relation = Relation


def _sql_literal(value):
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return _quote_string(value)
