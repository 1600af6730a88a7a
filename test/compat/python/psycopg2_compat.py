"""psycopg2 (simple protocol, client-side parameters): params, server-side named cursor, copy_expert in/out, cancel."""
import io
import time
import threading

import psycopg2
import psycopg2.errors
from compat_common import SCHEMA, check, dsn

conn = psycopg2.connect(dsn())
check("server_version >= 15", conn.server_version >= 150000, True)
check("client_encoding", conn.encoding, "UTF8")
cur = conn.cursor()

cur.execute(f"SELECT id, name, balance, active FROM {SCHEMA}.customers WHERE id = %s OR name = %s ORDER BY id", (1, "cid"))
rows = cur.fetchall()
check("params", [(r[0], r[1], str(r[2]), r[3]) for r in rows], [(1, "ann", "10.50", True), (3, "cid", "1234.56", True)])
check("description", [d.name for d in cur.description], ["id", "name", "balance", "active"])

cur.execute("SELECT %(a)s::int + 1 AS n, %(b)s AS s, %(c)s IS NULL AS isnull", {"a": 41, "b": "it's", "c": None})
check("named params", cur.fetchone(), (42, "it's", True))

cur.execute(f"SELECT o.ordered_on, o.ordered_at, o.ratio FROM {SCHEMA}.orders o WHERE o.id = %s", (100,))
d, ts, ratio = cur.fetchone()
check("typed values", (d.isoformat(), ts.isoformat(), ratio), ("2024-03-01", "2024-03-01T10:00:00", 0.5))
conn.commit()

named = conn.cursor(name="compat_named")
named.itersize = 2
named.execute("SELECT g FROM generate_series(1, 5) g ORDER BY g")
check("named cursor", [r[0] for r in named], [1, 2, 3, 4, 5])
named.close()
conn.commit()

cur.execute("CREATE TEMP TABLE copy_in (id int, label text)")
cur.copy_expert("COPY copy_in FROM STDIN WITH (FORMAT csv)", io.StringIO("1,one\n2,\"t,wo\"\n3,\n"))
check("copy in rowcount", cur.rowcount, 3)
out = io.StringIO()
cur.copy_expert("COPY (SELECT id, label FROM copy_in ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)", out)
check("copy out", out.getvalue(), 'id,label\n1,one\n2,"t,wo"\n3,\n')
out = io.StringIO()
cur.copy_expert(f"COPY {SCHEMA}.customers (id, email) TO STDOUT", out)
check("copy out text", out.getvalue(), "1\tann@example.com\n2\t\\N\n3\tcid@example.com\n")
conn.commit()

try:
    cur.execute("SELECT * FROM no_such_table")
    check("error raised", False, True)
except psycopg2.errors.UndefinedTable as e:
    check("error pgcode", e.pgcode, "42P01")
    conn.rollback()

timer = threading.Timer(0.3, conn.cancel)
timer.start()
start = time.time()
try:
    cur.execute("SELECT pg_sleep(5)")
    check("cancel raised", False, True)
except psycopg2.errors.QueryCanceled as e:
    check("cancel pgcode", e.pgcode, "57014")
    check("cancel fast", time.time() - start < 4, True)
    conn.rollback()
cur.execute("SELECT 1")
check("usable after cancel", cur.fetchone(), (1,))
conn.close()
print("DONE")
