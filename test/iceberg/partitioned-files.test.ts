/**
 * Issue #3 "no small-file mess": a partitioned COPY or INSERT … SELECT writes ONE data file per partition per
 * statement even when the partition buffer budget (lowered here to 48 KiB so a small statement flushes every
 * partition many times) forces the rows out early: the flushes are merged into ONE row group of the partition's
 * open file (up to 128Ki rows), so scans do not pay for the many partitions a load held open.
 * Checked over the wire and on disk: files per partition (`t$files`), row groups per file (Parquet footers),
 * record counts and id bounds equal to what SQL computes per month, answers equal to an unpartitioned table,
 * the same files read by DuckDB and by icebird; with a small write.target-file-size-bytes a partition rolls into
 * several files (a file closes once a flush takes it past the target, as ParquetDataWriter's do).
 */
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { icebergRead } from 'icebird';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { localFetch } from '../helpers/local-fetch.ts';
import { partitionWriteDefaults } from '../../src/iceberg/write/partitioned-data-writer.ts';
import { parquetFooterOf } from '../../src/iceberg/write/parquet-splice.ts';
import { listField } from '../../src/iceberg/write/thrift-compact-tree.ts';

const N = 30_000;
/** row i: id, a date over ~5 years (≈ 60 months), a 2-decimal amount, a short string; every 97th row has NULLs */
function row(i: number): string {
  const day = new Date(Date.UTC(1993, 0, 1) + ((i * 7919) % 1800) * 86_400_000).toISOString().slice(0, 10);
  return i % 97 === 5 ? `${i},,,` : `${i},${day},${((i * 31) % 100_000 / 100).toFixed(2)},s${i % 13}`;
}
const csv = Array.from({ length: N }, (_, i) => row(i)).join('\n') + '\n';

const passthrough = { getTypeParser: () => (v: string) => v };

describe('partitioned writes: one file per partition per statement', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-files-'));
  let server: LakegateServer;
  let client: pg.Client;
  const budget = partitionWriteDefaults.bufferBytes;
  const realFetch = globalThis.fetch;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const digest = (t: string): Promise<string[][]> => rows(
    `SELECT date_trunc('month', d)::date, count(*), sum(id), sum(amount), min(s), max(s) FROM lake.${t} GROUP BY 1 ORDER BY 1 NULLS FIRST`);
  const localPath = (uri: string): string => uri.replace(/^file:\/\//, '');
  const rowGroups = (uri: string): number => listField(parquetFooterOf(new Uint8Array(readFileSync(localPath(uri)))).meta, 4).length;

  beforeAll(async () => {
    partitionWriteDefaults.bufferBytes = 48 * 1024;
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    const cols = 'id int8 NOT NULL, d date, amount numeric(12,2), s text';
    await client.query(`CREATE TABLE lake.flat (${cols})`);
    await client.query(`CREATE TABLE lake.bym (${cols}) WITH (partitioning = ARRAY['month(d)'])`);
    await client.query(`CREATE TABLE lake.ins (${cols}) WITH (partitioning = ARRAY['month(d)'])`);
    await client.query(`CREATE TABLE lake.roll (${cols}) WITH (partitioning = ARRAY['year(d)'], "write.target-file-size-bytes" = '131072')`);
    for (const t of ['flat', 'bym']) await pipeline(Readable.from([Buffer.from(csv)]), client.query(copyStreams.from(`COPY lake.${t} FROM STDIN (FORMAT csv)`)));
    await client.query('INSERT INTO lake.ins SELECT * FROM lake.flat');
    await client.query('INSERT INTO lake.roll SELECT * FROM lake.flat');
    globalThis.fetch = localFetch;
  }, 120_000);
  afterAll(async () => {
    globalThis.fetch = realFetch;
    partitionWriteDefaults.bufferBytes = budget;
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  for (const t of ['bym', 'ins']) {
    it(`${t === 'bym' ? 'COPY' : 'INSERT … SELECT'}: one file per month of one row group, answers as unpartitioned`, async () => {
      const months = await rows(`SELECT count(DISTINCT date_trunc('month', d)) + 1 FROM lake.flat`);
      const files = await rows(`SELECT partition->>'d_month', count(*), sum(record_count) FROM lake."${t}$files" GROUP BY 1 ORDER BY 1`);
      expect(String(files.length)).toBe(months[0]![0]);
      expect(files.every((f) => f[1] === '1')).toBe(true);
      expect(files.reduce((s, f) => s + Number(f[2]), 0)).toBe(N);
      // the budget flushed every partition many times: the flushes are merged into the file's one row group
      const paths = (await rows(`SELECT file_path FROM lake."${t}$files"`)).map((r) => r[0]!);
      expect(paths.map(rowGroups).every((g) => g === 1)).toBe(true);
      expect(await digest(t)).toEqual(await digest('flat'));
    }, 60_000);
  }

  it('file metrics are those of the rows in each file (count, NULLs, id bounds)', async () => {
    const fromFiles = await rows(`SELECT (partition->>'d_month')::int, record_count, null_value_counts->>'2', lower_bounds->>'1', upper_bounds->>'1'
      FROM lake."bym$files" ORDER BY 1 NULLS FIRST`);
    const fromSql = await rows(`SELECT ((extract(year from d) - 1970) * 12 + extract(month from d) - 1)::int, count(*), count(*) - count(d), min(id), max(id)
      FROM lake.flat GROUP BY 1 ORDER BY 1 NULLS FIRST`);
    expect(fromFiles).toEqual(fromSql);
  });

  it('a small write.target-file-size-bytes rolls a partition into several files', async () => {
    const files = await rows(`SELECT partition->>'d_year', count(*), sum(record_count) FROM lake."roll$files" GROUP BY 1 ORDER BY 1`);
    expect(files.reduce((s, f) => s + Number(f[2]), 0)).toBe(N);
    const big = files.filter((f) => Number(f[2]) > 5000);
    expect(big.length).toBeGreaterThan(3);
    for (const f of big) expect(Number(f[1])).toBeGreaterThan(1);
    const paths = (await rows(`SELECT file_path FROM lake."roll$files" WHERE record_count > 2000`)).map((r) => r[0]!);
    expect(paths.map(rowGroups).every((g) => g === 1)).toBe(true);
    expect(await digest('roll')).toEqual(await digest('flat'));
  });

  it('DuckDB and icebird read the same rows from the files', async () => {
    const want = await rows('SELECT count(*), sum(id), count(d), sum(amount) FROM lake.bym');
    const db = await DuckDBInstance.create(':memory:', { threads: '1' });
    const c = await db.connect();
    const paths = (await rows(`SELECT file_path FROM lake."bym$files"`)).map((r) => `'${localPath(r[0]!)}'`);
    const r = await c.runAndReadAll(`SELECT count(*), sum(id), count(d), sum(amount) FROM read_parquet([${paths.join(',')}])`);
    expect(r.getRows()[0]!.map((v) => String(v))).toEqual(want[0]);
    c.closeSync();
    db.closeSync();
    const tableDir = join(warehouse, 'lake', 'bym');
    const metadata = readdirSync(join(tableDir, 'metadata')).filter((n) => n.endsWith('.metadata.json')).sort().at(-1)!;
    const got = (await icebergRead({ tableUrl: tableDir, metadataFileName: metadata })) as Record<string, unknown>[];
    expect(got.length).toBe(N);
    expect(String(got.reduce((s, x) => s + BigInt(x['id'] as bigint), 0n))).toBe(want[0]![1]);
    expect(String(got.filter((x) => x['d'] !== null && x['d'] !== undefined).length)).toBe(want[0]![2]);
  }, 60_000);
});
