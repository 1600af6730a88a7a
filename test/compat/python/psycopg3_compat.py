"""psycopg 3 (extended protocol): typed params, auto-prepare and prepare=True, binary cursor, pipeline mode, COPY, cancel."""
import time
import threading

import psycopg
from compat_common import SCHEMA, check, dsn

with psycopg.connect(dsn(), autocommit=True) as conn:
    check("server_version >= 15", conn.info.server_version >= 150000, True)
    cur = conn.cursor()
    cur.execute(f"SELECT id, name FROM {SCHEMA}.customers WHERE id = %s AND active = %s", (1, True))
    check("typed params", cur.fetchall(), [(1, "ann")])

    for i in range(7):  # auto-prepared after prepare_threshold (5) executions
        cur.execute(f"SELECT count(*) FROM {SCHEMA}.orders WHERE customer_id = %s", (1,))
        check(f"repeat {i}", cur.fetchone(), (2,))
    cur.execute("SELECT %s::int * 2", (21,), prepare=True)
    check("prepare=True", cur.fetchone(), (42,))

    import datetime
    import decimal
    cur.execute("SELECT %s::timestamp, %s::numeric, %s::smallint, %s", (datetime.datetime(2024, 1, 2, 3, 4, 5), decimal.Decimal("1.50"), 7, "txt"))
    check("timestamp/numeric/int2/text params", cur.fetchone(), (datetime.datetime(2024, 1, 2, 3, 4, 5), decimal.Decimal("1.50"), 7, "txt"))

    bcur = conn.cursor(binary=True)
    bcur.execute(f"SELECT id, name, balance, created, active FROM {SCHEMA}.customers ORDER BY id")
    rows = bcur.fetchall()
    check("binary cursor", [(r[0], r[1], str(r[2]), r[4]) for r in rows], [(1, "ann", "10.50", True), (2, "bob", "0.00", False), (3, "cid", "1234.56", True)])
    check("binary timestamptz", rows[0][3].astimezone(datetime.timezone.utc).isoformat(), "2024-01-01T00:00:00+00:00")

    with conn.pipeline():
        c1 = conn.execute("SELECT 1")
        c2 = conn.execute("SELECT %s::text", ("two",))
        c3 = conn.execute(f"SELECT count(*) FROM {SCHEMA}.customers")
    check("pipeline", (c1.fetchone(), c2.fetchone(), c3.fetchone()), ((1,), ("two",), (3,)))

    with conn.transaction():
        conn.execute("CREATE TEMP TABLE copy3 (id int, label text)")
        with cur.copy("COPY copy3 (id, label) FROM STDIN") as cp:
            cp.write_row((1, "one"))
            cp.write_row((2, None))
        cur.execute("SELECT id, label FROM copy3 ORDER BY id")
        check("copy in", cur.fetchall(), [(1, "one"), (2, None)])
        out = bytearray()
        with cur.copy("COPY (SELECT id, label FROM copy3 ORDER BY id) TO STDOUT") as cp:
            for data in cp:
                out += data
        check("copy out", bytes(out).decode(), "1\tone\n2\t\\N\n")

with psycopg.connect(dsn()) as conn:
    with conn.cursor(name="compat_named3") as named:
        named.itersize = 2
        named.execute("SELECT g FROM generate_series(1, 5) g ORDER BY g")
        check("named cursor", [r[0] for r in named], [1, 2, 3, 4, 5])
    conn.commit()
    timer = threading.Timer(0.3, conn.cancel)
    timer.start()
    start = time.time()
    try:
        conn.execute("SELECT pg_sleep(5)")
        check("cancel raised", False, True)
    except psycopg.errors.QueryCanceled as e:
        check("cancel sqlstate", e.sqlstate, "57014")
        check("cancel fast", time.time() - start < 4, True)
        conn.rollback()
print("DONE")
