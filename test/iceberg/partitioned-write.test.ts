/**
 * Partitioned Iceberg tables over the wire: CREATE TABLE … WITH (partitioning = ARRAY[…]) (Trino's spelling)
 * with every transform, INSERTs spanning partitions (NULLs → the null partition), exact read-back,
 * `"t$partitions"` / `"t$files"` / `"t$manifests"` tuples, files under `data/<partition path>/`, and bucket
 * values matching Spark's for the icebird-spark rename_column fixture (bucket[4](id) + identity(date)).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { bucketHash } from '../../src/iceberg/index.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

/** `data/` folders holding parquet files, without the file names */
const dataDirs = (tableDir: string): string[] =>
  [...new Set(filesUnder(join(tableDir, 'data')).filter((f) => f.endsWith('.parquet')).map((f) => f.slice(0, f.lastIndexOf('/'))))].sort();

describe('partitioned Iceberg writes over the wire', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-part-'));
  let server: LakegateServer;
  let client: pg.Client;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const tableDir = (t: string): string => {
    const md = readFileSync(filesUnder(warehouse).map((f) => join(warehouse, f)).find((f) => f.includes(`/${t}/metadata/00000-`))!, 'utf8');
    return (JSON.parse(md) as { location: string }).location.replace(/^file:\/\//, '');
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA part');
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('writes the partition spec into the first metadata (field ids from 1000, Trino names)', async () => {
    await client.query(`CREATE TABLE part.everything (id int8, ts timestamp, name text, region text, d date, x int4)
      WITH (partitioning = ARRAY['day(ts)', 'bucket(16, id)', 'truncate(4, name)', 'region', 'year(d)', 'month(d)', 'hour(ts)', 'void(x)'])`);
    const md = JSON.parse(readFileSync(join(tableDir('everything'), 'metadata', readdirSync(join(tableDir('everything'), 'metadata')).find((f) => f.startsWith('00000-'))!), 'utf8')) as Record<string, unknown>;
    expect(md['partition-specs']).toEqual([{ 'spec-id': 0, fields: [
      { 'source-id': 2, 'field-id': 1000, name: 'ts_day', transform: 'day' },
      { 'source-id': 1, 'field-id': 1001, name: 'id_bucket', transform: 'bucket[16]' },
      { 'source-id': 3, 'field-id': 1002, name: 'name_trunc', transform: 'truncate[4]' },
      { 'source-id': 4, 'field-id': 1003, name: 'region', transform: 'identity' },
      { 'source-id': 5, 'field-id': 1004, name: 'd_year', transform: 'year' },
      { 'source-id': 5, 'field-id': 1005, name: 'd_month', transform: 'month' },
      { 'source-id': 2, 'field-id': 1006, name: 'ts_hour', transform: 'hour' },
      { 'source-id': 6, 'field-id': 1007, name: 'x_null', transform: 'void' },
    ] }]);
    expect(md['last-partition-id']).toBe(1007);
  });

  it('splits rows by partition, reads them back and lists partitions and files', async () => {
    await client.query(`INSERT INTO part.everything VALUES
      (34, '2024-01-02 10:15:00', 'iceberg', 'eu', '2024-03-05', 1),
      (34, '2024-01-02 10:45:00', 'icebox', 'eu', '2024-03-31', 2),
      (7, '2024-01-03 00:00:00', 'lake', 'us', '1969-12-31', 3),
      (NULL, NULL, NULL, NULL, NULL, NULL)`);
    expect(await rows('SELECT id, ts, name, region, d, x FROM part.everything ORDER BY id NULLS LAST, name')).toEqual([
      ['7', '2024-01-03 00:00:00', 'lake', 'us', '1969-12-31', '3'],
      ['34', '2024-01-02 10:15:00', 'iceberg', 'eu', '2024-03-05', '1'],
      ['34', '2024-01-02 10:45:00', 'icebox', 'eu', '2024-03-31', '2'],
      ['NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
    ]);
    // bucket[16] of 34: murmur3 hash 2017239379 → 2017239379 % 16 = 3; of 7: (hash & MAX) % 16
    expect(await rows(`SELECT partition::text, record_count, file_count FROM part."everything$partitions" ORDER BY partition->>'ts_day' NULLS LAST`)).toEqual([
      ['{"d_year": 54, "region": "eu", "ts_day": "2024-01-02", "x_null": null, "d_month": 650, "ts_hour": 473386, "id_bucket": 3, "name_trunc": "iceb"}', '2', '1'],
      [`{"d_year": -1, "region": "us", "ts_day": "2024-01-03", "x_null": null, "d_month": -1, "ts_hour": 473400, "id_bucket": ${(bucketHash({ kind: 'primitive', name: 'long' }, 7n) & 0x7fffffff) % 16}, "name_trunc": "lake"}`, '1', '1'],
      ['{"d_year": null, "region": null, "ts_day": null, "x_null": null, "d_month": null, "ts_hour": null, "id_bucket": null, "name_trunc": null}', '1', '1'],
    ]);
    expect(await rows(`SELECT count(*), sum(record_count) FROM part."everything$files"`)).toEqual([['3', '4']]);
    expect(dataDirs(tableDir('everything'))).toEqual([
      'ts_day=2024-01-02/id_bucket=3/name_trunc=iceb/region=eu/d_year=2024/d_month=2024-03/ts_hour=2024-01-02-10/x_null=null',
      `ts_day=2024-01-03/id_bucket=${(bucketHash({ kind: 'primitive', name: 'long' }, 7n) & 0x7fffffff) % 16}/name_trunc=lake/region=us/d_year=1969/d_month=1969-12/ts_hour=2024-01-03-00/x_null=null`,
      'ts_day=null/id_bucket=null/name_trunc=null/region=null/d_year=null/d_month=null/ts_hour=null/x_null=null',
    ]);
    expect(await rows(`SELECT partition_summaries->0->>'contains_null', partition_summaries->0->>'lower_bound', partition_summaries->0->>'upper_bound', partition_summaries->3->>'lower_bound', partition_summaries->3->>'upper_bound' FROM part."everything$manifests"`))
      .toEqual([['true', '2024-01-02', '2024-01-03', 'eu', 'us']]);
  });

  it('appends to existing partitions with new files, one per partition and statement', async () => {
    await client.query(`INSERT INTO part.everything (id, ts, name, region, d) VALUES (34, '2024-01-02 10:59:59', 'icebreaker', 'eu', '2024-03-01')`);
    expect(await rows(`SELECT record_count, file_count FROM part."everything$partitions" WHERE partition->>'region' = 'eu'`)).toEqual([['3', '2']]);
    expect(await rows(`SELECT count(*) FROM part.everything WHERE region = 'eu'`)).toEqual([['3']]);
  });

  it('partitions by every transform over other types (long, decimal, string, uuid, binary, timestamptz)', async () => {
    await client.query(`CREATE TABLE part.kinds (l int8, n numeric(9,2), s text, u uuid, b bytea, tz timestamptz, i int4)
      WITH (partitioning = 'truncate(10, l), bucket(8, n), bucket(8, s), bucket(8, u), truncate(2, b), month(tz), truncate(10, i)')`);
    await client.query(`INSERT INTO part.kinds VALUES
      (-1, 14.20, 'iceberg', 'f79c3e09-677c-4bbd-a479-3f349cb785e7', '\\x010203', '2017-11-16 22:31:08+00', 5),
      (15, 10.65, 'x', NULL, NULL, '1969-12-31 23:00:00+00', -3)`);
    expect(await rows(`SELECT l, n, s, u, b, tz, i FROM part.kinds ORDER BY l`)).toEqual([
      ['-1', '14.20', 'iceberg', 'f79c3e09-677c-4bbd-a479-3f349cb785e7', '\\x010203', '2017-11-16 22:31:08+00', '5'],
      ['15', '10.65', 'x', 'NULL', 'NULL', '1969-12-31 23:00:00+00', '-3'],
    ]);
    // spec hashes: 14.20 → -500754589, "iceberg" → 1210000089, the uuid → 1488055340
    expect(await rows(`SELECT partition->>'l_trunc', partition->>'n_bucket', partition->>'s_bucket', partition->>'u_bucket', partition->>'tz_month', partition->>'i_trunc' FROM part."kinds$partitions" ORDER BY 1`)).toEqual([
      ['-10', String((-500754589 & 0x7fffffff) % 8), String(1210000089 % 8), String(1488055340 % 8), String(47 * 12 + 10), '0'],
      ['10', expect.any(String) as unknown as string, expect.any(String) as unknown as string, 'NULL', '-1', '-10'],
    ]);
  });

  it('identity on decimal, float (NaN) and boolean; two decimal partition fields', async () => {
    await client.query(`CREATE TABLE part.idents (n numeric(9,2), f float8, bo bool) WITH (partitioning = ARRAY['n', 'truncate(100, n)', 'f', 'bo'])`);
    await client.query(`INSERT INTO part.idents VALUES (1.25, 'NaN', true), (-3.50, 2.5, false), (1.25, 'NaN', true)`);
    expect(await rows(`SELECT partition::text, record_count, file_count FROM part."idents$partitions" ORDER BY partition->>'n'`)).toEqual([
      ['{"f": 2.5, "n": -3.50, "bo": false, "n_trunc": -4.00}', '1', '1'],
      ['{"f": "NaN", "n": 1.25, "bo": true, "n_trunc": 1.00}', '2', '1'],
    ]);
    expect(await rows(`SELECT partition_summaries->2->>'contains_nan', partition_summaries->2->>'lower_bound', partition_summaries->0->>'lower_bound', partition_summaries->0->>'upper_bound' FROM part."idents$manifests"`))
      .toEqual([['true', '2.5', '-3.50', '1.25']]);
    expect(dataDirs(tableDir('idents'))).toEqual(['n=-3.50/n_trunc=-4.00/f=2.5/bo=false', 'n=1.25/n_trunc=1.00/f=NaN/bo=true']);
  });

  it('COPY FROM STDIN into a partitioned table: one file per partition, one snapshot', async () => {
    await client.query(`CREATE TABLE part.copied (k text, v int4) WITH (partitioning = ARRAY['k'])`);
    const lines = Array.from({ length: 300 }, (_, i) => `${['a', 'b', 'c'][i % 3]}\t${i}\n`).join('') + '\\N\t-1\n';
    await pipeline(Readable.from([Buffer.from(lines)]), client.query(copyStreams.from('COPY part.copied FROM STDIN')));
    expect(await rows(`SELECT partition->>'k', record_count, file_count FROM part."copied$partitions" ORDER BY 1 NULLS LAST`)).toEqual([
      ['a', '100', '1'], ['b', '100', '1'], ['c', '100', '1'], ['NULL', '1', '1'],
    ]);
    expect(await rows(`SELECT k, count(*), sum(v) FROM part.copied GROUP BY k ORDER BY k NULLS LAST`)).toEqual([
      ['a', '100', '14850'], ['b', '100', '14950'], ['c', '100', '15050'], ['NULL', '1', '-1'],
    ]);
    expect(await rows(`SELECT count(*) FROM part."copied$snapshots"`)).toEqual([['1']]);
    expect(dataDirs(tableDir('copied'))).toEqual(['k=a', 'k=b', 'k=c', 'k=null']);
  });

  it('rejects unknown options, transforms and columns', async () => {
    await expect(client.query(`CREATE TABLE part.bad1 (a int) WITH (fillfactor = 70)`)).rejects.toMatchObject({ code: '0A000' });
    await expect(client.query(`CREATE TABLE part.bad2 (a int) WITH (partitioning = ARRAY['nosuch(a)'])`)).rejects.toMatchObject({ code: '22023' });
    await expect(client.query(`CREATE TABLE part.bad3 (a int) WITH (partitioning = ARRAY['b'])`)).rejects.toMatchObject({ code: '42703' });
    await expect(client.query(`CREATE TABLE part.bad4 (a text) WITH (partitioning = ARRAY['day(a)'])`)).rejects.toMatchObject({ code: '22023' });
  });

  it('buckets like Spark: the icebird-spark rename_column fixture (bucket[4](id) + identity(date))', async () => {
    const expected = JSON.parse(readFileSync('/work/shared/fixtures/iceberg/icebird-spark-rename_column/expected.json', 'utf8')) as { bucket_check: Record<string, number> };
    await client.query(`CREATE TABLE part.bunnies (id int4 NOT NULL, name text, date date) WITH (partitioning = ARRAY['bucket(4, id)', 'date'])`);
    await client.query(`INSERT INTO part.bunnies VALUES (1, 'a', '2022-01-01'), (2, 'b', '2022-01-01'), (3, 'Cottontail', NULL), (4, 'd', '2022-01-02')`);
    expect(await rows(`SELECT partition->>'id_bucket', partition->>'date', record_count, file_count FROM part."bunnies$partitions" ORDER BY 1`)).toEqual([
      ['0', '2022-01-01', '2', '1'], ['2', '2022-01-02', '1', '1'], ['3', 'NULL', '1', '1'],
    ]);
    // each file's id range (lower/upper bounds of field 1) lies in the bucket Spark computed for those ids
    const files = await rows(`SELECT partition->>'id_bucket', lower_bounds->>'1', upper_bounds->>'1' FROM part."bunnies$files" ORDER BY 2`);
    expect(files).toEqual([['0', '1', '2'], ['3', '3', '3'], ['2', '4', '4']]);
    for (const [bucket, lo, hi] of files as [string, string, string][]) {
      for (let id = Number(lo); id <= Number(hi); id++) expect(String(expected.bucket_check[`id=${id}`])).toBe(bucket);
    }
    // the same folders Spark wrote
    expect(dataDirs(tableDir('bunnies'))).toEqual(readdirSync('/work/shared/fixtures/iceberg/icebird-spark-rename_column/data', { recursive: true, withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.startsWith('date=')).map((e) => `${relative('/work/shared/fixtures/iceberg/icebird-spark-rename_column/data', e.parentPath)}/${e.name}`).sort());
  });
});
