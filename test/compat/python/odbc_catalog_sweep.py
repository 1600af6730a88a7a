"""psqlODBC catalog sweep through pyodbc (test/compat/odbc-catalog-sweep.test.ts runs it against lakegate and
PostgreSQL and diffs the output): SQLGetInfo, SQLTables, SQLColumns, SQLStatistics, SQLPrimaryKeys, SQLForeignKeys,
SQLSpecialColumns (rowIdColumns / rowVerColumns), SQLProcedures, SQLProcedureColumns, SQLGetTypeInfo over every SQL
type, over the sweep schema (test/compat/sweep/sweep-pair.ts). Prints "## <call>" sections, one line per row; a
column whose name holds "oid" prints OID (lakegate's OIDs are not PostgreSQL's). Args: host port database
UseDeclareFetch driver."""
import sys

import pyodbc

host, port, database, udf, driver = sys.argv[1:6]
conn = pyodbc.connect(
    f"DRIVER={{{driver}}};SERVER={host};PORT={port};DATABASE={database};UID=postgres;PWD=;SSLmode=disable;UseDeclareFetch={udf};Fetch=2",
    autocommit=True,
    timeout=10,
)
cur = conn.cursor()


def dump(name, fn):
    print("##", name)
    try:
        rows = fn()
        names = [d[0] for d in cur.description] if cur.description else []
        if names:
            print("cols:", " ".join(names))
        for r in rows:
            print(" | ".join("OID" if "oid" in (names[i] if i < len(names) else "") else repr(v) for i, v in enumerate(r)))
    except Exception as e:
        print("EXC", type(e).__name__, str(e.args[0]) if e.args else "", str(e)[:300])

for info in ("SQL_DBMS_NAME", "SQL_DBMS_VER", "SQL_DATABASE_NAME", "SQL_USER_NAME", "SQL_IDENTIFIER_QUOTE_CHAR", "SQL_SCHEMA_TERM", "SQL_MAX_COLUMN_NAME_LEN", "SQL_MAX_TABLE_NAME_LEN", "SQL_MAX_SCHEMA_NAME_LEN", "SQL_DEFAULT_TXN_ISOLATION", "SQL_CATALOG_NAME", "SQL_KEYWORDS"):
    try: print("info", info, conn.getinfo(getattr(pyodbc, info)))
    except Exception as e: print("info", info, "EXC", e)
dump("tables(all)", lambda: cur.tables().fetchall())
dump("tables(shop)", lambda: cur.tables(schema="shop").fetchall())
dump("tables(public)", lambda: cur.tables(schema="public").fetchall())
dump("tables(TABLE)", lambda: cur.tables(tableType="TABLE").fetchall())
dump("tables(VIEW)", lambda: cur.tables(tableType="VIEW").fetchall())
dump("tables(SYSTEM TABLE)", lambda: cur.tables(tableType="SYSTEM TABLE").fetchall())
dump("tables(schemas)", lambda: cur.tables(catalog="", schema="%", table="").fetchall())
dump("tables(types)", lambda: cur.tables(catalog="", schema="", table="", tableType="%").fetchall())
dump("tables(catalogs)", lambda: cur.tables(catalog="%", schema="", table="").fetchall())
for s, t in (("shop", "customers"), ("shop", "orders"), ("shop", "order_summary"), ("public", "notes"), ("public", "v_notes")):
    dump(f"columns({s}.{t})", lambda: cur.columns(table=t, schema=s).fetchall())
    dump(f"statistics({s}.{t})", lambda: cur.statistics(t, schema=s).fetchall())
    dump(f"statistics({s}.{t},unique)", lambda: cur.statistics(t, schema=s, unique=True).fetchall())
    dump(f"primaryKeys({s}.{t})", lambda: cur.primaryKeys(t, schema=s).fetchall())
    dump(f"foreignKeys(fk {s}.{t})", lambda: cur.foreignKeys(foreignTable=t, foreignSchema=s).fetchall())
    dump(f"foreignKeys(pk {s}.{t})", lambda: cur.foreignKeys(table=t, schema=s).fetchall())
    dump(f"rowIdColumns({s}.{t})", lambda: cur.rowIdColumns(t, schema=s).fetchall())
    dump(f"rowVerColumns({s}.{t})", lambda: cur.rowVerColumns(t, schema=s).fetchall())
dump("columns(no schema orders)", lambda: cur.columns(table="orders").fetchall())
dump("columns(pg_catalog.pg_am)", lambda: cur.columns(table="pg_am", schema="pg_catalog").fetchall())
dump("procedures(shop)", lambda: cur.procedures(schema="shop").fetchall())
dump("procedures(abs)", lambda: cur.procedures(procedure="abs").fetchall())
dump("procedures(pg_catalog.date_trunc)", lambda: cur.procedures(procedure="date_trunc", schema="pg_catalog").fetchall())
dump("procedureColumns(abs)", lambda: cur.procedureColumns(procedure="abs").fetchall())
dump("procedureColumns(pg_catalog.date_trunc)", lambda: cur.procedureColumns(procedure="date_trunc", schema="pg_catalog").fetchall())
dump("procedureColumns(pg_get_keywords)", lambda: cur.procedureColumns(procedure="pg_get_keywords").fetchall())
dump("getTypeInfo()", lambda: cur.getTypeInfo().fetchall())
for name in ("SQL_CHAR","SQL_VARCHAR","SQL_LONGVARCHAR","SQL_WCHAR","SQL_WVARCHAR","SQL_WLONGVARCHAR","SQL_DECIMAL","SQL_NUMERIC","SQL_SMALLINT","SQL_INTEGER","SQL_REAL","SQL_FLOAT","SQL_DOUBLE","SQL_BIT","SQL_TINYINT","SQL_BIGINT","SQL_BINARY","SQL_VARBINARY","SQL_LONGVARBINARY","SQL_TYPE_DATE","SQL_TYPE_TIME","SQL_TYPE_TIMESTAMP","SQL_SS_TIME2","SQL_GUID","SQL_INTERVAL_DAY","SQL_INTERVAL_DAY_TO_SECOND","SQL_INTERVAL_YEAR_TO_MONTH"):
    v = getattr(pyodbc, name, None)
    if v is None: continue
    dump(f"getTypeInfo({name})", lambda: cur.getTypeInfo(v).fetchall())
dump("select orders", lambda: cur.execute("SELECT * FROM shop.orders").fetchall())
print("desc", cur.execute("SELECT * FROM shop.orders").description)
print("desc", cur.execute("SELECT * FROM shop.customers").description)
print("DONE")
