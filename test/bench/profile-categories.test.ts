/**
 * bench/profile-categories.ts pins: the frames that answer issue #4's "where does the time go" land in their
 * category, shared helpers and builtins inherit their caller's, and V8's pseudo frames are GC / idle / native.
 */
import { describe, expect, it } from 'vitest';
import { CATEGORY_LABELS, CATEGORY_SHORT, classifyFrame, normalizeFramePath, PROFILE_CATEGORIES } from '../../bench/profile-categories.ts';

const src = (path: string): string => `file:///work/main/src/${path}`;
const nm = (path: string): string => `file:///work/main/node_modules/${path}`;

describe('profile categories', () => {
  it('normalizes a frame URL to src/…, node_modules/… or node:…', () => {
    expect(normalizeFramePath(src('exec/join-core.ts'))).toBe('src/exec/join-core.ts');
    expect(normalizeFramePath('file:///tmp/x-base/node_modules/piscina/dist/worker.js')).toBe('node_modules/piscina/dist/worker.js');
    expect(normalizeFramePath('node:internal/worker/io')).toBe('node:internal/worker/io');
    expect(normalizeFramePath('')).toBe('');
  });

  it.each([
    ['snappyDecompressPage', src('iceberg/read/native-snappy.ts'), 'decode'],
    ['decodeColumnChunk', src('iceberg/read/parquet-page-decoder.ts'), 'decode'],
    ['decodeRleHybrid', src('iceberg/read/rle-hybrid-decode.ts'), 'decode'],
    ['readParquet', nm('parquet-wasm/esm/parquet_wasm.js'), 'decode'],
    ['applyIn64', src('iceberg/read/arrow-row-filter.ts'), 'scan_filter'],
    ['selectAll', src('iceberg/read/int-key-set.ts'), 'scan_filter'],
    ['readRowGroupLate', src('iceberg/read/late-materialization.ts'), 'scan_filter'],
    ['readRange', src('storage/local-fs-store.ts'), 'io'],
    ['planTasks', src('iceberg/scan/table-scan.ts'), 'scan_setup'],
    ['sumKeyCells2Count1', src('exec/expr/coded-cell-loops.ts'), 'kernels'],
    ['assign', src('exec/group-table.ts'), 'kernels'],
    ['add', src('exec/partial/typed-partial-groups.ts'), 'kernels'],
    ['next', src('exec/operators/sort-exec.ts'), 'kernels'],
    ['insertHashed', src('exec/join-hash-table.ts'), 'joins'],
    ['probe', src('exec/operators/hash-join-exec.ts'), 'joins'],
    ['orderJoins', src('exec/join-order.ts'), 'planning'],
    ['optimize', src('exec/optimizer/optimizer.ts'), 'planning'],
    ['bindSelect', src('sql/binder/bind-select.ts'), 'planning'],
    ['parse', nm('libpg-query/wasm/index.js'), 'planning'],
    ['packColumn', src('iceberg/parallel/column-transfer.ts'), 'exchange'],
    ['concatBatches', src('common/batch-concat.ts'), 'exchange'],
    ['postTask', nm('piscina/dist/worker_pool/index.js'), 'exchange'],
    ['postMessage', '', 'exchange'],
    ['encodeRow', src('wire/encode/data-row-encoder.ts'), 'wire'],
    ['(garbage collector)', '', 'gc'],
    ['(program)', '', 'program'],
    ['(idle)', '', 'idle'],
    ['compileSourceTextModule', 'node:internal/modules/esm/utils', 'other'],
    ['transform', nm('tsx/dist/esm/index.mjs'), 'other'],
    // charged to the caller
    ['add', src('common/pgtypes/numeric.ts'), 'inherit'],
    ['push', '', 'inherit'],
    ['$func42', 'wasm://wasm/0a1b2c3d', 'inherit'],
    ['processTicksAndRejections', 'node:internal/process/task_queues', 'inherit'],
  ] as const)('%s (%s) → %s', (fn, url, expected) => {
    expect(classifyFrame(fn, url)).toBe(expected);
  });

  it('labels every category', () => {
    for (const c of PROFILE_CATEGORIES) {
      expect(CATEGORY_LABELS[c]).toBeTruthy();
      expect(CATEGORY_SHORT[c]).toBeTruthy();
    }
  });
});
