SET enable_external_file_cache = false;

CREATE VIEW lineitem AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/lineitem.parquet');
CREATE VIEW orders AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/orders.parquet');
CREATE VIEW customer AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/customer.parquet');
CREATE VIEW part AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/part.parquet');
CREATE VIEW partsupp AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/partsupp.parquet');
CREATE VIEW supplier AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/supplier.parquet');
CREATE VIEW nation AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/nation.parquet');
CREATE VIEW region AS SELECT * FROM read_parquet('http://127.0.0.1:59647/tpch/region.parquet');