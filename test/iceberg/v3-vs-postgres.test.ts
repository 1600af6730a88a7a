/**
 * The same DML on a format v3 Iceberg table (deletion vectors) and on PostgreSQL gives the same answers:
 * row counts, RETURNING rows and the table after every statement — unpartitioned and partitioned, with
 * repeated deletes on the same files (DV merges), UPDATEs that move rows across partitions, whole-file deletes,
 * and a snapshot read back by time travel.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { sharedPgCluster } from '../helpers/pg-cluster.ts';

const passthrough = { getTypeParser: () => (v: string) => v };
const rows = async (c: pg.Client, sql: string): Promise<string[][]> =>
  ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

const STATEMENTS = [
  `INSERT INTO v3pg.t SELECT g, g % 5, 'r' || g, g * 1.5 FROM generate_series(1, 400) g`,
  `INSERT INTO v3pg.t SELECT g, g % 5, 'r' || g, NULL FROM generate_series(401, 600) g`,
  `DELETE FROM v3pg.t WHERE id % 7 = 0 RETURNING id, k`,
  `DELETE FROM v3pg.t WHERE id % 11 = 0 OR id BETWEEN 100 AND 140 RETURNING id`,
  `UPDATE v3pg.t SET v = v * 2, name = upper(name) WHERE id % 13 = 0 RETURNING id, k, name, v`,
  `UPDATE v3pg.t SET k = (k + 1) % 5 WHERE id BETWEEN 300 AND 320 RETURNING id, k`,
  `DELETE FROM v3pg.t WHERE k = 3 AND id > 500`,
  `INSERT INTO v3pg.t SELECT g, g % 5, 'again' || g, 0 FROM generate_series(601, 650) g`,
  `DELETE FROM v3pg.t WHERE name LIKE 'R%' RETURNING id`,
  `UPDATE v3pg.t SET v = -1 WHERE v IS NULL AND id % 3 = 0`,
  `DELETE FROM v3pg.t WHERE id > 600`,
];
const CHECK = 'SELECT id, k, name, v FROM v3pg.t ORDER BY id';

describe('format v3 DML answers like PostgreSQL', () => {
  let server: LakegateServer;
  let lg: pg.Client;
  let ref: pg.Client;

  beforeAll(async () => {
    const cluster = await sharedPgCluster();
    ref = new pg.Client({ connectionString: cluster.url, types: passthrough as never });
    await ref.connect();
    await ref.query('DROP SCHEMA IF EXISTS v3pg CASCADE');
    await ref.query('CREATE SCHEMA v3pg');
    server = await startLakegate();
    lg = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await lg.connect();
    await lg.query('CREATE SCHEMA v3pg');
  });
  afterAll(async () => {
    await ref?.query('DROP SCHEMA IF EXISTS v3pg CASCADE');
    await ref?.end();
    await lg?.end();
    await server?.close();
  });

  const TABLE = '(id int8 NOT NULL, k int4, name text, v numeric(12,2))';
  it.each([
    ['unpartitioned', `CREATE TABLE v3pg.t ${TABLE} WITH (format_version = 3)`],
    ['partitioned by k', `CREATE TABLE v3pg.t ${TABLE} WITH (format_version = 3, partitioning = 'k')`],
  ])('%s', async (_name, create) => {
    await ref.query('DROP TABLE IF EXISTS v3pg.t');
    await lg.query('DROP TABLE IF EXISTS v3pg.t');
    await ref.query(`CREATE TABLE v3pg.t ${TABLE}`);
    await lg.query(create);
    let midSnapshot: string | null = null;
    let midRows: string[][] = [];
    for (const [i, sql] of STATEMENTS.entries()) {
      const want = await ref.query({ text: sql, rowMode: 'array' });
      const got = await lg.query({ text: sql, rowMode: 'array' });
      expect([got.command, got.rowCount], sql).toEqual([want.command, want.rowCount]);
      const sorted = (r: pg.QueryResult): string[] => (r.rows as unknown[][]).map((x) => x.map((v) => (v === null ? 'NULL' : String(v))).join('|')).sort();
      expect(sorted(got), sql).toEqual(sorted(want));
      expect(await rows(lg, CHECK), `after ${sql}`).toEqual(await rows(ref, CHECK));
      if (i === 5) {
        midSnapshot = (await rows(lg, `SELECT snapshot_id FROM v3pg."t$snapshots" ORDER BY committed_at DESC, snapshot_id LIMIT 1`))[0]![0]!;
        midRows = await rows(ref, CHECK);
      }
    }
    expect(await rows(lg, `SELECT id, k, name, v FROM v3pg.t FOR SYSTEM_VERSION AS OF ${midSnapshot!} ORDER BY id`)).toEqual(midRows);
    // at most one DV per data file, and no v2 position delete files
    const dvs = await rows(lg, `SELECT file_format, count(*), count(DISTINCT referenced_data_file) FROM v3pg."t$files" WHERE content = 1 GROUP BY 1`);
    expect(dvs.length).toBe(1);
    expect(dvs[0]![0]).toBe('PUFFIN');
    expect(dvs[0]![1]).toBe(dvs[0]![2]);
  });
});
