/**
 * bench/profile-cpuprofile.ts and profile-report.ts on a hand-made profile: samples fall into the run windows by
 * their time (outside every window they are dropped), builtins and WebAssembly take their caller's category, and
 * a thread kind's kernel CPU ms is split by the sample counts.
 */
import { describe, expect, it } from 'vitest';
import { isScanWorkerProfile, samplesByWindow, type CpuProfile } from '../../bench/profile-cpuprofile.ts';
import { kindProfile, queryProfile, renderMarkdown, totals, type RunRecord } from '../../bench/profile-report.ts';

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0 });

// (root) ─┬ (idle)
//         ├ (garbage collector)
//         ├ decodeColumnChunk (decode) ─ parquet glue (decode) ─ $f7 (wasm: inherits decode)
//         └ processTicks (inherit) ─┬ insertHashed (joins) ─ push (builtin: inherits joins)
//                                   └ push (builtin, no classified caller: other)
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)', ''), children: [2, 3, 4, 7] },
    { id: 2, callFrame: frame('(idle)', '') },
    { id: 3, callFrame: frame('(garbage collector)', '') },
    { id: 4, callFrame: frame('decodeColumnChunk', 'file:///w/src/iceberg/read/parquet-page-decoder.ts'), children: [5] },
    { id: 5, callFrame: frame('readParquet', 'file:///w/node_modules/parquet-wasm/esm/parquet_wasm.js'), children: [6] },
    { id: 6, callFrame: frame('$f7', 'wasm://wasm/12ab') },
    { id: 7, callFrame: frame('processTicksAndRejections', 'node:internal/process/task_queues'), children: [8, 10] },
    { id: 8, callFrame: frame('insertHashed', 'file:///w/src/exec/join-hash-table.ts'), children: [9] },
    { id: 9, callFrame: frame('push', '') },
    { id: 10, callFrame: frame('push', '') },
  ],
  startTime: 1_000,
  endTime: 1_010,
  // sample times 1001 … 1010 (one µs apart)
  samples: [6, 6, 9, 2, 3, 8, 10, 4, 6, 9],
  timeDeltas: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
};

describe('samplesByWindow', () => {
  it('counts each window’s samples by category, inheriting through builtins and WebAssembly', () => {
    const byWindow = samplesByWindow(profile, [
      { key: 'b', startUs: 1006, endUs: 1008 },
      { key: 'a', startUs: 1001, endUs: 1004 },
    ]);
    const a = byWindow.get('a')!;
    expect(a.categories.decode).toBe(2);
    expect(a.categories.joins).toBe(1);
    expect(a.idle).toBe(1);
    expect(a.frames.get('$f7 ← node_modules/parquet-wasm/esm/parquet_wasm.js:readParquet')).toBe(2); // listed with its caller
    expect(a.frames.get('push ← src/exec/join-hash-table.ts:insertHashed')).toBe(1);
    const b = byWindow.get('b')!;
    expect(b.categories.joins).toBe(1);
    expect(b.categories.other).toBe(1); // a builtin whose callers are all shared helpers
    expect(b.categories.decode).toBe(1);
    expect(b.categories.gc).toBe(0); // sample 1005 lies between the windows
    let busy = 0;
    for (const n of Object.values(b.categories)) busy += n;
    expect(busy).toBe(3);
  });

  it('tells a scan worker’s profile from a loader thread’s', () => {
    expect(isScanWorkerProfile(profile)).toBe(false);
    const worker: CpuProfile = { ...profile, nodes: [...profile.nodes, { id: 11, callFrame: frame('', 'file:///w/node_modules/piscina/dist/worker.js') }] };
    expect(isScanWorkerProfile(worker)).toBe(true);
  });
});

describe('profile report', () => {
  it('splits the kernel CPU ms by sample counts, per run', () => {
    const samples = samplesByWindow(profile, [{ key: 'a', startUs: 1001, endUs: 1010 }]).get('a')!;
    // busy: decode 4 (1001, 1002, 1008, 1009), joins 3, gc 1, other 1 → 9 samples for 90 ms
    const k = kindProfile(samples, 90, 1, 1000);
    expect(k.categoriesMs.decode).toBeCloseTo(40);
    expect(k.categoriesMs.joins).toBeCloseTo(30);
    expect(k.categoriesMs.gc).toBeCloseTo(10);
    expect(k.sampledMs).toBeCloseTo(9);
    expect(kindProfile({ ...samples, categories: { ...samples.categories, decode: 0, joins: 0, gc: 0, other: 0 } }, 5, 1, 1000).categoriesMs.other).toBe(5);
  });

  it('combines main thread and workers per query, and weighs queries in the totals', () => {
    const s = samplesByWindow(profile, [{ key: 'x', startUs: 1001, endUs: 1010 }]).get('x')!;
    const run = (query: string, main: number, workers: number): RunRecord => ({ query, run: 0, startUs: 0, endUs: 1, wallMs: 5, cpuMs: { main, workers, helpers: 1, profiler: 1 } });
    const empty = { ...s, categories: { ...s.categories, decode: 0, joins: 0, gc: 0, other: 0 }, idle: 0, frames: new Map<string, number>() };
    const q1 = queryProfile('q1', [run('q1', 90, 0)], s, empty, 1000);
    expect(q1.combined.shares.decode).toBeCloseTo(4 / 9);
    expect(q1.top3[0]).toBe('decode');
    const q2 = queryProfile('q2', [run('q2', 0, 10)], empty, { ...s, categories: { ...s.categories, decode: 0, joins: 0, gc: 2, other: 0 } }, 1000);
    expect(q2.combined.shares.gc).toBe(1);
    const t = totals([q1, q2]);
    expect(t.combined.cpuMs).toBeCloseTo(100);
    expect(t.combined.shares.gc).toBeCloseTo(0.2); // (10 + 10) / 100
    expect(t.meanQueryShares.gc).toBeCloseTo((1 / 9 + 1) / 2);
    const md = renderMarkdown([q1, q2], t);
    expect(md).toContain('| q1 | 5 | 90 | 0 | 1 | 44 |');
    expect(md).toContain('**all, CPU-weighted**');
  });
});
