/** Small batches packed as one without gluing: always the packed form packBatch makes of the glued batch. */
import { describe, expect, it } from 'vitest';
import { nullColumn, type Batch } from '../../common/batch.ts';
import { concatColumns } from '../../common/batch-concat.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { attachLazyScaled, LAZY_NUMERIC, sparseLazyNumerics } from '../../common/pgtypes/numeric-column.ts';
import type { IcebergType } from '../spec/schema.ts';
import { packBatch, unpackBatch } from './column-transfer.ts';
import { packBatches } from './pack-batches.ts';

const P = (name: string, scale?: number): IcebergType => (scale === undefined ? { kind: 'primitive', name } : { kind: 'primitive', name, precision: 15, scale }) as IcebergType;
const TYPES = [P('int'), P('date'), P('double'), P('boolean'), P('decimal', 2), P('string'), P('long')];

/** a decimal column as the scan's lazy conversion makes it: placeholders (NULLs kept) and exact doubles attached */
function lazyDecimals(unscaled: readonly (number | null)[]): unknown[] {
  const col = unscaled.map((v) => (v === null ? null : LAZY_NUMERIC));
  attachLazyScaled(col, Float64Array.from(unscaled, (v) => v ?? 0), 2);
  return col;
}

function sparseDecimals(unscaled: readonly number[]): unknown[] {
  const col = sparseLazyNumerics(unscaled.length);
  attachLazyScaled(col, Float64Array.from(unscaled), 2, true);
  return col;
}

/** fresh pieces each call: gluing may materialize lazy columns in place */
function pieces(): Batch[] {
  return [
    { length: 3, columns: [[1, null, -7], [19000, 19001, null], [0.5, null, -0], [true, false, null], lazyDecimals([125, null, -1]), ['a', 'b', null], [1n, null, 3n]] },
    { length: 2, columns: [[2, 3], nullColumn(2), [1e300, 2], [null, true], sparseDecimals([5, 6]), ['c', 'c'], [4n, 5n]] },
    { length: 0, columns: [[], [], [], [], [], [], []] },
    { length: 2, columns: [[2 ** 31 - 1, -(2 ** 31)], [1, 2], [3, 4], [false, false], lazyDecimals([null, 99]), [null, 'd'], [null, 6n]] },
  ];
}

function reference(batches: Batch[], types: readonly IcebergType[]): unknown {
  const transfer: ArrayBufferLike[] = [];
  return { packed: packBatch(concatColumns(batches, types.length), types, transfer, false), buffers: transfer.length };
}

function mine(batches: Batch[], types: readonly IcebergType[]): unknown {
  const transfer: ArrayBufferLike[] = [];
  return { packed: packBatches(batches, types, transfer, false), buffers: transfer.length };
}

describe('packBatches (pack-batches.ts)', () => {
  it('packs typed columns piece by piece exactly as the glued batch packs', () => {
    const got = mine(pieces(), TYPES) as { packed: { columns: { kind: string }[] } };
    expect(got).toEqual(reference(pieces(), TYPES));
    expect(got.packed.columns.map((c) => c.kind)).toEqual(['i32', 'i32', 'f64', 'bool', 'decimal53', 'cloned', 'i64']);
    // and arrives as the glued rows
    const glued = concatColumns(pieces(), TYPES.length);
    const transfer: ArrayBufferLike[] = [];
    const arrived = unpackBatch(packBatches(pieces(), TYPES, transfer, true));
    expect(arrived.length).toBe(7);
    expect(arrived.columns[0]).toEqual(glued.columns[0]);
    expect(arrived.columns[4]!.map((v) => (v === null ? null : String(v)))).toEqual(['1.25', null, '-0.01', '0.05', '0.06', null, '0.99']);
  });

  it('falls back to the glued column for values packing would not take, and keeps the exact mark', () => {
    const odd = (): Batch[] => [
      { length: 2, columns: [[1, 2.5], [1, 2]] },
      { length: 1, columns: [[3], [Numeric.parse('1.5')]] },
    ];
    const types = [P('int'), P('decimal', 2)];
    expect(mine(odd(), types)).toEqual(reference(odd(), types));
    const transfer: ArrayBufferLike[] = [];
    expect(packBatches(odd(), types, transfer, true).exact).toBe(true);
  });

  it('packs a single batch as packBatch does', () => {
    const one = (): Batch[] => [pieces()[0]!];
    expect(mine(one(), TYPES)).toEqual(reference(one(), TYPES));
  });
});
