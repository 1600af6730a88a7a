/**
 * PrunablePlan (src/iceberg/scan/prunable-plan.ts) answers every filter exactly as planning per filter does
 * (planScan with the filter, then row groups by footer statistics: iceberg-table-source.ts planPruned) —
 * same tasks, row groups, delete files and counters — over partitioned tables with several manifests,
 * position deletes and partition evolution; and the lookup through the engine keeps its answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryEngine, type QueryEngine } from '../../src/engine/index.ts';
import type { EngineSession } from '../../src/engine/engine-session.ts';
import type { ScanPredicate } from '../../src/catalog/table-source.ts';
import { IcebergTableSource } from '../../src/iceberg/iceberg-table-source.ts';
import { planScan, type ScanPlan } from '../../src/iceberg/scan/table-scan.ts';
import { PrunablePlan, PRUNABLE_MAX_FILES } from '../../src/iceberg/scan/prunable-plan.ts';
import { readParquetFooter } from '../../src/iceberg/read/parquet-footer.ts';
import { selectRowGroups } from '../../src/iceberg/read/row-group-stats.ts';
import type { PrimitiveType } from '../../src/iceberg/spec/schema.ts';

let engine: QueryEngine;
let session: EngineSession;
let warehouse: string;

async function rows(sql: string): Promise<unknown[][]> {
  const out: unknown[][] = [];
  for await (const r of session.simpleQuery(sql)) {
    if (r.kind !== 'rows') continue;
    for await (const b of r.batches) for (let i = 0; i < b.length; i++) out.push(b.columns.map((c) => c[i]));
  }
  return out;
}

function source(name: string): IcebergTableSource {
  const rel = session.server.database('lake').relations().find((r) => r.schema === 'pp' && r.name === name);
  if (rel === undefined || !(rel.source instanceof IcebergTableSource)) throw new Error(`no Iceberg table ${name}`);
  return rel.source;
}

/** what IcebergTableSource.planPruned makes of a filter: the reference answer */
async function plannedPerFilter(src: IcebergTableSource, filters: readonly ScanPredicate[]): Promise<ScanPlan> {
  const filter = src.bindFilters(filters);
  const plan = await planScan(src.io, src.metadata, src.snapshot?.snapshotId ?? null, { filter });
  const typeOf = (id: number): PrimitiveType | undefined => {
    const f = src.schema.fields.find((x) => x.id === id);
    return f?.type.kind === 'primitive' ? f.type : undefined;
  };
  const tasks = [];
  let prunedByRowGroups = 0;
  for (const task of plan.tasks) {
    const footer = await readParquetFooter(src.io, task.file.filePath, Number(task.file.fileSizeInBytes));
    const rowGroups = selectRowGroups(footer, filter, typeOf);
    if (rowGroups.length === footer.rowGroups.length) tasks.push(task);
    else if (rowGroups.length === 0) prunedByRowGroups++;
    else tasks.push({ ...task, rowGroups });
  }
  return { ...plan, tasks, counters: { ...plan.counters, filesPrunedByStats: plan.counters.filesPrunedByStats + prunedByRowGroups } };
}

const shape = (p: ScanPlan): unknown => ({
  counters: p.counters,
  deleteFilesSeen: p.deleteFilesSeen,
  tasks: p.tasks.map((t) => ({ file: t.file.filePath, rowGroups: t.rowGroups, pos: t.positionDeletes.map((d) => d.file.filePath), eq: t.equalityDeletes.length, seq: t.dataSequenceNumber })),
});

const cmp = (column: number, op: '=' | '<' | '<=' | '>' | '>=' | '<>', value: unknown): ScanPredicate => ({ kind: 'compare', op, column, value });

/** filters over (id int4, d date, s text): inside, outside and across the files' ranges */
function filters(): ScanPredicate[][] {
  const out: ScanPredicate[][] = [];
  for (const id of [-5, 1, 7, 40, 41, 99, 120, 121, 500]) for (const op of ['=', '<', '>=', '<>'] as const) out.push([cmp(0, op, id)]);
  for (const d of [19000, 19358, 19400, 19450, 19800]) out.push([cmp(1, '=', d)], [cmp(1, '<', d)], [cmp(0, '>', 30), cmp(1, '>=', d)]);
  out.push([{ kind: 'in', column: 0, values: [3, 77, 400] }], [{ kind: 'in', column: 0, values: [1000, 2000] }]);
  out.push([{ kind: 'startsWith', column: 2, prefix: 'b' }], [{ kind: 'startsWith', column: 2, prefix: 'zz' }]);
  out.push([{ kind: 'isNull', column: 2 }], [{ kind: 'isNotNull', column: 1 }]);
  out.push([{ kind: 'or', args: [cmp(0, '=', 5), cmp(0, '=', 115)] }], [{ kind: 'and', args: [cmp(0, '>', 10), cmp(0, '<', 12)] }]);
  out.push([cmp(0, '=', null)]);
  return out;
}

