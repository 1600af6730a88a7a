/**
 * A COPY FROM STDIN that fails after its writer has already rolled data files (a malformed row near the end,
 * or the client's CopyFail) commits nothing and leaves none of its files behind in the warehouse: text, csv,
 * binary, unpartitioned and partitioned by month. A later COPY of the same rows then loads them all.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LakegateServer } from '../helpers/lakegate-server.ts';
import { startWireFixture, type WireFixture } from '../helpers/wire-fixture.ts';

const ROWS = 60_000;

function parquetFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += parquetFiles(join(dir, e.name));
    else if (e.name.endsWith('.parquet')) n++;
  }
  return n;
}

/** a new month every 16384 rows (a decoded batch): the partitioned writer then rolls files before the bad row */
const days = (i: number): number => Math.floor(i / 16384) * 40 + (i % 7);
const day = (i: number): string => new Date(Date.UTC(2020, 0, 1) + days(i) * 86_400_000).toISOString().slice(0, 10);

function textRows(sep: string, bad: string | null): string {
  const lines: string[] = [];
  for (let i = 0; i < ROWS; i++) lines.push([String(i), `row number ${i} with some padding text`, day(i)].join(sep));
  if (bad !== null) lines.push(bad);
  return `${lines.join('\n')}\n`;
}

function binaryRows(badLength: boolean): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  const field = (b: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeInt32BE(b.length);
    return Buffer.concat([len, b]);
  };
  for (let i = 0; i <= ROWS; i++) {
    const n = Buffer.alloc(2);
    n.writeInt16BE(3);
    const id = Buffer.alloc(8);
    id.writeBigInt64BE(BigInt(i));
    const d = Buffer.alloc(4);
    d.writeInt32BE(7305 + days(i)); // days since 2000-01-01
    // the last tuple's bigint field is 3 bytes long: 22P03
    parts.push(n, field(i === ROWS && badLength ? Buffer.alloc(3) : id), field(Buffer.from(`row number ${i} with some padding text`)), field(d));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

async function copyIn(c: pg.Client, sql: string, data: Buffer | string): Promise<void> {
  // several CopyData messages, as a client streaming a file sends them
  const buf = Buffer.from(data);
  const chunks: Buffer[] = [];
  for (let i = 0; i < buf.length; i += 64 * 1024) chunks.push(buf.subarray(i, i + 64 * 1024));
  await pipeline(Readable.from(chunks), c.query(copyStreams.from(sql)));
}

describe('a failed COPY leaves no data files', () => {
  let fixture: WireFixture;
  let server: LakegateServer;
  let client: pg.Client;

  beforeAll(async () => {
    fixture = await startWireFixture('lake', [
      // small files: the writer has rolled several before the bad row arrives
      `CREATE TABLE lake.t (id int8, s text, d date) WITH ("write.target-file-size-bytes" = 200000)`,
      `CREATE TABLE lake.p (id int8, s text, d date) WITH ("write.target-file-size-bytes" = 40000, partitioning = ARRAY['month(d)'])`,
    ]);
    ({ server, client } = fixture);
  }, 60_000);
  afterAll(() => fixture?.close());

  const count = async (t: string): Promise<number> => (await client.query(`SELECT count(*)::int AS n FROM lake.${t}`)).rows[0].n;

  const cases: ReadonlyArray<[string, string, () => Buffer | string, RegExp]> = [
    ['text', 'COPY lake.%s FROM STDIN', () => textRows('\t', '1\tx\tnot a date'), /invalid input syntax for type date/],
    ['csv', 'COPY lake.%s FROM STDIN (FORMAT csv)', () => textRows(',', '1,x'), /missing data for column "d"/],
    ['binary', 'COPY lake.%s FROM STDIN (FORMAT binary)', () => binaryRows(true), /insufficient data left in message/],
  ];

  for (const table of ['t', 'p']) {
    for (const [format, sql, data, error] of cases) {
      it(`${format} into ${table === 't' ? 'an unpartitioned' : 'a partitioned'} table`, async () => {
        const dir = server.warehouse;
        const files = parquetFiles(dir);
        const rows = await count(table);
        await expect(copyIn(client, sql.replace('%s', table), data())).rejects.toThrow(error);
        expect(await count(table)).toBe(rows);
        expect(parquetFiles(dir)).toBe(files);
      }, 120_000);
    }
  }

  it('a CopyFail from the client after files were written removes them too', async () => {
    const files = parquetFiles(server.warehouse);
    const text = textRows('\t', null);
    async function* failing(): AsyncIterable<Buffer> {
      const buf = Buffer.from(text);
      for (let i = 0; i < buf.length; i += 64 * 1024) yield buf.subarray(i, i + 64 * 1024);
      // the client gives up once the server has written files of this COPY
      for (let t = 0; t < 100 && parquetFiles(server.warehouse) === files; t++) await new Promise((r) => setTimeout(r, 50));
      expect(parquetFiles(server.warehouse)).toBeGreaterThan(files);
      throw new Error('client gave up');
    }
    await expect(pipeline(Readable.from(failing()), client.query(copyStreams.from('COPY lake.t FROM STDIN')))).rejects.toThrow();
    // the client's promise settles at once: the next query waits for the server to finish the COPY
    await client.query('SELECT 1');
    expect(parquetFiles(server.warehouse)).toBe(files);
  }, 120_000);

  it('the same rows then load in full', async () => {
    const files = parquetFiles(server.warehouse);
    await copyIn(client, 'COPY lake.p FROM STDIN (FORMAT csv)', textRows(',', null));
    expect(await count('p')).toBe(ROWS);
    expect(parquetFiles(server.warehouse)).toBeGreaterThan(files + 3);
  }, 120_000);
});
