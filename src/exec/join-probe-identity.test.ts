/**
 * joinBlock hands a probe batch's own column arrays on when every probe row meets exactly one built row, in order
 * (join-gather.ts takeProbe): a foreign key probing its primary key's rows after a runtime key filter. Any other
 * pairing — an unmatched row, a row with two matches, a residual that drops a pair — still gathers.
 */
import { describe, expect, it } from 'vitest';
import type { Batch } from '../common/batch.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { attachExactInt64, exactInt64Of } from '../common/pgtypes/exact-int64-column.ts';
import { joinBlock } from './join-core.ts';
import { buildJoinHashTable } from './join-hash-table.ts';
import type { Cols } from './expr/compile-expr.ts';
import { rowsOfBatch } from '../common/batch.ts';

const col0 = (cols: Cols, i: number): unknown => cols[0]![i];

/** inner joinBlock of `probe` (key in column 0) against `build` (key in column 0), no residual */
async function innerJoin(probe: Batch, build: Batch): Promise<Batch[]> {
  const table = buildJoinHashTable(build, [col0], [Oid.int4], [Oid.int4], [0]);
  const firsts = table.batchProber([col0], [0])(probe.columns, probe.length).slice();
  const cands = { first: (i: number): number => firsts[i]!, next: table.next };
  return joinBlock('inner', probe, table.rows, probe.columns.length, build.columns.length, cands, null, null);
}

const build: Batch = { length: 3, columns: [[10, 20, 30], ['ten', 'twenty', 'thirty']] };

describe('joinBlock: a probe batch whose every row meets one built row', () => {
  it('passes its column arrays on uncopied, with what is attached to them', async () => {
    const amounts = [1n, 2n, 3n, 4n];
    attachExactInt64(amounts, Float64Array.from([1, 2, 3, 4]), null);
    const probe: Batch = { length: 4, columns: [[30, 10, 10, 20], amounts, ['a', 'b', 'c', 'd']] };
    const out = await innerJoin(probe, build);
    expect(out).toHaveLength(1);
    const b = out[0]!;
    expect(b.length).toBe(4);
    for (let c = 0; c < 3; c++) expect(b.columns[c]).toBe(probe.columns[c]);
    expect(exactInt64Of(b.columns[1]!, 4)?.f).toEqual(Float64Array.from([1, 2, 3, 4]));
    expect(rowsOfBatch(b)).toEqual([
      [30, 1n, 'a', 30, 'thirty'],
      [10, 2n, 'b', 10, 'ten'],
      [10, 3n, 'c', 10, 'ten'],
      [20, 4n, 'd', 20, 'twenty'],
    ]);
  });

  it('gathers when a probe row has no match or two', async () => {
    const probe: Batch = { length: 3, columns: [[30, 99, 10], ['a', 'b', 'c']] };
    const out = await innerJoin(probe, build);
    expect(out[0]!.columns[1]).not.toBe(probe.columns[1]);
    expect(rowsOfBatch(out[0]!)).toEqual([[30, 'a', 30, 'thirty'], [10, 'c', 10, 'ten']]);
    const twice: Batch = { length: 4, columns: [[10, 20, 20, 30], ['x', 'y', 'y2', 'z']] };
    const dup = await innerJoin({ length: 2, columns: [[20, 10], ['p', 'q']] }, twice);
    expect(rowsOfBatch(dup[0]!)).toEqual([[20, 'p', 20, 'y'], [20, 'p', 20, 'y2'], [10, 'q', 10, 'x']]);
  });
});
