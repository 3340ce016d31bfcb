"""
SQLAlchemy 1.4 (MySQL dialect over PyMySQL) and pandas against a Galene server: reflection with
inspect(), Table(..., autoload_with=...), pandas.read_sql_table / read_sql_query and DataFrame.to_sql
(creating a table from SQLAlchemy's MySQL DDL, and appending to a Doris UNIQUE KEY table).
Run by test/clients/sqlalchemy.test.ts with the port as argument; prints one JSON document on stdout.
Any exception fails the run (exit code 1 with the traceback on stderr).
"""
import datetime
import decimal
import json
import sys
import warnings

import pandas as pd
import sqlalchemy as sa

port = int(sys.argv[1])
engine = sa.create_engine(f"mysql+pymysql://root@127.0.0.1:{port}/py?charset=utf8mb4")
out = {}

with warnings.catch_warnings():
    # SQLAlchemy's MySQL dialect warns "Unknown schema content" for Doris's KEY / DISTRIBUTED / PROPERTIES clauses.
    warnings.simplefilter("ignore", sa.exc.SAWarning)
    insp = sa.inspect(engine)
    out["tables"] = insp.get_table_names()
    out["columns"] = {
        table: [[c["name"], repr(c["type"]), c["nullable"], c.get("comment")] for c in insp.get_columns(table)] for table in out["tables"]
    }
    out["pk"] = {table: insp.get_pk_constraint(table)["constrained_columns"] for table in out["tables"]}
    out["indexes"] = {table: insp.get_indexes(table) for table in out["tables"]}

    orders = sa.Table("orders", sa.MetaData(), autoload_with=engine)
    out["autoload"] = [[c.name, repr(c.type), c.nullable] for c in orders.columns]
    # Doris's key clause follows the column list, where SQLAlchemy's MySQL dialect does not look for keys:
    # declare the key columns to override reflection (what an ORM mapping needs).
    keyed = sa.Table("orders", sa.MetaData(), sa.Column("id", sa.BigInteger, primary_key=True), sa.Column("region", sa.String(16), primary_key=True), autoload_with=engine)
    out["keyed_pk"] = [c.name for c in keyed.primary_key.columns]
    with engine.connect() as conn:
        rows = conn.execute(sa.select(orders).where(orders.c.amount > decimal.Decimal("1")).order_by(orders.c.id)).fetchall()
        out["select"] = [[str(v) for v in row] for row in rows]

    frame = pd.read_sql_table("orders", engine)
    out["read_sql_table"] = {"dtypes": [str(t) for t in frame.dtypes], "rows": frame.astype(str).values.tolist()}
    query = pd.read_sql_query("SELECT region, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY region ORDER BY region", engine)
    out["read_sql_query"] = query.astype(str).values.tolist()

    new = pd.DataFrame({
        "id": [1, 2, 3],
        "name": ["a", "it's", None],
        "price": [1.5, None, 3.25],
        "day": [datetime.datetime(2024, 1, 1, 12, 30), datetime.datetime(2024, 2, 3), None],
    })
    # A new table from SQLAlchemy's MySQL DDL (no key, no distribution: Doris's defaults apply).
    new.to_sql("created", engine, index=False)
    created = pd.read_sql_query("SELECT * FROM created ORDER BY id", engine)
    out["to_sql_created"] = {"dtypes": [str(t) for t in created.dtypes], "rows": created.astype(str).values.tolist()}
    with engine.connect() as conn:
        out["created_ddl"] = conn.exec_driver_sql("SHOW CREATE TABLE created").fetchall()[0][1]
    # Appending into a Doris UNIQUE KEY table made beforehand; a second append of id 2 replaces the row.
    new.to_sql("target", engine, index=False, if_exists="append")
    pd.DataFrame({"id": [2], "name": ["replaced"], "price": [9.0], "day": [None]}).to_sql("target", engine, index=False, if_exists="append")
    target = pd.read_sql_query("SELECT * FROM target ORDER BY id", engine)
    out["to_sql_append"] = target.astype(str).values.tolist()

print(json.dumps(out, default=str))