beforeAll(async () => {
  warehouse = mkdtempSync(join(tmpdir(), 'lg-prunable-'));
  engine = await createQueryEngine({ databases: ['lake'], warehouse });
  session = (await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 82, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false })) as EngineSession;
  await rows('CREATE SCHEMA pp');
  await rows(`CREATE TABLE pp.parts (id int, d date, s text) WITH (partitioning = ARRAY['month(d)', 'bucket(3, id)'])`);
  await rows(`INSERT INTO pp.parts SELECT g, DATE '2023-01-01' + g * 3, CASE WHEN g % 7 = 0 THEN NULL ELSE chr(97 + g % 5) || g END FROM generate_series(1, 40) g`);
  await rows(`INSERT INTO pp.parts SELECT g, DATE '2024-03-01' + g, 'b' || g FROM generate_series(100, 120) g`);
  await rows(`DELETE FROM pp.parts WHERE id IN (7, 105)`);
  await rows(`CREATE TABLE pp.evolved (id int, d date, s text)`);
  await rows(`INSERT INTO pp.evolved SELECT g, DATE '2023-01-01' + g, 's' || g FROM generate_series(1, 30) g`);
  await rows(`ALTER TABLE pp.evolved SET (partitioning = 'year(d)')`);
  await rows(`INSERT INTO pp.evolved SELECT g, DATE '2024-06-01' + g, NULL FROM generate_series(100, 110) g`);
  await rows(`DELETE FROM pp.evolved WHERE id = 3`);
}, 60_000);
afterAll(async () => {
  await session?.close();
  await engine?.close();
  rmSync(warehouse, { recursive: true, force: true });
});

describe('PrunablePlan', () => {
  for (const table of ['parts', 'evolved']) {
    it(`prunes ${table} exactly as planning per filter does`, async () => {
      const src = source(table);
      const typeOf = (id: number): PrimitiveType | undefined => {
        const f = src.schema.fields.find((x) => x.id === id);
        return f?.type.kind === 'primitive' ? f.type : undefined;
      };
      const prunable = await PrunablePlan.build(src.io, src.metadata, src.snapshot?.snapshotId ?? null, typeOf);
      expect(prunable).not.toBeNull();
      let pruned = 0;
      for (const f of filters()) {
        const expected = await plannedPerFilter(src, f);
        const fast = prunable!.plan(src.bindFilters(f)).plan;
        expect(shape(fast), JSON.stringify(f)).toEqual(shape(expected));
        if (fast.tasks.length < (await planScan(src.io, src.metadata, src.snapshot?.snapshotId ?? null)).tasks.length) pruned++;
        // the source's own planning goes through it and agrees too
        expect(shape(await src.planFiles(f))).toEqual(shape(expected));
      }
      expect(pruned).toBeGreaterThan(5); // the filters do prune: the comparison is not between two full plans
    });
  }

  it('is not made for snapshots with more files than PRUNABLE_MAX_FILES, nor for empty ones', async () => {
    await rows('CREATE TABLE pp.many (id int)');
    const src0 = source('many');
    expect(await PrunablePlan.build(src0.io, src0.metadata, src0.snapshot?.snapshotId ?? null, () => undefined)).toBeNull();
    for (let i = 0; i <= PRUNABLE_MAX_FILES; i++) await rows(`INSERT INTO pp.many VALUES (${i})`);
    const src = source('many');
    expect(await PrunablePlan.build(src.io, src.metadata, src.snapshot?.snapshotId ?? null, () => undefined)).toBeNull();
    expect(await rows('SELECT count(*) FROM pp.many WHERE id > 3')).toEqual([[BigInt(PRUNABLE_MAX_FILES - 3)]]);
  });

  it('keeps the answers of a parameterised lookup across values and a new snapshot', async () => {
    const p = await session.prepare('SELECT s FROM pp.parts WHERE id = $1', [23]);
    const get = async (id: number): Promise<unknown[][]> => {
      const r = await session.execute(p, [id]);
      const out: unknown[][] = [];
      if (r.kind === 'rows') for await (const b of r.batches) for (let i = 0; i < b.length; i++) out.push(b.columns.map((c) => c[i]));
      await session.sync();
      return out;
    };
    expect(await get(8)).toEqual([['d8']]);
    expect(await get(7)).toEqual([]);
    expect(await get(14)).toEqual([[null]]);
    expect(await get(110)).toEqual([['b110']]);
    expect(await get(1000)).toEqual([]);
    await rows(`INSERT INTO pp.parts VALUES (1000, DATE '2025-01-01', 'new')`);
    expect(await get(1000)).toEqual([['new']]);
    expect(await get(8)).toEqual([['d8']]);
  });
});
