/**
 * planRewrite: per partition, small data files of the default spec without deletes are grouped (oldest first) once
 * there are min_input_files of them; big files, files with deletes and files of older specs are left alone.
 */
import { describe, expect, it } from 'vitest';
import type { DataFile } from '../spec/manifest.ts';
import type { FileScanTask } from '../scan/table-scan.ts';
import { planRewrite } from './rewrite-plan.ts';

let n = 0;
function task(o: { month: number | null; size: number; seq?: number; spec?: number; deletes?: 'pos' | 'eq'; content?: number }): FileScanTask {
  const file = {
    content: o.content ?? 0, filePath: `f${n++}.parquet`, fileFormat: 'PARQUET', partition: new Map([[1000, o.month]]), specId: o.spec ?? 0,
    recordCount: BigInt(Math.ceil(o.size / 10)), fileSizeInBytes: BigInt(o.size),
  } as unknown as DataFile;
  const ref = { file: { ...file, content: o.deletes === 'eq' ? 2 : 1 } } as never;
  return {
    file, spec: { specId: o.spec ?? 0, fields: [] }, dataSequenceNumber: BigInt(o.seq ?? 1),
    positionDeletes: o.deletes === 'pos' ? [ref] : [], equalityDeletes: o.deletes === 'eq' ? [ref] : [],
  } as FileScanTask;
}

describe('planRewrite', () => {
  it('groups the small files of each partition, oldest first; leaves big, deleted and old-spec files', () => {
    const tasks = [
      task({ month: 1, size: 100, seq: 3 }), task({ month: 1, size: 200, seq: 1 }), task({ month: 1, size: 900 }), // 900 ≥ 75 % of 1000
      task({ month: 2, size: 100 }), task({ month: 2, size: 100, deletes: 'pos' }), // one candidate left: not enough
      task({ month: 3, size: 100 }), task({ month: 3, size: 100, deletes: 'eq' }), task({ month: 3, size: 50 }),
      task({ month: null, size: 10 }), task({ month: null, size: 10 }),
      task({ month: 4, size: 10, spec: 1 }), task({ month: 4, size: 10, spec: 1 }),
    ];
    const p = planRewrite(tasks, { defaultSpecId: 0, targetFileSizeBytes: 1000 });
    expect(p.skippedWithDeletes).toBe(2);
    expect(p.skippedOtherSpec).toBe(2);
    const byMonth = new Map(p.groups.map((g) => [g.tasks[0]!.file.partition.get(1000), g]));
    expect([...byMonth.keys()].sort()).toEqual([1, 3, null].sort());
    expect(byMonth.get(1)!.tasks.map((t) => Number(t.file.fileSizeInBytes))).toEqual([200, 100]);
    expect(byMonth.get(1)!.bytes).toBe(300n);
    expect(byMonth.get(1)!.records).toBe(30n);
    expect(byMonth.get(3)!.tasks.length).toBe(2);
  });

  it('min_input_files: partitions with fewer candidates stay as they are', () => {
    const tasks = [task({ month: 1, size: 1 }), task({ month: 1, size: 1 }), task({ month: 2, size: 1 }), task({ month: 2, size: 1 }), task({ month: 2, size: 1 })];
    expect(planRewrite(tasks, { defaultSpecId: 0, targetFileSizeBytes: 1000, minInputFiles: 3 }).groups.map((g) => g.tasks.length)).toEqual([3]);
    expect(planRewrite(tasks, { defaultSpecId: 0, targetFileSizeBytes: 1000 }).groups.map((g) => g.tasks.length)).toEqual([2, 3]);
  });
});
