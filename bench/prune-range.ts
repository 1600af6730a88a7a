/**
 * Selective range query with and without pushed filters (issue #4 pruning), same run:
 * ~1M rows (id, d date, amount numeric(12,2), name) over 24 months, written through the real write path
 * twice — partitioned by month(d), and unpartitioned in d order (row groups of 128Ki rows) — then
 * `d BETWEEN 2024-03-10 AND 2024-03-20` scanned with projection [d, amount], median of 3 warm runs.
 * Usage: npx tsx bench/prune-range.ts [rows]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlCatalog } from '../src/catalog/iceberg/index.ts';
import { FileIO } from '../src/storage/index.ts';
import { icebergIOFromFileIO } from '../src/iceberg/io.ts';
import { writableIcebergIO } from '../src/iceberg/write/write-io.ts';
import { createIcebergTable } from '../src/iceberg/commit/create-table.ts';
import { insertIntoIcebergTable } from '../src/iceberg/commit/table-writer.ts';
import { loadTableMetadata } from '../src/iceberg/spec/metadata-file.ts';
import { currentSchema } from '../src/iceberg/spec/table-metadata.ts';
import { IcebergTableSource } from '../src/iceberg/iceberg-table-source.ts';
import { Oid } from '../src/common/pgtypes/oids.ts';
import { Numeric } from '../src/common/pgtypes/numeric.ts';
import { emptyScanMetrics, type ColumnDef, type ScanPredicate } from '../src/catalog/table-source.ts';
import type { Batch } from '../src/common/batch.ts';

const N = Number(process.argv[2] ?? 1_000_000);
const dir = mkdtempSync(join(tmpdir(), 'lakegate-prune-bench-'));
const fileIO = new FileIO();
const io = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
const catalog = await openSqlCatalog({ warehouse: dir });
await catalog.createNamespace(['b']);
const COLUMNS: ColumnDef[] = [
  { name: 'id', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
  { name: 'd', type: { oid: Oid.date, typmod: -1 }, nullable: true },
  { name: 'amount', type: { oid: Oid.numeric, typmod: ((12 << 16) | 2) + 4 }, nullable: true },
  { name: 'name', type: { oid: Oid.text, typmod: -1 }, nullable: true },
];
const D0 = Date.UTC(2023, 0, 1) / 86_400_000;
const DAYS = 730;

async function* batches(): AsyncIterable<Batch> {
  for (let start = 0; start < N; start += 50_000) {
    const len = Math.min(50_000, N - start);
    const cols: unknown[][] = [[], [], [], []];
    for (let i = start; i < start + len; i++) {
      cols[0]!.push(BigInt(i));
      cols[1]!.push(D0 + Math.floor((i * DAYS) / N));
      cols[2]!.push(Numeric.of(BigInt((i * 7919) % 100_000), 2));
      cols[3]!.push(`name-${i % 1000}`);
    }
    yield { length: len, columns: cols };
  }
}

async function build(name: string, partitioning: string[]): Promise<IcebergTableSource> {
  const id = { namespace: ['b'], name };
  await createIcebergTable(catalog, io, id, COLUMNS, { partitioning });
  const load = async () => loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
  const md = await load();
  const t0 = performance.now();
  await insertIntoIcebergTable({ catalog, io, id }, md, currentSchema(md), batches());
  console.log(`${name}: wrote ${N} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return new IcebergTableSource(io, await load());
}

const lo = Date.UTC(2024, 2, 10) / 86_400_000;
const hi = Date.UTC(2024, 2, 20) / 86_400_000;
const filters: ScanPredicate[] = [{ kind: 'compare', op: '>=', column: 1, value: lo }, { kind: 'compare', op: '<=', column: 1, value: hi }];

async function run(t: IcebergTableSource, pushed: boolean) {
  const m = emptyScanMetrics();
  const t0 = performance.now();
  let rows = 0;
  let sum = Numeric.ZERO;
  for await (const b of t.scan({ signal: new AbortController().signal, projection: [1, 2], metrics: m, ...(pushed ? { filters } : {}) })) {
    const d = b.columns[1]!;
    const a = b.columns[2]!;
    for (let i = 0; i < b.length; i++) {
      const v = d[i] as number;
      if (v >= lo && v <= hi) { rows++; sum = sum.add(a[i] as Numeric); }
    }
  }
  return { ms: performance.now() - t0, rows, sum: sum.toString(), m };
}

for (const [name, part] of [['by_month', ['month(d)']], ['unpartitioned', []]] as const) {
  const t = await build(name, [...part]);
  for (const pushed of [false, true]) {
    const times: number[] = [];
    let last;
    for (let k = 0; k < 4; k++) {
      // a fresh source each run: no cached plan
      const fresh = new IcebergTableSource(io, t.metadata);
      last = await run(fresh, pushed);
      if (k > 0) times.push(last.ms);
    }
    times.sort((a, b) => a - b);
    const m = last!.m;
    console.log(`${name} ${pushed ? 'with filters   ' : 'without filters'}: median ${times[1]!.toFixed(0)} ms, rows ${last!.rows}, sum ${last!.sum}, ` +
      `files ${m.filesScanned}/${m.filesTotal} (pruned by partition ${m.filesPrunedByPartition}, by stats ${m.filesPrunedByStats}), ` +
      `row groups ${m.rowGroupsScanned}/${m.rowGroupsTotal}, rows decoded ${m.rowsDecoded}, bytes read ${m.bytesRead}`);
  }
}
await catalog.close();
rmSync(dir, { recursive: true, force: true });
