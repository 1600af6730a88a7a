"""asyncpg (extended protocol, binary results): connect, type introspection (set_type_codec), prepared fetch, cursor."""
import asyncio
import datetime
import decimal
import json

import asyncpg
from compat_common import DBNAME, HOST, PORT, SCHEMA, USER, check


async def main() -> None:
    conn = await asyncpg.connect(host=HOST, port=PORT, user=USER, database=DBNAME)
    check("server version", conn.get_server_version().major, 15)
    # introspects pg_catalog.json through pg_type (asyncpg's TYPE_BY_NAME query)
    await conn.set_type_codec("json", encoder=json.dumps, decoder=json.loads, schema="pg_catalog")
    check("json codec", await conn.fetchval("SELECT '{\"a\": [1, 2]}'::json"), {"a": [1, 2]})
    rows = await conn.fetch(f"SELECT id, name, balance, created, active FROM {SCHEMA}.customers WHERE id <= $1 ORDER BY id", 2)
    check("fetch", [(r["id"], r["name"], r["balance"], r["active"]) for r in rows], [(1, "ann", decimal.Decimal("10.50"), True), (2, "bob", decimal.Decimal("0.00"), False)])
    check("timestamptz", rows[0]["created"], datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc))
    row = await conn.fetchrow(f"SELECT o.ordered_on, o.ordered_at, o.ratio, o.note FROM {SCHEMA}.orders o WHERE o.id = $1", 101)
    check("fetchrow", tuple(row), (datetime.date(2024, 3, 2), datetime.datetime(2024, 3, 2, 11, 30), 0.25, None))
    stmt = await conn.prepare("SELECT $1::int[] AS a, $2::text AS t")
    check("prepared params", [a.name for a in stmt.get_attributes()], ["a", "t"])
    check("prepared fetch", tuple(await stmt.fetchrow([1, 2], "x")), ([1, 2], "x"))
    async with conn.transaction():
        got = [r["g"] async for r in conn.cursor("SELECT g FROM generate_series(1, 5) g ORDER BY g", prefetch=2)]
    check("cursor", got, [1, 2, 3, 4, 5])
    try:
        await conn.fetch("SELECT * FROM no_such_table")
        check("error raised", False, True)
    except asyncpg.exceptions.UndefinedTableError as e:
        check("error sqlstate", e.sqlstate, "42P01")
    await conn.close()
    print("DONE")


asyncio.run(main())
