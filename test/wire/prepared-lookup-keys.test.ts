/**
 * The keys of kept point lookups (iceberg-table-source.ts keptLookup): small non-negative integer values are
 * kept by array position, every other value (negative, fractional, ≥ 4096, bigint, text) by Map. Over the real
 * wire, repeated values must answer exactly what they answered the first time, as PostgreSQL would: an array
 * that grows past its first sizes, keys on both sides of the array's bound, int8 keys beyond 2^53 (2^53 and
 * 2^53 + 1 are one double apart from nothing: they must not share an entry), a float8 parameter (64 finds
 * id 64, 64.5 finds nothing), lookups of another column between two of the key's, and more distinct values than
 * a source keeps (the kept lookups are dropped and made again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { pointAnswerStats } from '../../src/iceberg/read/point-lookup-answer.ts';

let server: LakegateServer;
let c: pg.Client;

const INT4_IDS = [-1, 0, 1, 63, 64, 127, 1000, 4095, 4096, 65536, 100000];
const INT8_IDS = ['-3', '0', '1', '65535', '65536', '9007199254740992', '9007199254740993', '-9007199254740993'];

/** one execution of a named prepared statement (Parse once, then Bind / Execute / Sync: pgbench -M prepared) */
async function rows(name: string, text: string, value: unknown): Promise<unknown[]> {
  return (await c.query({ name, text, values: [value] })).rows.map((r: { v: unknown }) => r.v);
}
const k4 = (id: unknown): Promise<unknown[]> => rows('k4', 'SELECT v FROM pk.k4 WHERE id = $1', id);

beforeAll(async () => {
  server = await startLakegate();
  c = new pg.Client({ connectionString: server.url });
  await c.connect();
  await c.query('CREATE SCHEMA pk');
  await c.query('CREATE TABLE pk.k4 (id int, v text)');
  await c.query(`INSERT INTO pk.k4 VALUES ${INT4_IDS.map((id) => `(${id}, 'v${id}')`).join(', ')}`);
  await c.query('CREATE TABLE pk.k8 (id int8, v text)');
  await c.query(`INSERT INTO pk.k8 VALUES ${INT8_IDS.map((id) => `(${id}, 'w${id}')`).join(', ')}`);
}, 60_000);
afterAll(async () => {
  await c?.end();
  await server?.close();
});

describe('kept point lookups by key', () => {
  it('int4 keys on both sides of the array bound, absent keys, repeated: the same answers', async () => {
    await k4(1); // fills the file cache
    // 1, 64, 1000, 4095: the array grows from 64 to 128, 1024 and 4096 slots; 2, 4097 and 65537 are absent; -1 and
    // 4096 on go by Map
    const probes = [1, 64, 1000, 4095, 2, 4097, 65537, -1, 0, 4096, 65536, 100000, 63, 127];
    const expected = (id: number): unknown[] => (INT4_IDS.includes(id) ? [`v${id}`] : []);
    for (const id of probes) expect(await k4(id), `first ${id}`).toEqual(expected(id));
    const hits = pointAnswerStats.hits;
    for (let round = 0; round < 2; round++) for (const id of probes) expect(await k4(id), `again ${id}`).toEqual(expected(id));
    expect(pointAnswerStats.hits - hits).toBe(2 * probes.length);
  });

  it('int8 keys beyond 2^53 keep apart; a float8 parameter compares as a double', async () => {
    const k8 = (id: string): Promise<unknown[]> => rows('k8', 'SELECT v FROM pk.k8 WHERE id = $1', id);
    for (let round = 0; round < 3; round++) {
      for (const id of INT8_IDS) expect(await k8(id), `${id} round ${round}`).toEqual([`w${id}`]);
      expect(await k8('9007199254740994')).toEqual([]);
      expect(await k8('2')).toEqual([]);
    }
    const f8 = (x: number): Promise<unknown[]> => rows('f8', 'SELECT v FROM pk.k4 WHERE id = $1::float8', x);
    for (let round = 0; round < 3; round++) {
      expect(await f8(64)).toEqual(['v64']);
      expect(await f8(64.5)).toEqual([]);
      expect(await f8(-1)).toEqual(['v-1']);
    }
  });

  it('another column between two lookups of the key, then more values than a source keeps', async () => {
    const byV = (v: string): Promise<unknown[]> => rows('byv', 'SELECT id AS v FROM pk.k4 WHERE v = $1', v);
    expect(await k4(64)).toEqual(['v64']);
    expect(await byV('v64')).toEqual([64]);
    expect(await k4(64)).toEqual(['v64']);
    expect(await byV('v1000')).toEqual([1000]);
    // past LOOKUP_PLANS (4096) distinct values the kept lookups are cleared and kept again
    for (let id = 2000; id < 6300; id++) {
      if ((await k4(id)).length !== (INT4_IDS.includes(id) ? 1 : 0)) throw new Error(`id ${id}: wrong row count`);
    }
    for (const id of [0, 1, 64, 4095, 4096, 65536, -1, 3]) expect(await k4(id), `after clearing ${id}`).toEqual(INT4_IDS.includes(id) ? [`v${id}`] : []);
  }, 60_000);
});
