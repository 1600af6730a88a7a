/**
 * COPY FROM STDIN text/csv decoded on the decode workers (copy-parallel-decoder.ts), through the server and the
 * `pg` driver: every row arrives, in input order within the data file, in an unpartitioned and a partitioned
 * table, with quoted newlines and doubled quotes in csv and escapes in text; a bad value on a late line is
 * PostgreSQL's error naming that line of the whole input (not of its chunk), with a header line counted, and
 * nothing of that COPY is committed. LAKEGATE_COPY_DECODE_WORKERS=on turns the workers on (off by default) and
 * LAKEGATE_COPY_DECODE_MIN_BYTES=0 sends even these inputs to them.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { startPgCluster, type PgCluster } from '../helpers/pg-cluster.ts';

const ROWS = 30_000;
const day = (i: number): string => new Date(Date.UTC(2020, 0, 1) + (i % 400) * 86_400_000).toISOString().slice(0, 10);

function csvRows(header: boolean, bad: number | null): string {
  const lines: string[] = header ? ['id,s,d,n'] : [];
  for (let i = 0; i < ROWS; i++) {
    const s = i % 3 === 0 ? `"line ${i}\nwith ""quotes"", and a comma"` : `plain ${i}`;
    lines.push(`${i === bad ? 'x' : i},${s},${day(i)},${i}.25`);
  }
  return `${lines.join('\n')}\n`;
}

function textRows(): string {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) lines.push(`${i}\ttab\\there ${i}\\\\\t${i % 5 === 0 ? '\\N' : day(i)}\t${i}.25`);
  return `${lines.join('\n')}\n`;
}

async function copyIn(c: pg.Client, sql: string, data: string): Promise<void> {
  const buf = Buffer.from(data);
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += 64 * 1024) chunks.push(buf.subarray(i, i + 64 * 1024));
  await pipeline(Readable.from(chunks), c.query(copyStreams.from(sql)));
}

describe('COPY decoded on the workers', () => {
  let server: LakegateServer;
  let client: pg.Client;
  let pgCluster: PgCluster;
  let pgClient: pg.Client;
  const saved = [process.env['LAKEGATE_COPY_DECODE_MIN_BYTES'], process.env['LAKEGATE_COPY_DECODE_WORKERS']];

  beforeAll(async () => {
    process.env['LAKEGATE_COPY_DECODE_MIN_BYTES'] = '0';
    process.env['LAKEGATE_COPY_DECODE_WORKERS'] = 'on';
    server = await startLakegate();
    client = new pg.Client({ connectionString: server.url });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    await client.query('CREATE TABLE lake.t (id int8, s text, d date, n numeric(10,2))');
    await client.query(`CREATE TABLE lake.p (id int8, s text, d date, n numeric(10,2)) WITH (partitioning = ARRAY['month(d)'])`);
    pgCluster = await startPgCluster();
    pgClient = new pg.Client({ connectionString: pgCluster.url });
    await pgClient.connect();
    await pgClient.query('CREATE TABLE t (id int8, s text, d date, n numeric(10,2)); CREATE TABLE p (LIKE t)');
  }, 60_000);
  afterAll(async () => {
    ['LAKEGATE_COPY_DECODE_MIN_BYTES', 'LAKEGATE_COPY_DECODE_WORKERS'].forEach((k, i) => {
      if (saved[i] === undefined) delete process.env[k];
      else process.env[k] = saved[i];
    });
    await client?.end();
    await server?.close();
    await pgClient?.end();
    await pgCluster?.stop();
  });

  it('csv with a header: every row, in order, quoted newlines kept', async () => {
    await copyIn(client, 'COPY lake.t FROM STDIN (FORMAT csv, HEADER)', csvRows(true, null));
    const { rows } = await client.query('SELECT id::int AS id, s, d::text AS d, n::text AS n FROM lake.t');
    expect(rows).toHaveLength(ROWS);
    expect(rows.map((r: { id: number }) => r.id)).toEqual(Array.from({ length: ROWS }, (_, i) => i));
    expect(rows[3]).toEqual({ id: 3, s: 'line 3\nwith "quotes", and a comma', d: day(3), n: '3.25' });
    expect(rows[ROWS - 1]).toMatchObject({ s: `plain ${ROWS - 1}` });
  }, 120_000);

  it('a bad value on a late line: PostgreSQL\'s error and line over the whole input, nothing committed', async () => {
    const fields = (e: pg.DatabaseError | null): unknown => (e === null ? null : { code: e.code, message: e.message, where: e.where });
    for (const table of ['t', 'p']) {
      const data = csvRows(true, 27_000);
      const before = (await client.query(`SELECT count(*)::int AS n FROM lake.${table}`)).rows[0].n;
      const err = await copyIn(client, `COPY lake.${table} FROM STDIN (FORMAT csv, HEADER)`, data).then(() => null, (e: unknown) => e as pg.DatabaseError);
      const pgErr = await copyIn(pgClient, `COPY ${table} FROM STDIN (FORMAT csv, HEADER)`, data).then(() => null, (e: unknown) => e as pg.DatabaseError);
      expect(fields(err)).toEqual(fields(pgErr));
      // PostgreSQL counts physical lines: the header, the rows before, a quoted newline in every third row (and this one)
      expect(err?.where).toBe(`COPY ${table}, line ${1 + 27_000 + 9_000 + 2}, column id: "x"`);
      expect((await client.query(`SELECT count(*)::int AS n FROM lake.${table}`)).rows[0].n).toBe(before);
    }
  }, 120_000);

  it('text format escapes, NULLs, and a partitioned table', async () => {
    await copyIn(client, 'COPY lake.p FROM STDIN', textRows());
    const r = await client.query(`SELECT count(*)::int AS n, count(d)::int AS nd, sum(n)::text AS total, max(s) FILTER (WHERE id = 7) AS s7 FROM lake.p`);
    expect(r.rows[0]).toEqual({ n: ROWS, nd: ROWS - ROWS / 5, total: '449992500.00', s7: 'tab\there 7\\' });
  }, 120_000);
});
