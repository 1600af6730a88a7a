/**
 * A prepared point lookup answered from the rows its value answered before on the same snapshot
 * (iceberg/read/point-lookup-answer.ts), over the real wire: repeated values really take that path and equal the
 * computed answer; no row, a NULL parameter and a binary parameter; another session's UPDATE / INSERT between two
 * executions (a new snapshot: seen at once); the table dropped between executions (42P01, as PostgreSQL) and
 * recreated (the new table's rows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { RawClient } from './raw-client.ts';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import { pointAnswerStats } from '../../src/iceberg/read/point-lookup-answer.ts';

let server: LakegateServer;
let a: pg.Client;
let b: pg.Client;

const LOOKUP = 'SELECT v FROM pa.kv WHERE id = $1';
/** one execution of the named statement (pg sends Parse once, then Bind / Execute / Sync: pgbench -M prepared) */
const lookup = async (id: number | null): Promise<unknown[]> => (await a.query({ name: 'lk', text: LOOKUP, values: [id] })).rows.map((r: { v: unknown }) => r.v);

beforeAll(async () => {
  server = await startLakegate();
  a = new pg.Client({ connectionString: server.url });
  b = new pg.Client({ connectionString: server.url });
  await a.connect();
  await b.connect();
  await b.query('CREATE SCHEMA pa');
  await b.query('CREATE TABLE pa.kv (id int, v text)');
  await b.query(`INSERT INTO pa.kv SELECT g, 'v' || g FROM generate_series(1, 200) g`);
}, 60_000);
afterAll(async () => {
  await a?.end();
  await b?.end();
  await server?.close();
});

describe('a prepared lookup answered from its kept rows', () => {
  it('repeated values take the kept answer and equal the computed one, found or not', async () => {
    await lookup(1); // the first read fills the file cache
    const first = new Map<number, unknown[]>();
    for (const id of [7, 200, 201, 0]) first.set(id, await lookup(id));
    const hits = pointAnswerStats.hits;
    for (let round = 0; round < 3; round++) for (const id of [7, 200, 201, 0]) expect(await lookup(id), `id ${id}`).toEqual(first.get(id));
    expect(pointAnswerStats.hits - hits).toBe(12);
    expect(first.get(7)).toEqual(['v7']);
    expect(first.get(201)).toEqual([]);
    await a.query('SET lakegate.point_index = off');
    for (const id of [7, 200, 201]) expect(await lookup(id), `id ${id}`).toEqual(first.get(id));
    await a.query('RESET lakegate.point_index');
  });

  it('a NULL parameter finds nothing; a binary parameter finds its row', async () => {
    expect(await lookup(null)).toEqual([]);
    expect(await lookup(null)).toEqual([]);
    const raw = await RawClient.ready(server.port, { user: 'postgres' });
    try {
      const int4 = Buffer.alloc(4);
      int4.writeInt32BE(42);
      raw.send(fe.parse('s', LOOKUP, [23]), fe.bind('', 's', [int4], [1]), fe.execute('', 0), fe.sync());
      raw.send(fe.bind('', 's', [int4], [1]), fe.execute('', 0), fe.bind('', 's', ['42'], [0]), fe.execute('', 0), fe.sync());
      const msgs = [...(await raw.until('Z')), ...(await raw.until('Z'))];
      const rows = msgs.filter((m) => m.type === 'D').map((m) => m.body.subarray(6, 6 + m.body.readInt32BE(2)).toString('utf8'));
      expect(rows).toEqual(['v42', 'v42', 'v42']);
    } finally {
      raw.end();
    }
  });

  it('another session\'s UPDATE and INSERT between two executions are seen at once', async () => {
    expect(await lookup(9)).toEqual(['v9']);
    expect(await lookup(9)).toEqual(['v9']);
    expect(await lookup(300)).toEqual([]);
    expect(await lookup(300)).toEqual([]);
    await b.query(`UPDATE pa.kv SET v = 'changed' WHERE id = 9`);
    expect(await lookup(9)).toEqual(['changed']);
    await b.query(`INSERT INTO pa.kv VALUES (300, 'new')`);
    expect(await lookup(300)).toEqual(['new']);
    expect(await lookup(9)).toEqual(['changed']);
  });

  it('the table dropped between executions: 42P01; recreated: the new table\'s rows', async () => {
    expect(await lookup(11)).toEqual(['v11']);
    expect(await lookup(11)).toEqual(['v11']);
    await b.query('DROP TABLE pa.kv');
    await expect(lookup(11)).rejects.toMatchObject({ code: '42P01' });
    await b.query('CREATE TABLE pa.kv (id int, v text)');
    await b.query(`INSERT INTO pa.kv VALUES (11, 'again')`);
    expect(await lookup(11)).toEqual(['again']);
    expect(await lookup(11)).toEqual(['again']);
    expect(await lookup(12)).toEqual([]);
  });
});
