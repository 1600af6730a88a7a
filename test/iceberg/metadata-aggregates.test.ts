/**
 * aggregate_from_metadata end to end: COUNT(*) / COUNT(col) / MIN / MAX over Iceberg tables answered from the
 * manifests (EXPLAIN shows `MetadataAggregate … from_metadata`, EXPLAIN ANALYZE `files scanned 0`) with the
 * text PostgreSQL gives for the same rows (a real PostgreSQL holds them too), and the normal scan wherever the
 * metadata is not exact: NaN, deletes, string bounds, a filter that splits files.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { sharedPgCluster } from '../helpers/pg-cluster.ts';

const passthrough = { getTypeParser: () => (v: string) => v };
const OFF = `SET lakegate.disabled_optimizer_rules = 'aggregate_from_metadata'`;

/** the rows of the test tables, the same SQL on both servers (4 inserts per table: at least 4 files) */
const NUMS = `(id int8, i int4, s int2, n numeric(12,2), d date, ts timestamp, tz timestamptz, f float8, r float4, t text, p int4)`;
const numsInsert = (k: number): string => `INSERT INTO ma.nums SELECT g, CASE WHEN g % 7 = 0 THEN NULL ELSE g * 3 - 500 END, (g % 300)::int2,
  CASE WHEN g % 11 = 0 THEN NULL ELSE g * 1.25 - 100.5 END, DATE '2023-12-30' + g, TIMESTAMP '2024-01-01 00:00:00' + g * interval '37 minutes',
  TIMESTAMPTZ '2024-03-30 23:00:00+00' + g * interval '13 minutes', g * 0.5 - 7, (g % 50)::float4 / 4 + 0.25, 'v' || g, CASE WHEN g % 13 = 0 THEN NULL ELSE g % 4 END
  FROM generate_series(${k * 250 + 1}, ${k * 250 + 250}) g`;

