"""psqlODBC through pyodbc, DSN-less (driver .so named in the connection string), with UseDeclareFetch=0
(extended protocol for parameterised SQLExecute) and =1 (params inlined into DECLARE … CURSOR + FETCH):
SQLTables, SQLColumns, SQLPrimaryKeys, SQLForeignKeys, SQLStatistics, SQLGetTypeInfo, parameterised SELECT."""
import os
import sys

import pyodbc
from compat_common import DBNAME, HOST, PORT, SCHEMA, USER, check

DRIVER = os.environ.get("PSQLODBC_DRIVER", "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so")

for udf in ("0", "1"):
    tag = f"[UseDeclareFetch={udf}]"
    conn = pyodbc.connect(
        f"DRIVER={{{DRIVER}}};SERVER={HOST};PORT={PORT};DATABASE={DBNAME};UID={USER};PWD=;SSLmode=disable;UseDeclareFetch={udf};Fetch=2",
        autocommit=True,
        timeout=10,
    )
    check(f"{tag} dbms name", conn.getinfo(pyodbc.SQL_DBMS_NAME), "PostgreSQL")
    check(f"{tag} dbms version", conn.getinfo(pyodbc.SQL_DBMS_VER).startswith("15."), True)
    cur = conn.cursor()
    check(f"{tag} tables", sorted(r.table_name for r in cur.tables(schema=SCHEMA, tableType="TABLE")), ["customers", "orders"])
    check(f"{tag} views", [r.table_name for r in cur.tables(schema=SCHEMA, tableType="VIEW")], ["order_summary"])
    cols = [(r.column_name, r.type_name, r.nullable) for r in cur.columns(table="customers", schema=SCHEMA)]
    check(f"{tag} columns", [c[0] for c in cols], ["id", "name", "email", "balance", "created", "active"])
    check(f"{tag} column types", [c[1] for c in cols], ["int4", "text", "varchar", "numeric", "timestamptz", "bool"])
    check(f"{tag} nullable", [c[2] for c in cols], [0, 0, 1, 1, 1, 1])
    check(f"{tag} primary keys", [r.column_name for r in cur.primaryKeys("orders", schema=SCHEMA)], ["id"])
    fks = [(r.fkcolumn_name, r.pktable_name, r.pkcolumn_name) for r in cur.foreignKeys(foreignTable="orders", foreignSchema=SCHEMA)]
    check(f"{tag} foreign keys", fks, [("customer_id", "customers", "id")])
    stats = [r.index_name for r in cur.statistics("orders", schema=SCHEMA) if r.index_name]
    if os.environ.get("COMPAT_NO_INDEX") != "1":
        check(f"{tag} statistics", sorted(stats), ["orders_customer_idx", "orders_pkey"])
    types = [r.type_name for r in cur.getTypeInfo()]
    check(f"{tag} type info", all(t in types for t in ("int4", "int8", "text", "numeric", "bool")), True)
    cur.execute(f"SELECT id, name, balance, active FROM {SCHEMA}.customers WHERE id >= ? AND name <> ? ORDER BY id", 1, "bob")
    rows = [(r[0], r[1], str(r[2]), r[3]) for r in cur.fetchall()]
    check(f"{tag} parameterised select", rows, [(1, "ann", "10.50", "1"), (3, "cid", "1234.56", "1")])
    cur.execute("SELECT g FROM generate_series(1, 5) g ORDER BY g")
    check(f"{tag} multi-fetch", [r[0] for r in cur.fetchall()], [1, 2, 3, 4, 5])
    try:
        cur.execute("SELECT * FROM no_such_table")
        check(f"{tag} error raised", False, True)
    except pyodbc.Error as e:
        check(f"{tag} error sqlstate", e.args[0], "42P01")
    conn.close()
print("DONE")
