/**
 * Every Iceberg fixture table under /work/shared/fixtures/iceberg, compared with its expected.json.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FIXTURES, fixtureIO, openTable, readRows, sortRows } from './fixture-helpers.ts';
import { parseJsonLossless } from '../spec/table-metadata.ts';
import { planScan } from '../scan/table-scan.ts';
import { manifestsOfSnapshot } from '../scan/table-scan.ts';
import { readManifest, EntryStatus } from '../spec/manifest.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergTableSource } from '../iceberg-table-source.ts';

type Rec = Record<string, unknown>;
const expected = (folder: string): Rec => parseJsonLossless(readFileSync(`${FIXTURES}/${folder}/expected.json`, 'utf8')) as Rec;

async function rowObjects(t: IcebergTableSource, conv: (v: unknown) => unknown = (v) => v): Promise<Rec[]> {
  const rows = await readRows(t);
  return rows.map((r) => Object.fromEntries(r.map((v, i) => [t.columns[i]!.name, conv(v)])));
}
const sortObjs = (rows: Rec[]): Rec[] => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

describe('icebird-spark-bunnies', () => {
  const exp = expected('icebird-spark-bunnies');
  const uri = (v: number) => `s3a://hyperparam-iceberg/spark/bunnies/metadata/v${v}.metadata.json`;

  it('row counts per metadata version (time travel, position delete, dangling delete)', async () => {
    const versions = exp['metadata_versions'] as Record<string, Rec>;
    for (const [file, info] of Object.entries(versions)) {
      const t = await openTable(`s3a://hyperparam-iceberg/spark/bunnies/metadata/${file}`);
      expect([file, (await readRows(t)).length]).toEqual([file, info['rows']]);
      expect(t.snapshot?.snapshotId).toBe(BigInt(info['current_snapshot'] as string));
    }
  });

  it('asserted first rows and time travel', async () => {
    for (const a of exp['asserted_by_source_tests'] as Rec[]) {
      const read = String(a['read']);
      if (read === 'v5.metadata.json with snapshotId 1234') {
        await expect(openTable(uri(5), { snapshotId: 1234n })).rejects.toThrow('Snapshot 1234 not found in metadata');
        continue;
      }
      const tt = /snapshotId (\d+)/.exec(read);
      const t = await openTable(`s3a://hyperparam-iceberg/spark/bunnies/metadata/${read.split(' ')[0]}`, tt ? { snapshotId: BigInt(tt[1]!) } : {});
      const rows = await rowObjects(t);
      expect(rows.length).toBe(a['row_count']);
      if (a['first_row']) expect(rows).toContainEqual(expect.objectContaining(a['first_row'] as Rec));
    }
  });

  it('observed rows (multiset) for v1 and v5', async () => {
    const observed = exp['observed_rows'] as Record<string, Rec[]>;
    for (const [file, rows] of Object.entries(observed)) {
      const got = await rowObjects(await openTable(`s3a://hyperparam-iceberg/spark/bunnies/metadata/${file}`));
      // observed rows write longs as decimal strings; readRows gives safe int8 values as numbers
      const norm = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v])));
      expect(sortObjs(got)).toEqual(sortObjs(norm));
    }
  });

  it('new column reads as NULL in the old file (v4), column names with spaces', async () => {
    const t = await openTable(uri(4));
    expect(t.columns.map((c) => c.name)).toContain('Breed Name');
    const rows = await rowObjects(t);
    expect(rows.every((r) => r['breed_name_length'] === null)).toBe(true);
  });
});

describe('icebird-spark-rename_column', () => {
  const exp = expected('icebird-spark-rename_column');
  const uri = (v: number) => `s3a://hyperparam-iceberg/spark/rename_column/metadata/v${v}.metadata.json`;

  it('v1 has no snapshot and reads 0 rows', async () => {
    const t = await openTable(uri(1));
    expect(t.snapshot).toBeNull();
    expect(await readRows(t)).toEqual([]);
  });

  it('v2 and v3 rows (renamed column by id, decimal(10,2), unicode, null partition value)', async () => {
    const asserted = exp['asserted_by_source_tests'] as Record<string, Rec[]>;
    for (const v of [2, 3]) {
      const got = await rowObjects(await openTable(uri(v)));
      expect(sortObjs(got)).toEqual(sortObjs(asserted[`v${v}.metadata.json`]!));
    }
  });

  it('manifest partition tuples carry the bucket[4] values', async () => {
    const t = await openTable(uri(3));
    const plan = await planScan(fixtureIO, t.metadata);
    const check = exp['bucket_check'] as Rec;
    const got = await rowObjects(t);
    // every row's bucket equals its file's partition value
    const byFile: number[] = plan.tasks.map((x) => Number(x.file.partition.get(1000)));
    expect(byFile.sort()).toEqual([0, 2, 3]);
    expect([check['id=1'], check['id=2'], check['id=3'], check['id=4']]).toEqual([0, 0, 3, 2]);
    expect(got).toHaveLength(4);
    expect(plan.tasks.find((x) => Number(x.file.partition.get(1000)) === 3)?.file.partition.get(1001)).toBeNull();
  });
});

describe('duckdb-lineitem_iceberg', () => {
  const exp = expected('duckdb-lineitem_iceberg');
  const uri = (v: number) => `lineitem_iceberg/metadata/v${v}.metadata.json`;

  async function q6(t: IcebergTableSource): Promise<{ revenue: string; rows: number; total: number }> {
    const col = (n: string) => t.columns.findIndex((c) => c.name === n);
    const [qty, price, disc, ship] = [col('l_quantity'), col('l_extendedprice'), col('l_discount'), col('l_shipdate')];
    const lo = Date.UTC(1994, 0, 1) / 86_400_000;
    const hi = Date.UTC(1995, 0, 1) / 86_400_000;
    const d05 = Numeric.parse('0.05'), d07 = Numeric.parse('0.07'), q24 = Numeric.parse('24');
    let revenue = Numeric.ZERO;
    let rows = 0;
    let total = 0;
    for await (const b of t.scan({ signal: new AbortController().signal, projection: [qty, price, disc, ship] })) {
      total += b.length;
      for (let r = 0; r < b.length; r++) {
        const s = b.columns[ship]![r] as number;
        const d = b.columns[disc]![r] as Numeric;
        const q = b.columns[qty]![r] as Numeric;
        if (s >= lo && s < hi && d.compare(d05) >= 0 && d.compare(d07) <= 0 && q.compare(q24) < 0) {
          revenue = revenue.add((b.columns[price]![r] as Numeric).mul(d));
          rows++;
        }
      }
    }
    return { revenue: revenue.toString(), rows, total };
  }

  it('Q6 now = 1077536.9101 (51793 rows) and at the first snapshot = 1193053.2253 (60175 rows)', async () => {
    const now = await openTable(uri(2));
    expect(await q6(now)).toEqual({ revenue: '1077536.9101', rows: 823, total: 51793 });
    const first = await openTable(uri(2), { snapshotId: 7817332053627255703n });
    expect(await q6(first)).toEqual({ revenue: '1193053.2253', rows: 1191, total: 60175 });
    expect((await q6(await openTable(uri(1)))).total).toBe(60175);
  });

  it('copy-on-write leaves a DELETED entry that the scan skips', async () => {
    const t = await openTable(uri(2));
    const entries = [];
    for (const mf of await manifestsOfSnapshot(fixtureIO, t.metadata, t.snapshot!)) {
      for (const e of (await readManifest(fixtureIO, mf, true)).entries) entries.push([mf.manifestPath, mf.sequenceNumber, e.status, e.dataFile.filePath, e.dataFile.recordCount, e.sequenceNumber, e.fileSequenceNumber]);
    }
    const asserted = Object.entries(exp['asserted_by_source_tests'] as Rec).find(([k]) => k.startsWith('manifest_entries_current'))![1] as unknown[][];
    const want = asserted.map((a) => [a[0], BigInt(a[1] as number), a[3] === 'DELETED' ? EntryStatus.DELETED : EntryStatus.ADDED, a[5], BigInt(a[7] as number), BigInt(a[8] as number), BigInt(a[9] as number)]);
    expect(sortRows(entries)).toEqual(sortRows(want));
    const plan = await planScan(fixtureIO, t.metadata);
    expect(plan.tasks.map((x) => x.file.filePath)).toEqual(['lineitem_iceberg/data/00000-5-dad9988f-2a3b-464c-adb6-6034de93da19-00001.parquet']);
  });
});

describe('duckdb-equality_deletes', () => {
  const exp = expected('duckdb-equality_deletes');
  const tables = exp['tables'] as Record<string, Rec>;
  for (const [table, info] of Object.entries(tables)) {
    const history = (info['history (metadata file -> current snapshot, seq, operation, expected rows as (id,name,bir))'] ?? info['history']) as Record<string, unknown[]>;
    for (const [file, [snap, , op, rows]] of Object.entries(history)) {
      const uri = `data/persistent/equality_deletes/${table}/metadata/${file}`;
      it(`${table} ${file}: ${String(op)}`, async () => {
        const t = await openTable(uri);
        expect(t.snapshot?.snapshotId).toBe(BigInt(snap as string));
        if (typeof rows === 'string') {
          // the manifest list named by this metadata file is missing from the source repo
          await expect(readRows(t)).rejects.toMatchObject({ code: '58030' });
          return;
        }
        expect(sortRows(await readRows(t))).toEqual(sortRows(rows as unknown[][]));
      });
    }
    it(`${table}: asserted_current and version-hint`, async () => {
      const { findLatestMetadataFile } = await import('../spec/metadata-file.ts');
      const latest = await findLatestMetadataFile(fixtureIO, `data/persistent/equality_deletes/${table}`);
      const t = await openTable(latest);
      const a = info['asserted_current'] as Rec;
      const rows = await readRows(t);
      expect(sortRows(rows)).toEqual(a['SELECT * ORDER BY ALL']);
      expect(rows.length).toBe(a['count(*)']);
    });
  }
  it('v1 has current-snapshot-id -1', async () => {
    const t = await openTable('data/persistent/equality_deletes/warehouse/mydb/mytable/metadata/v1.metadata.json');
    expect(t.snapshot).toBeNull();
    expect(await readRows(t)).toEqual([]);
  });
});

describe('duckdb-iceberg_v1_deprecated', () => {
  const exp = expected('duckdb-iceberg_v1_deprecated');
  const asserted = exp['asserted_by_source_tests'] as Rec;
  it('reads rows through inline v1 manifests (no manifest list)', async () => {
    const { findLatestMetadataFile } = await import('../spec/metadata-file.ts');
    const t = await openTable(await findLatestMetadataFile(fixtureIO, 'data/persistent/iceberg_v1_deprecated/default/legacy_v1'));
    expect(t.snapshot?.manifestList).toBeNull();
    const rows = await readRows(t);
    expect([...rows].sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(asserted['SELECT * ORDER BY id']);
    expect(rows.filter((r) => r[1] === 'beta').map((r) => [r[0], r[2]])).toEqual(asserted["SELECT id, amount WHERE category = 'beta'"]);
    const plan = await planScan(fixtureIO, t.metadata);
    expect(plan.tasks.map((x) => x.dataSequenceNumber)).toEqual([0n, 0n]);
  });
});

describe('duckdb-map_stats', () => {
  it('day(timestamptz) partitions, map<string,string> as jsonb, no version-hint', async () => {
    const { findLatestMetadataFile } = await import('../spec/metadata-file.ts');
    const latest = await findLatestMetadataFile(fixtureIO, 'file://data/persistent/map_stats/default.db/map_stats');
    expect(latest.endsWith('00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json')).toBe(true);
    const t = await openTable(latest);
    expect(t.columns.map((c) => [c.name, c.type.oid])).toEqual([['timestamp', 1184], ['input', 25], ['output', 25], ['metadata', 3802]]);
    const us = (d: number) => BigInt(d) * 1000n;
    expect(sortRows(await readRows(t))).toEqual([
      [Number(us(Date.UTC(2026, 0, 1))), 'hello', 'world', '{"key": "value1"}'],
      [Number(us(Date.UTC(2026, 0, 2))), 'hello', 'world', '{"key": "value1"}'],
    ]);
    const plan = await planScan(fixtureIO, t.metadata);
    expect(plan.tasks.map((x) => x.file.partition.get(1000)).sort()).toEqual([20454, 20455]);
    expect(plan.tasks.every((x) => !x.file.lowerBounds.has(4))).toBe(true);
  });
});
