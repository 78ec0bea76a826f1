"""Results through Arrow's PyCapsule interface (__arrow_c_stream__, __arrow_c_schema__), read
here as a foreign consumer would: the C structs of the Arrow C Data and C Stream interfaces
declared with ctypes from the specification, their buffers decoded by the Arrow columnar format's
layouts, the values compared with fetchall() of the same query.

pyarrow is not in Debian 12; where it is installed, arrow() returns a pyarrow.Table made from
the same stream.
"""
import ctypes
import datetime
import decimal
import unittest

import sluice


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                    ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                  ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_get_pointer.restype = ctypes.c_void_p
_get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


def capsule_struct(capsule, name, struct):
    assert _get_name(capsule) == name, _get_name(capsule)
    return ctypes.cast(_get_pointer(capsule, name), ctypes.POINTER(struct)).contents


def fixed(array, index, ctype, count):
    pointer = ctypes.cast(array.buffers[index], ctypes.POINTER(ctype * count))
    return list(pointer.contents) if count else []


def is_valid(array, row):
    if array.null_count == 0 or not array.buffers[0]:
        return True
    bits = ctypes.cast(array.buffers[0], ctypes.POINTER(ctypes.c_uint8))
    return (bits[row // 8] >> (row % 8)) & 1 == 1


def decode(schema, array):
    """The rows of `array` as Python values, by the format string's layout."""
    fmt = schema.format.decode()
    n = array.length
    assert array.offset == 0
    valid = [is_valid(array, row) for row in range(n)]
    if fmt == "+s":
        columns = [decode(schema.children[i].contents, array.children[i].contents)
                   for i in range(schema.n_children)]
        return [tuple(c[row] for c in columns) if valid[row] else None for row in range(n)]
    if fmt in ("u", "z"):
        offsets = fixed(array, 1, ctypes.c_int32, n + 1)
        data = ctypes.string_at(array.buffers[2], offsets[n]) if offsets[n] else b""
        values = [data[offsets[r]:offsets[r + 1]] for r in range(n)]
        if fmt == "u":
            values = [v.decode() for v in values]
    elif fmt == "+l":
        offsets = fixed(array, 1, ctypes.c_int32, n + 1)
        elements = decode(schema.children[0].contents, array.children[0].contents)
        values = [elements[offsets[r]:offsets[r + 1]] for r in range(n)]
    elif fmt == "b":
        bits = ctypes.cast(array.buffers[1], ctypes.POINTER(ctypes.c_uint8))
        values = [(bits[r // 8] >> (r % 8)) & 1 == 1 for r in range(n)]
    elif fmt == "i":
        values = fixed(array, 1, ctypes.c_int32, n)
    elif fmt == "l":
        values = fixed(array, 1, ctypes.c_int64, n)
    elif fmt == "g":
        values = fixed(array, 1, ctypes.c_double, n)
    elif fmt == "tdD":
        values = [datetime.date(1970, 1, 1) + datetime.timedelta(days=d)
                  for d in fixed(array, 1, ctypes.c_int32, n)]
    elif fmt.startswith("d:"):
        scale = int(fmt.split(",")[1])
        raw = ctypes.string_at(array.buffers[1], 16 * n)
        values = [decimal.Decimal(int.from_bytes(raw[16 * r:16 * r + 16], "little", signed=True))
                  .scaleb(-scale, decimal.Context(prec=40)) for r in range(n)]
    else:
        raise AssertionError("format not decoded by this test: " + fmt)
    return [values[row] if valid[row] else None for row in range(n)]


def read_stream(capsule):
    """(names, formats, rows, batch count) of an ArrowArrayStream capsule, consumed."""
    stream = capsule_struct(capsule, b"arrow_array_stream", ArrowArrayStream)
    schema = ArrowSchema()
    assert stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0
    assert schema.format == b"+s"
    names = [schema.children[i].contents.name.decode() for i in range(schema.n_children)]
    formats = [schema.children[i].contents.format.decode() for i in range(schema.n_children)]
    rows = []
    batches = 0
    while True:
        array = ArrowArray()
        assert stream.get_next(ctypes.byref(stream), ctypes.byref(array)) == 0
        if not array.release:
            break
        batches += 1
        rows.extend(decode(schema, array))
        array.release(ctypes.byref(array))
        assert not array.release  # released means marked released
    schema.release(ctypes.byref(schema))
    return names, formats, rows, batches


QUERY = """SELECT i::INTEGER AS i, i * 1000000000000 AS big, i / 4 AS half,
    CASE WHEN i % 3 = 0 THEN NULL ELSE 'text ' || i END AS s,
    DATE '2024-02-28' + (i % 5)::INTEGER AS d, i % 2 = 0 AS even,
    (i * 1.25)::DECIMAL(9, 2) AS price, i::HUGEINT * 170141183460469231731687303715 AS huge,
    CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL, i + 1] END AS list,
    {'a': i::INTEGER, 'b': CASE WHEN i % 5 = 0 THEN NULL ELSE 'b' || i END} AS st
    FROM range(5000) t(i)"""


class ArrowInterchange(unittest.TestCase):
    def setUp(self):
        self.con = sluice.connect()

    def test_stream_holds_the_rows_fetchall_gives(self):
        expected = self.con.sql(QUERY).fetchall()
        names, formats, rows, batches = read_stream(
            self.con.sql(QUERY).fetch_record_batch().__arrow_c_stream__())
        self.assertEqual(names, ["i", "big", "half", "s", "d", "even", "price", "huge", "list", "st"])
        # DuckDB's mapping: DECIMAL and HUGEINT as decimal128, DATE as date32[day].
        self.assertEqual(formats, ["i", "l", "g", "u", "tdD", "b", "d:9,2", "d:38,0", "+l", "+s"])
        self.assertGreater(batches, 1)  # several batches, one per chunk
        self.assertEqual(len(rows), len(expected))
        for got, want in zip(rows, expected):
            self.assertEqual(tuple(got[:-1]), tuple(want[:-1]))
            self.assertEqual(got[-1], tuple(want[-1].values()))

    def test_result_and_relation_are_arrow_streams(self):
        rows = read_stream(self.con.sql("SELECT 42 AS answer").__arrow_c_stream__())[2]
        self.assertEqual(rows, [(42,)])
        relation = self.con.sql("SELECT 1 AS x UNION ALL SELECT 2")  # a result here
        self.assertEqual(sorted(read_stream(relation.__arrow_c_stream__())[2]), [(1,), (2,)])

    def test_a_relation_exported_as_it_runs_and_a_partly_read_result_agree(self):
        query = ("SELECT i, 'n' || i AS s, i::DECIMAL(9,2) AS d, [i, i + 1] AS l "
                 "FROM range(10000) t(i) ORDER BY i DESC")
        expected = [row[:3] + (tuple(row[3]),) for row in self.con.sql(query).fetchall()]

        def rows(stream):
            return [tuple(row[:3]) + (tuple(row[3]),)
                    for row in read_stream(stream.__arrow_c_stream__())[2]]

        # Not yet run: the query runs with each chunk exported by the thread that made it.
        self.assertEqual(rows(self.con.sql(query).fetch_record_batch()), expected)
        partly = self.con.sql(query)
        first = partly.fetchone()
        # Run already: the rest of the result exported as the consumer reads.
        self.assertEqual([first[:3] + (tuple(first[3]),)] + rows(partly.fetch_record_batch()),
                         expected)
        self.assertEqual(partly.fetchall(), [])

    def test_schema_capsule(self):
        stream = self.con.sql("SELECT 1::BIGINT AS id, 'x' AS name").fetch_record_batch()
        capsule = stream.__arrow_c_schema__()  # owns the struct until it goes
        schema = capsule_struct(capsule, b"arrow_schema", ArrowSchema)
        children = [schema.children[i].contents for i in range(schema.n_children)]
        self.assertEqual([(c.name, c.format) for c in children], [(b"id", b"l"), (b"name", b"u")])
        self.assertTrue(all(c.flags & 2 for c in children))  # ARROW_FLAG_NULLABLE

    def test_a_stream_is_read_once(self):
        stream = self.con.sql("SELECT 1").fetch_record_batch()
        capsule = stream.__arrow_c_stream__()
        with self.assertRaises(sluice.InvalidInputException):
            stream.__arrow_c_stream__()
        del capsule  # released unread: the capsule frees the stream

    def test_a_stream_outlives_its_connection(self):
        stream = self.con.sql("SELECT i FROM range(10000) t(i)").fetch_record_batch()
        self.con.close()  # the stream keeps what it needs (its batches export on its threads)
        self.assertEqual(read_stream(stream.__arrow_c_stream__())[2], [(i,) for i in range(10000)])

    def test_arrow_gives_a_pyarrow_table_or_the_stream(self):
        table = self.con.sql("SELECT 7 AS seven").arrow()
        try:
            import pyarrow
        except ImportError:
            self.assertIsInstance(table, sluice.ArrowStream)
            self.assertEqual(read_stream(table.__arrow_c_stream__())[2], [(7,)])
            return
        self.assertIsInstance(table, pyarrow.Table)
        self.assertEqual(table.to_pylist(), [{"seven": 7}])

if __name__ == "__main__":
    unittest.main()