describe('aggregates from Iceberg metadata', () => {
  let server: LakegateServer;
  let lg: pg.Client;
  let ref: pg.Client;

  const rows = async (c: pg.Client, sql: string): Promise<string[][]> => (await c.query({ text: sql, rowMode: 'array' })).rows as string[][];
  const plan = async (sql: string): Promise<string> => (await rows(lg, `EXPLAIN ${sql}`)).map((r) => r[0]).join('\n');
  const analyze = async (sql: string): Promise<string> => (await rows(lg, `EXPLAIN ANALYZE ${sql}`)).map((r) => r[0]).join('\n');
  /** the answer on lakegate (rule on and off) equals PostgreSQL's, as text */
  const same = async (sql: string): Promise<string[][]> => {
    const want = await rows(ref, sql);
    expect(await rows(lg, sql), sql).toEqual(want);
    await lg.query(OFF);
    try {
      expect(await rows(lg, sql), `${sql} (rule off)`).toEqual(want);
    } finally {
      await lg.query('RESET lakegate.disabled_optimizer_rules');
    }
    return want;
  };
  /** answered from metadata: no data file read */
  const fromMetadata = async (sql: string): Promise<void> => {
    expect(await plan(sql)).toMatch(/MetadataAggregate: ma\.\w+.* files=0\/\d+ .*from_metadata/);
    const a = await analyze(sql);
    expect(a, a).toMatch(/files scanned 0 \/ \d+.*answered from metadata|MetadataAggregate: ma\.\w+[^\n]*\(actual rows=1/);
    expect(a).not.toMatch(/files scanned [1-9]/);
  };
  /** the rule applied but the metadata was not exact: the files were read */
  const scanned = async (sql: string): Promise<void> => {
    const a = await analyze(sql);
    expect(a, a).toMatch(/files scanned [1-9]\d* \/ \d+/);
    expect(a).not.toMatch(/answered from metadata/);
  };

  beforeAll(async () => {
    const cluster = await sharedPgCluster();
    ref = new pg.Client({ connectionString: cluster.url, types: passthrough as never });
    await ref.connect();
    await ref.query('DROP SCHEMA IF EXISTS ma CASCADE');
    await ref.query('CREATE SCHEMA ma');
    server = await startLakegate();
    lg = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await lg.connect();
    await lg.query('CREATE SCHEMA ma');
    for (const c of [lg, ref]) {
      await c.query(`SET TimeZone = 'America/New_York'`);
      await c.query(`CREATE TABLE ma.nums ${NUMS}${c === lg ? ` WITH (partitioning = ARRAY['p'])` : ''}`);
      for (let k = 0; k < 4; k++) await c.query(numsInsert(k));
      await c.query(`CREATE TABLE ma.fl (id int4, f float8, r float4)`);
      await c.query(`INSERT INTO ma.fl SELECT g, g * 1.5, g FROM generate_series(1, 20) g`);
      await c.query(`INSERT INTO ma.fl VALUES (21, 'NaN', 'NaN'), (22, NULL, -3)`);
      await c.query(`CREATE TABLE ma.del (id int8, v int4)`);
      await c.query(`INSERT INTO ma.del SELECT g, g FROM generate_series(1, 100) g`);
      await c.query(`INSERT INTO ma.del SELECT g, g FROM generate_series(101, 200) g`);
      await c.query(`DELETE FROM ma.del WHERE id % 10 = 0 OR id = 200`);
      await c.query(`CREATE TABLE ma.empty (id int8, n numeric(8,3), tz timestamptz)`);
    }
  }, 120_000);
  afterAll(async () => {
    await ref?.query('DROP SCHEMA IF EXISTS ma CASCADE').catch(() => undefined);
    await ref?.end();
    await lg?.end();
    await server?.close();
  });

  it('count(*), count(col), min and max of int, bigint, smallint, numeric, date, timestamp, timestamptz', async () => {
    const q = `SELECT count(*), count(i), min(i), max(i), min(id), max(id), min(s), max(s), count(n), min(n), max(n),
      min(d), max(d), min(ts), max(ts), min(tz), max(tz), count(t), count(p), min(p), max(p) FROM ma.nums`;
    expect((await same(q))[0]!.slice(0, 4)).toEqual(['1000', '858', '-497', '2500']);
    await fromMetadata(q);
    // a bare count(*): one row (an in-progress version once returned a second, stale row)
    expect(await same('SELECT count(*) FROM ma.nums')).toEqual([['1000']]);
    await fromMetadata('SELECT count(*) FROM ma.nums');
    // count(1) and a HAVING / expression above the aggregate
    await same(`SELECT count(1) AS n, max(tz) - min(tz) AS span FROM ma.nums HAVING count(*) > 10`);
    await fromMetadata(`SELECT count(1) AS n, max(tz) - min(tz) AS span FROM ma.nums HAVING count(*) > 10`);
  });

  it('the float8 / float4 bounds answer when there is no NaN', async () => {
    const q = `SELECT min(f), max(f), min(r), max(r) FROM ma.nums`;
    await same(q);
    await fromMetadata(q);
  });

  it('a WHERE on the identity partition column answers from the partition values', async () => {
    for (const w of [`p = 2`, `p IN (1, 3)`, `p >= 2 AND p < 4`, `p = 0 OR p IS NULL`, `p IS NULL`, `p IS NOT NULL AND p <> 1`, `p = 9`, `p = 5000000000`]) {
      const q = `SELECT count(*), count(n), min(n), max(tz), min(d) FROM ma.nums WHERE ${w}`;
      await same(q);
      await fromMetadata(q);
    }
  });

  // (EXPLAIN takes no parameters over the wire; the optimizer tests show `$n` reaching the metadata)
  it('with $n parameters, NULL ones included', async () => {
    for (const [w, values] of [[`p = $1`, [2]], [`p IN ($1, $2)`, [1, 3]], [`p = $1`, [null]], [`p >= $1 AND p < $2`, [1, 3]]] as const) {
      const q = `SELECT count(*), count(n), min(n), max(tz) FROM ma.nums WHERE ${w}`;
      const want = (await ref.query({ text: q, values: [...values], rowMode: 'array' })).rows;
      expect((await lg.query({ text: q, values: [...values], rowMode: 'array' })).rows, `${q} ${values}`).toEqual(want);
    }
  });

  it('a WHERE that splits files, LIKE, NOT or a string min falls back to the scan with the same answer', async () => {
    for (const q of [
      `SELECT count(*), max(i) FROM ma.nums WHERE i > 50`,
      `SELECT count(*) FROM ma.nums WHERE t LIKE 'v1%'`,
      `SELECT count(*) FROM ma.nums WHERE NOT (p = 1)`,
      `SELECT min(t), max(t) FROM ma.nums`,
    ]) {
      await same(q);
      await scanned(q);
    }
    // not rewritten at all: GROUP BY an expression, sum, DISTINCT count
    for (const q of [`SELECT p + 1, count(*) FROM ma.nums GROUP BY p + 1 ORDER BY 1`, `SELECT sum(i), count(*) FROM ma.nums`, `SELECT count(DISTINCT p) FROM ma.nums`]) {
      await same(q);
      expect(await plan(q)).not.toMatch(/MetadataAggregate/);
    }
  });

  it('GROUP BY the identity partition column answers per partition; GROUP BY another column scans', async () => {
    for (const q of [
      `SELECT p, count(*), count(i), min(n), max(tz) FROM ma.nums GROUP BY p ORDER BY p`,
      `SELECT count(*), p, max(d) FROM ma.nums WHERE p IN (1, 2) OR p IS NULL GROUP BY p ORDER BY p NULLS FIRST`,
      `SELECT p, count(*) FROM ma.nums WHERE p = 7 GROUP BY p`,
    ]) {
      await same(q);
      await fromMetadata(q);
    }
    const q = `SELECT s, count(*) FROM ma.nums GROUP BY s ORDER BY s LIMIT 5`;
    await same(q);
    await scanned(q);
    // an empty table has no group
    expect(await rows(lg, `SELECT id, count(*) FROM ma.empty GROUP BY id`)).toEqual([]);
  });

  it('after partition evolution: GROUP BY needs identity partitions in every file, a WHERE may use bounds', async () => {
    for (const c of [lg, ref]) {
      await c.query(`CREATE TABLE ma.evo (id int8, p int4)${c === lg ? ` WITH (partitioning = ARRAY['p'])` : ''}`);
      await c.query(`INSERT INTO ma.evo SELECT g, g % 3 FROM generate_series(1, 30) g`);
      if (c === lg) await c.query(`ALTER TABLE ma.evo SET (partitioning = '')`);
      await c.query(`INSERT INTO ma.evo SELECT g, 1 FROM generate_series(31, 40) g`);
    }
    const grouped = `SELECT p, count(*), max(id) FROM ma.evo GROUP BY p ORDER BY p`;
    await same(grouped);
    await scanned(grouped);
    // the unpartitioned file holds p = 1 only: its bounds make `p = 1` exact, and rule out p = 2
    for (const q of [`SELECT count(*), max(id) FROM ma.evo WHERE p = 1`, `SELECT count(*), min(id) FROM ma.evo WHERE p = 2`]) {
      await same(q);
      await fromMetadata(q);
    }
  });

  it('FORMAT JSON names the node and carries the metadata counters', async () => {
    const doc = JSON.parse((await rows(lg, `EXPLAIN (FORMAT JSON, ANALYZE) SELECT count(*) FROM ma.nums WHERE p = 1`))[0]![0]!) as [{ Plan: Record<string, unknown> }];
    const find = (p: Record<string, unknown>): Record<string, unknown> | undefined =>
      p['Node Type'] === 'MetadataAggregate' ? p : ((p.Plans as Record<string, unknown>[] | undefined) ?? []).map(find).find((x) => x !== undefined);
    const node = find(doc[0].Plan)!;
    expect(node).toMatchObject({ 'Relation Name': 'nums', 'Files Scanned': 0, 'From Metadata': true, 'Actual Rows': 1 });
    expect(node['Files Total'] as number).toBeGreaterThan(0);
  });

  it('NaN in a float column: min / max come from the data (NaN is the greatest float)', async () => {
    const q = `SELECT count(*), count(f), min(f), max(f), min(r), max(r) FROM ma.fl`;
    expect((await same(q))[0]).toEqual(['22', '21', '1.5', 'NaN', '-3', 'NaN']);
    await scanned(q);
    // count alone still comes from the metadata
    await same(`SELECT count(*), count(f), min(id), max(id) FROM ma.fl`);
    await fromMetadata(`SELECT count(*), count(f), min(id), max(id) FROM ma.fl`);
  });

  it('a table with deletes is scanned', async () => {
    const q = `SELECT count(*), count(v), min(v), max(v) FROM ma.del`;
    expect((await same(q))[0]).toEqual(['180', '180', '1', '199']);
    await scanned(q);
  });

  it('an empty table: count 0, min / max NULL', async () => {
    const q = `SELECT count(*), count(n), min(n), max(tz), min(id) FROM ma.empty`;
    expect((await same(q))[0]).toEqual(['0', '0', null, null, null]);
    expect(await plan(q)).toMatch(/MetadataAggregate: ma\.empty .*from_metadata/);
  });

  it('time travel answers for the snapshot asked for', async () => {
    const snaps = await rows(lg, `SELECT snapshot_id FROM ma."nums$snapshots" ORDER BY committed_at`);
    const first = snaps[0]![0];
    const q = `SELECT count(*), min(id), max(id), max(n) FROM ma.nums FOR SYSTEM_VERSION AS OF ${first}`;
    const got = await rows(lg, q);
    expect(got).toEqual(await rows(ref, `SELECT count(*), min(id), max(id), max(n) FROM ma.nums WHERE id <= 250`));
    expect(await plan(q)).toMatch(/MetadataAggregate: ma\.nums AS OF \d+ .*from_metadata/);
    await lg.query(OFF);
    try {
      expect(await rows(lg, q)).toEqual(got);
    } finally {
      await lg.query('RESET lakegate.disabled_optimizer_rules');
    }
  });

  it('inside a transaction the staged rows count; after ROLLBACK they do not', async () => {
    const q = `SELECT count(*), max(id), min(n) FROM ma.nums`;
    const before = await rows(lg, q);
    await lg.query('BEGIN');
    try {
      await lg.query(`INSERT INTO ma.nums (id, n, p) VALUES (100000, -999.99, 1)`);
      expect(await rows(lg, q)).toEqual([[String(Number(before[0]![0]) + 1), '100000', '-999.99']]);
      expect(await analyze(q)).toMatch(/answered from metadata/);
    } finally {
      await lg.query('ROLLBACK');
    }
    expect(await rows(lg, q)).toEqual(before);
  });

  it('EXPLAIN names the node and the rule can be switched off', async () => {
    const q = `SELECT count(*), max(d) FROM ma.nums WHERE p = 1`;
    const text = await plan(q);
    expect(text).toMatch(/MetadataAggregate: ma\.nums aggr=\[count\(\*\), max\(nums\.d\)\] filters=\[p = 1\] files=0\/\d+/);
    await lg.query(OFF);
    try {
      expect(await plan(q)).not.toMatch(/MetadataAggregate/);
    } finally {
      await lg.query('RESET lakegate.disabled_optimizer_rules');
    }
  });
});
