"""pandas: read_sql (string and text()), read_sql_query with params, read_sql_table (via SQLAlchemy)."""
import pandas as pd
import sqlalchemy as sa
from compat_common import SCHEMA, check, url

engine = sa.create_engine(url("psycopg2"))
df = pd.read_sql(f"SELECT id, name, balance FROM {SCHEMA}.customers ORDER BY id", engine)
check("read_sql shape", df.shape, (3, 3))
check("read_sql names", list(df["name"]), ["ann", "bob", "cid"])
df = pd.read_sql(sa.text(f"SELECT id, amount, ordered_on FROM {SCHEMA}.orders WHERE customer_id = :c ORDER BY id"), engine, params={"c": 1})
check("read_sql text() params", list(df["id"]), [100, 101])
df = pd.read_sql_query(f"SELECT ratio FROM {SCHEMA}.orders ORDER BY id", engine)
check("float column", list(df["ratio"]), [0.5, 0.25, 1.5])
df = pd.read_sql_table("orders", engine, schema=SCHEMA)
check("read_sql_table", sorted(df.columns), sorted(["id", "customer_id", "amount", "ordered_on", "ordered_at", "ratio", "note"]))
check("read_sql_table rows", len(df), 3)
check("datetime dtype", str(df["ordered_at"].dtype), "datetime64[ns]")
print("DONE")
