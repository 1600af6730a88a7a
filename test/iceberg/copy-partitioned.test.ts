/**
 * COPY FROM STDIN (csv and binary) into partitioned Iceberg tables goes through the typed path
 * (typed-partition-groups.ts, typed-stage.ts): over the wire, rows spanning many batches and partitions
 * read back equal to the same rows INSERTed into an unpartitioned table, one file set per partition, one
 * snapshot; a COPY that fails after several batches commits nothing (22P02 naming line and column).
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

async function copyIn(c: pg.Client, sql: string, data: Buffer | string): Promise<void> {
  await pipeline(Readable.from([Buffer.from(data)]), c.query(copyStreams.from(sql)));
}

const N = 40_000;
/** row i: id, a date over ~8 years, a 2-decimal amount, a short string; every 97th row has NULLs */
function row(i: number): [number, string | null, string | null, string | null] {
  const day = new Date(Date.UTC(1992, 0, 1) + ((i * 7919) % 2900) * 86_400_000).toISOString().slice(0, 10);
  return i % 97 === 5 ? [i, null, null, null] : [i, day, ((i * 31) % 100_000 / 100).toFixed(2), `s${i % 13}é`];
}
const csv = Array.from({ length: N }, (_, i) => row(i).map((v) => v ?? '').join(',')).join('\n') + '\n';

function binary(): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  const field = (b: Buffer | null): void => {
    const len = Buffer.alloc(4);
    len.writeInt32BE(b === null ? -1 : b.length);
    parts.push(len);
    if (b !== null) parts.push(b);
  };
  for (let i = 0; i < N; i++) {
    const [id, day, amount, s] = row(i);
    parts.push(Buffer.from([0, 4]));
    const b = Buffer.alloc(4);
    b.writeInt32BE(id);
    field(b);
    if (day === null) field(null);
    else {
      const d = Buffer.alloc(4);
      d.writeInt32BE(Math.round((Date.parse(day) - Date.UTC(2000, 0, 1)) / 86_400_000));
      field(d);
    }
    if (amount === null) field(null);
    else {
      // numeric send format: base-10000 digits of the amount in cents, weight 0 for the integer part
      const cents = Math.round(Number(amount) * 100);
      const whole = Math.floor(cents / 100);
      const digits = whole >= 10000 ? [Math.floor(whole / 10000), whole % 10000, (cents % 100) * 100] : [whole, (cents % 100) * 100];
      const n = Buffer.alloc(8 + 2 * digits.length);
      n.writeInt16BE(digits.length, 0);
      n.writeInt16BE(digits.length - 2, 2);
      n.writeUInt16BE(0, 4);
      n.writeUInt16BE(2, 6);
      digits.forEach((d, k) => n.writeInt16BE(d, 8 + 2 * k));
      field(n);
    }
    field(s === null ? null : Buffer.from(s));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe('COPY into partitioned Iceberg tables (typed path)', () => {
  let server: LakegateServer;
  let client: pg.Client;
  const cols = 'id int4, d date, amount numeric(12,2), s varchar(10)';

  beforeAll(async () => {
    server = await startLakegate();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    await client.query(`CREATE TABLE lake.flat (${cols})`);
    await client.query(`CREATE TABLE lake.bym (${cols}) WITH (partitioning = ARRAY['month(d)', 'bucket(3, s)'])`);
    await client.query(`CREATE TABLE lake.bin (${cols}) WITH (partitioning = ARRAY['year(d)', 'truncate(1000, id)'])`);
    await client.query(`CREATE TABLE lake.fail (${cols}) WITH (partitioning = ARRAY['day(d)'])`);
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await server?.close();
  });

  const digest = async (table: string): Promise<unknown> => (await client.query(
    `SELECT date_trunc('month', d)::date AS m, count(*)::int AS n, sum(id)::int8 AS ids, sum(amount) AS amount, string_agg(DISTINCT s, ',' ORDER BY s) AS s
     FROM lake.${table} GROUP BY 1 ORDER BY 1 NULLS FIRST`)).rows;

  it('csv and binary give the rows of an unpartitioned table, one snapshot each', async () => {
    await copyIn(client, 'COPY lake.flat FROM STDIN (FORMAT csv)', csv);
    await copyIn(client, 'COPY lake.bym FROM STDIN (FORMAT csv)', csv);
    await copyIn(client, 'COPY lake.bin FROM STDIN (FORMAT binary)', binary());
    const expected = await digest('flat');
    expect((expected as unknown[]).length).toBeGreaterThan(90);
    expect(await digest('bym')).toEqual(expected);
    expect(await digest('bin')).toEqual(expected);
    const sample = 'SELECT * FROM lake.%s WHERE id % 1231 = 7 ORDER BY id';
    const flat = (await client.query(sample.replace('%s', 'flat'))).rows;
    expect((await client.query(sample.replace('%s', 'bym'))).rows).toEqual(flat);
    expect((await client.query(sample.replace('%s', 'bin'))).rows).toEqual(flat);
    for (const t of ['bym', 'bin']) expect((await client.query(`SELECT count(*)::int AS n FROM lake."${t}$snapshots"`)).rows[0].n).toBe(1);
    const files = (await client.query(`SELECT count(*)::int AS n FROM lake."bym$files"`)).rows[0].n;
    const partitions = (await client.query(`SELECT count(*)::int AS n FROM lake."bym$partitions"`)).rows[0].n;
    expect(partitions).toBeGreaterThan(150);
    expect(files).toBe(partitions);
  }, 120_000);

  it('a COPY failing after several batches commits nothing', async () => {
    const bad = csv.split('\n');
    bad[N - 3] = `${N - 3},1999-02-30,1.00,x`;
    const e = (await copyIn(client, 'COPY lake.fail FROM STDIN (FORMAT csv)', bad.join('\n')).then(() => null, (err: unknown) => err)) as Record<string, unknown> | null;
    expect(e).not.toBeNull();
    expect({ code: e!['code'], message: e!['message'], where: e!['where'] }).toEqual({
      code: '22008', message: 'date/time field value out of range: "1999-02-30"', where: `COPY fail, line ${N - 2}, column d: "1999-02-30"`,
    });
    expect((await client.query('SELECT count(*)::int AS n FROM lake.fail')).rows[0].n).toBe(0);
    expect((await client.query(`SELECT count(*)::int AS n FROM lake."fail$snapshots"`)).rows[0].n).toBe(0);
    const badNumber = csv.replace(/\n(30000),[^,]*,/, '\n$1,2000-01-01,');
    expect(badNumber).not.toBe(csv);
    const e2 = (await copyIn(client, 'COPY lake.fail FROM STDIN (FORMAT csv)', badNumber.replace('\n30001,', '\n30001x,')).then(() => null, (err: unknown) => err)) as Record<string, unknown> | null;
    expect(e2).toMatchObject({ code: '22P02', where: 'COPY fail, line 30002, column id: "30001x"' });
    expect((await client.query(`SELECT count(*)::int AS n FROM lake."fail$snapshots"`)).rows[0].n).toBe(0);
  }, 120_000);
});
