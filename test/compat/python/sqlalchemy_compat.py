"""SQLAlchemy 1.4 (psycopg2): first-connect probes, Inspector reflection, Table autoload, Core select."""
import os

import sqlalchemy as sa
from compat_common import SCHEMA, check, url

engine = sa.create_engine(url("psycopg2"), future=True)
insp = sa.inspect(engine)
check("schema listed", SCHEMA in insp.get_schema_names(), True)
check("tables", sorted(insp.get_table_names(schema=SCHEMA)), ["customers", "orders"])
check("views", insp.get_view_names(schema=SCHEMA), ["order_summary"])
check("has_table", insp.has_table("orders", schema=SCHEMA), True)
check("has_table missing", insp.has_table("nope", schema=SCHEMA), False)
cols = insp.get_columns("customers", schema=SCHEMA)
check("column names", [c["name"] for c in cols], ["id", "name", "email", "balance", "created", "active"])
check("column types", [str(c["type"]) for c in cols], ["INTEGER", "TEXT", "VARCHAR(80)", "NUMERIC(12, 2)", "TIMESTAMP", "BOOLEAN"])
check("nullable", [c["nullable"] for c in cols], [False, False, True, True, True, True])
check("timezone", cols[4]["type"].timezone, True)
check("pk", insp.get_pk_constraint("orders", schema=SCHEMA)["constrained_columns"], ["id"])
fks = insp.get_foreign_keys("orders", schema=SCHEMA)
check("fk", [(f["constrained_columns"], f["referred_schema"], f["referred_table"], f["referred_columns"]) for f in fks], [(["customer_id"], SCHEMA, "customers", ["id"])])
if os.environ.get("COMPAT_NO_INDEX") != "1":
    check("indexes", [(i["name"], i["column_names"], i["unique"]) for i in insp.get_indexes("orders", schema=SCHEMA)], [("orders_customer_idx", ["customer_id"], False)])
check("table comment", insp.get_table_comment("customers", schema=SCHEMA)["text"], "people who buy")
check("view definition", "count(*)" in insp.get_view_definition("order_summary", schema=SCHEMA), True)

meta = sa.MetaData()
orders = sa.Table("orders", meta, autoload_with=engine, schema=SCHEMA)
with engine.connect() as conn:
    rows = conn.execute(sa.select(orders.c.id, orders.c.amount).where(orders.c.customer_id == 1).order_by(orders.c.id)).all()
    check("core select", [(r[0], str(r[1])) for r in rows], [(100, "19.99"), (101, "5.00")])
    check("text()", conn.execute(sa.text("SELECT CAST(:x AS integer) + 1"), {"x": 1}).scalar(), 2)
print("DONE")
