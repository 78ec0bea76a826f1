-- Each line is compared with DuckDB: derived name, type, value text, NULL-ness or error kind.
-- integers and literal typing
42
-42
0
2147483647
2147483648
-2147483648
9223372036854775807
9223372036854775808
-9223372036854775808
170141183460469231731687303715884105727
1701411834604692317316873037158841057270
00042
1_000
1::TINYINT
1::SMALLINT
1::INT
1::BIGINT
1::HUGEINT
127::TINYINT
128::TINYINT
-128::TINYINT
32767::SMALLINT
CAST(1 AS INT8)
CAST(1 AS INT4)
CAST(1 AS INT2)
-- decimals
1.5
.5
0.5
-0.05
100.25
123456789012345678.123
1.000
1.5 + 2.25
1.5 - 2.25
1.5 * 2.25
1 + 1.5
1.5 / 2
7.5 % 2
1::DECIMAL(5,2)
1::NUMERIC
CAST(1.25 AS DECIMAL(3,1))
CAST(1.35 AS DECIMAL(3,1))
CAST(-1.25 AS DECIMAL(3,1))
CAST(123.456 AS DECIMAL(4,1))
CAST(999.99 AS DECIMAL(4,1))
CAST('1.5e1' AS DECIMAL(4,1))
CAST(1.5 AS DECIMAL(38,37))
99999999999999999999999999999999999999.0 + 1
CAST(2.5 AS INTEGER)
CAST(-2.5 AS INTEGER)
CAST(1.49 AS INTEGER)
-- floating point
1e3
1.5e-2
0.1::DOUBLE
1e16::DOUBLE
1e15::DOUBLE
1e-5::DOUBLE
0.0001::DOUBLE
123456789.125::DOUBLE
100::DOUBLE
-0.0::DOUBLE
1e308 * 10
'nan'::DOUBLE
'inf'::DOUBLE
'-inf'::DOUBLE
1e-320::DOUBLE
123.456::FLOAT
12345678.9::FLOAT
3.0::FLOAT
1e20::FLOAT
0.1::FLOAT
1.0::FLOAT + 1
2.0::DOUBLE * 3
1.5::DECIMAL(3,1) + 1.0::FLOAT
2.5::DOUBLE::INTEGER
3.5::DOUBLE::INTEGER
(-2.5)::DOUBLE::INTEGER
1e10::DOUBLE::INTEGER
'1e400'::DOUBLE
-- integer arithmetic
1 + 2
7 - 10
6 * 7
5 / 2
7 // 2
-7 // 2
7 % 3
-7 % 3
1 // 0
1 % 0
1 / 0
2147483647 + 1
2147483647 + 1::BIGINT
-2147483647 - 2
9223372036854775807::BIGINT + 1
1::TINYINT + 1
127::TINYINT + 1::TINYINT
1::TINYINT + 1000
1::SMALLINT * 2
-(1 + 2)
-(-2147483647 - 1)
-- comparisons and logic
1 = 1
1 <> 2
1 != 2
1 == 1
1 < 2
2 <= 2
3 > 4
3 >= 4
1 = 1.0
1.5 = 1.50
1.0::FLOAT = 1
1 = '1'
'abc' < 'abd'
'a' = 'a '
true AND false
true AND NULL
false AND NULL
true OR NULL
false OR NULL
true AND false AND true
NOT true
NOT NULL
NULL IS NULL
1 IS NOT NULL
NULL = NULL
'nan'::DOUBLE = 'nan'::DOUBLE
'nan'::DOUBLE > 1e308
'a' = 1
-- strings and blobs
'hello'
''
'it''s'
'a' || 'b'
'a' || NULL
1 || 2
'\xAA\x41\x5C\x27\x22'::BLOB
'abc'::BLOB
'\x00'::BLOB
'abc'::VARCHAR(10)
'héllo wörld'
CAST(42 AS VARCHAR)
CAST(1.50 AS VARCHAR)
CAST(' 12 ' AS INTEGER)
CAST('1.5' AS INTEGER)
CAST('abc' AS INTEGER)
CAST('99999999999' AS INTEGER)
CAST('true' AS BOOLEAN)
CAST('T' AS BOOLEAN)
CAST('maybe' AS BOOLEAN)
CAST(1 AS BOOLEAN)
CAST(true AS INTEGER)
-- dates and times
DATE '2020-01-01'
DATE '1970-01-01'
DATE '1969-12-31'
DATE '0000-01-01'
DATE '-100-01-01'
DATE '12345-01-01'
DATE '2020-02-29'
DATE '2021-02-29'
DATE '2020-13-01'
'infinity'::DATE
'-infinity'::DATE
DATE '2020-01-01' + 1
DATE '2020-01-01' - 1
1 + DATE '2020-01-01'
DATE '2020-03-01' - DATE '2020-02-01'
DATE '2020-01-01' < TIMESTAMP '2020-01-01 01:00:00'
DATE '2020-01-01' = '2020-01-01'
TIME '12:34:56.5'
TIME '01:02:03.000120'
TIME '10:00'
TIME '23:59:59.999999'
TIME '25:00:00'
TIMESTAMP '2020-01-01 12:00:00.5'
TIMESTAMP '2020-01-01'
TIMESTAMP '1969-12-31 23:59:59.999999'
TIMESTAMP '2020-01-01T10:11:12'
TIMESTAMP '0001-01-01 00:00:00'
CAST(TIMESTAMP '2020-05-06 07:08:09' AS DATE)
CAST(TIMESTAMP '2020-05-06 07:08:09.25' AS TIME)
CAST(DATE '2020-05-06' AS TIMESTAMP)
CAST(DATE '2020-05-06' AS VARCHAR)
-- NULL and typeof
NULL
NULL + 1
NULL::INTEGER
CAST(NULL AS VARCHAR)
typeof(1)
typeof(NULL)
typeof(1.5 * 2.25)
TRY_CAST('abc' AS INTEGER)
TRY_CAST('42' AS INTEGER)
NULL + 1.5
NULL || 'a'
NULL = 1
-NULL
NULL + NULL
NULL::DATE + 1
NULL AND true
0.05::DECIMAL(2,2)
0.5::DECIMAL(3,3)
-0.5::DECIMAL(1,1)
0::DECIMAL(1,1)
0.0
99999999999999999999999999999999999999.0 + 1
'1e400'::DOUBLE
CAST('-100-01-01 10:00:00.5' AS TIMESTAMP)
CAST('0001-01-01 (BC) 10:00:00' AS TIMESTAMP)
-- unsigned integers
255::UTINYINT
65535::USMALLINT
4294967295::UINTEGER
18446744073709551615::UBIGINT
1::UINT8
256::UTINYINT
(-1)::UINTEGER
1::UTINYINT + 1::UTINYINT
250::UTINYINT + 10::UTINYINT
5::UTINYINT - 10::UTINYINT
1::UINTEGER + 1
1::UINTEGER + 1::INTEGER
1::UBIGINT + 1::BIGINT
1::USMALLINT + 2::SMALLINT
1::UTINYINT + 2::INTEGER
1::UINTEGER + 1::UTINYINT
1::UBIGINT + 1.5
1::UINTEGER / 2
7::UINTEGER // 2
7::UINTEGER % 4
3::UTINYINT = 3
3::UINTEGER < 4::UINTEGER
CAST('42' AS UBIGINT)
CAST(42::UBIGINT AS VARCHAR)
CAST(3000000000::UINTEGER AS INTEGER)
CAST(3000000000::UINTEGER AS BIGINT)
-- timestamps with time zone (UTC)
TIMESTAMPTZ '2020-01-01 10:00:00'
'2020-01-01 10:00:00+05:30'::TIMESTAMPTZ
'2020-01-01 10:00:00-08'::TIMESTAMPTZ
CAST(TIMESTAMP '2020-01-01 10:00:00.5' AS TIMESTAMP WITH TIME ZONE)
CAST(TIMESTAMPTZ '2020-01-01 23:00:00' AS DATE)
CAST(TIMESTAMPTZ '2020-01-01 23:00:00' AS TIMESTAMP)
TIMESTAMPTZ '2020-01-01' = TIMESTAMP '2020-01-01'
TIMESTAMPTZ '2020-01-01' < DATE '2020-01-02'
'-infinity'::TIMESTAMPTZ
-- UUID
'6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID
'{6BA7B8109DAD11D180B400C04FD430C8}'::UUID
'00000000-0000-0000-0000-000000000000'::UUID < 'ffffffff-0000-0000-0000-000000000000'::UUID
'xyz'::UUID
CAST('6ba7b810-9dad-11d1-80b4-00c04fd430c8'::UUID AS VARCHAR)
-- nanosecond timestamps
'2020-01-01 10:00:00.123456789'::TIMESTAMP_NS
'2020-01-01 10:00:00'::TIMESTAMP_NS
'1969-12-31 23:59:59.999999999'::TIMESTAMP_NS
CAST('2020-01-01 10:00:00.123456789'::TIMESTAMP_NS AS TIMESTAMP)
CAST(TIMESTAMP '2020-01-01 10:00:00.5' AS TIMESTAMP_NS)
'2020-01-01 10:00:00.000001'::TIMESTAMP_NS = '2020-01-01 10:00:00.000001'::TIMESTAMP_NS
-- CASE, COALESCE, BETWEEN, IN, LIKE (names, types and values)
CASE WHEN 1 > 0 THEN 'yes' ELSE 'no' END
CASE 2 WHEN 1 THEN 10 WHEN 2 THEN 20 END
CASE WHEN NULL THEN 1 ELSE 2.5 END
CASE WHEN true THEN DATE '2020-01-01' ELSE TIMESTAMP '2020-01-02 03:04:05' END
COALESCE(NULL, 2, 3)
COALESCE(NULL, 1.5, 2)
COALESCE(NULL, NULL)
2 BETWEEN 1 AND 3
2 NOT BETWEEN 1 AND 3
0.06 BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
2 IN (1, 2, 3)
2 NOT IN (1, 3)
NULL IN (1, 2)
'green' LIKE '%ee%'
'green' NOT LIKE 'g_een'
'Green' ILIKE 'g%'
'a%c' LIKE 'a\%c' ESCAPE '\'
-- dates, intervals, parts, substrings
INTERVAL '3' MONTH
INTERVAL '90' DAY
INTERVAL 2 YEAR
INTERVAL '1 year 2 months 3 days 04:05:06.5'
DATE '1998-12-01' - INTERVAL '90' DAY
DATE '1994-01-01' + INTERVAL '1' YEAR
DATE '2020-01-31' + INTERVAL '1' MONTH
TIMESTAMP '2020-01-01 10:00:00' + INTERVAL '90' MINUTE
INTERVAL '1' DAY + INTERVAL '1' HOUR
EXTRACT(year FROM DATE '1996-02-29')
EXTRACT(month FROM TIMESTAMP '1996-02-29 10:00:00')
year(DATE '1992-12-31')
date_part('quarter', DATE '1992-08-01')
substring('hello', 2, 3)
substring('hello' FROM 2 FOR 2)
substring('héllo', 2)
lower('AbC')
upper('AbC')
length('héllo')
-- subqueries as expressions
(SELECT 42)
EXISTS (SELECT 1)
-- trigonometry, hashes
sin(1)
cos(1)
tan(1)
cot(1)
asin(0.5)
acos(0.5)
atan(1)
atan2(1, 2)
atan2(NULL, 1)
degrees(pi())
radians(180)
sin(1::INTEGER)
sin(NULL)
asin(2)
acos(-2)
cot(0)
sin('inf'::DOUBLE)
md5('abc')
md5('')
md5(NULL)
sha1('abc')
sha256('abc')
sha256('héllo')
-- regular expressions (RE2)
regexp_matches('abc', 'b')
regexp_matches('abc', '^b')
regexp_matches('ABC', 'b', 'i')
regexp_matches('ABC', 'b', 'c')
regexp_matches('a.c', '.', 'l')
regexp_matches('a' || chr(10) || 'b', 'a.b')
regexp_matches('a' || chr(10) || 'b', 'a.b', 'n')
regexp_full_match('abc', 'a.c')
regexp_full_match('abcd', 'a.c')
regexp_replace('aaa', 'a', 'b')
regexp_replace('aaa', 'a', 'b', 'g')
regexp_replace('hello world', '(\w+) (\w+)', '\2 \1')
regexp_replace('a.b.c', '\.', '-', 'g')
regexp_replace('ABA', 'a', 'x', 'gi')
regexp_extract('abc123def', '[0-9]+')
regexp_extract('abc123def', '([a-z]+)([0-9]+)', 2)
regexp_extract('abc', 'x')
regexp_extract('abc', 'b', 3)
regexp_extract('a', NULL)
regexp_matches(NULL, 'a')
regexp_matches('abc', '(')
regexp_extract('abc', 'a', -1)
regexp_matches('abc', 'B', 'x')
regexp_matches('a', 'a', 'g')
regexp_matches('a' || chr(10) || 'b', 'a.b', 's')
chr(65)
chr(233)
chr(128512)
chr(-1)
chr(1114112)
ascii('A')
ascii('é')
ascii('')
ascii(NULL)
-- epoch, date_add, strptime
epoch(TIMESTAMP '2020-01-01 00:00:01.5')
epoch(DATE '2020-01-01')
epoch(TIMESTAMP '1969-12-31 23:59:59.5')
epoch_ms(TIMESTAMP '2020-01-01 00:00:01.5')
epoch_ms(TIMESTAMP '1969-12-31 23:59:59.9995')
date_add(DATE '2020-01-31', INTERVAL 1 MONTH)
date_add(TIMESTAMP '2020-01-01 10:00:00', INTERVAL 90 MINUTE)
strptime('2020-03-04 05:06:07', '%Y-%m-%d %H:%M:%S')
strptime('04/03/20', '%d/%m/%y')
strptime('04/03/99', '%d/%m/%y')
strptime('Mar 5 2021', '%b %d %Y')
strptime('Tuesday, September 1 2020', '%A, %B %d %Y')
strptime('2020-01-01 10:00:00.123456', '%Y-%m-%d %H:%M:%S.%f')
strptime('2020-01-01 10:00:00.5', '%Y-%m-%d %H:%M:%S.%f')
strptime('2020-1-5', '%Y-%m-%d')
strptime('2020-060', '%Y-%j')
strptime('2020-13-01', '%Y-%m-%d')
strptime('2021-02-29', '%Y-%m-%d')
strptime('x', '%Y')
strptime('2020-01-01 extra', '%Y-%m-%d')
strptime(NULL, '%Y')
try_strptime('x', '%Y')
try_strptime('2020', '%Y')
try_strptime('2021-02-29', '%Y-%m-%d')
-- pattern operators
'abc' ~ 'a.c'
'abc' ~ 'b'
'abc' !~ 'b'
NULL ~ 'a'
'abc' ~~ 'a%'
'ABC' ~~* 'a%'
'abc' !~~ 'x%'
'ABC' !~~* 'a%'
'abc' SIMILAR TO 'a.c'
'abc' NOT SIMILAR TO 'b'
'abc' SIMILAR TO '('
-- date parts: ISO weeks and years at year ends, centuries, eras, Julian days, fractions
extract(isodow FROM DATE '2024-01-07')
extract(isodow FROM DATE '2024-01-08')
extract(week FROM DATE '2024-12-30')
extract(week FROM DATE '2021-01-03')
extract(week FROM DATE '2020-12-31')
extract(isoyear FROM DATE '2024-12-30')
extract(isoyear FROM DATE '2021-01-01')
extract(yearweek FROM DATE '2021-01-01')
extract(yearweek FROM TIMESTAMP '2024-06-15 10:00:00')
extract(weekofyear FROM DATE '1999-01-01')
extract(weekday FROM DATE '2024-01-07')
extract(century FROM DATE '2001-01-01')
extract(century FROM DATE '2000-12-31')
extract(century FROM DATE '-0100-01-01')
extract(millennium FROM DATE '2000-12-31')
extract(millennium FROM TIMESTAMP '2001-01-01 00:00:00')
extract(era FROM DATE '2000-12-31')
extract(julian FROM DATE '2000-12-31')
extract(julian FROM DATE '1970-01-01')
extract(epoch FROM TIMESTAMP '2024-01-01 00:00:01.5')
extract(epoch FROM DATE '2024-01-01')
extract(epoch FROM TIMESTAMP '1969-12-31 23:59:59.25')
extract(millisecond FROM TIMESTAMP '2024-01-01 00:00:01.5')
extract(microsecond FROM TIMESTAMP '2024-01-01 00:00:59.123456')
extract(millisecond FROM TIMESTAMP '1969-12-31 23:59:59.25')
date_part('ms', TIMESTAMP '2024-01-01 00:00:07.001')
date_part('us', TIMESTAMP '2024-01-01 00:00:07.001')
extract(timezone FROM TIMESTAMPTZ '2024-01-01 00:00:00+00')
-- to_timestamp, and the statement's own time compared with itself
to_timestamp(1700000000.5)
to_timestamp(0)
to_timestamp(-1.25)
to_timestamp(NULL)
current_date = today()
now() = current_timestamp
typeof(now())
typeof(current_date)
-- nested values: literals, text form, casts, access, list and map functions
[1, 2, NULL]
['a', '', NULL, ' x', 'y,z', 'it''s']
[[1, 2], [], NULL]
{'a': 1, 'b': 'two', 'c': [3]}
{'a': NULL}
MAP {'k': 1, 'j': NULL}
MAP {1: [1], 2: []}
[]
[1, 2.5]
[DATE '2024-01-01', NULL]
[1, 2]::VARCHAR
{'x': [1]}::VARCHAR
'[1, 2, NULL]'::INTEGER[]
'[[a, b], []]'::VARCHAR[][]
'{''a'': 1, b: text}'::STRUCT(a INTEGER, b VARCHAR)
'{k=1, j=2}'::MAP(VARCHAR, BIGINT)
[1, 2]::BIGINT[]
{'a': 1}::STRUCT(a DOUBLE)
NULL::INTEGER[]
([1, 2, 3])[2]
([1, 2, 3])[-1]
([1, 2, 3])[5]
([1, 2, 3])[2:3]
([1, 2, 3])[:-2]
('hello')[2]
({'a': 1, 'b': 2}).b
{'a': 1, 'b': 2}['a']
struct_extract({'a': [1]}, 'a')
struct_pack(x := 1, y := 'z')
list_value(1, NULL, 3)
len([1, 2, 3])
len([])
array_length([NULL])
list_contains([1, 2], 2)
list_contains([1, NULL], NULL)
list_has(['a'], 'b')
MAP {'a': 1}['a']
MAP {'a': 1}['z']
map_extract(MAP {'a': 1}, 'a')
element_at(MAP {'a': 1}, 'z')
map_keys(MAP {'a': 1, 'b': 2})
map_values(MAP {'a': 1, 'b': NULL})
cardinality(MAP {'a': 1})
map([1, 2], ['x', 'y'])
list_sort([3, 1, NULL, 2])
list_sort([3, 1, NULL, 2], 'DESC', 'NULLS FIRST')
list_reverse_sort(['b', 'a'])
list_sort(list_distinct([1, 1, NULL, 2]))
list_unique([1, 1, NULL, 2])
list_sum([1, 2, NULL])
list_sum([1.5, 2.25])
list_avg([1, 2])
list_min(['b', 'a'])
list_max([DATE '2024-01-01', DATE '2023-01-01'])
list_count([1, NULL])
list_aggregate([1, 2, 3], 'sum')
list_concat([1], [2, 3])
list_concat(NULL, [1])
[1] || [2]
list_position([1, 2, NULL], NULL)
list_position([1, 2], 3)
list_reverse([1, 2, 3])
flatten([[1], [], [2, 3]])
string_split('a,b,,c', ',')
string_split('', ',')
str_split('abc', '')
array_to_string([1, NULL, 2], '-')
[1, 2] = [1, 2]
[1, 2] < [1, 2, 0]
[NULL] = [NULL]
{'a': 1} <> {'a': 2}
typeof([1])
typeof({'a': [1.5]})
typeof(MAP {'a': [1]})
list_transform([1, 2, NULL], x -> x + 1)
list_filter([1, 2, 3], x -> x > 1)
list_transform(['a', 'b'], s -> s || '!')
list_filter([[1], [], [2, 3]], x -> len(x) > 0)
