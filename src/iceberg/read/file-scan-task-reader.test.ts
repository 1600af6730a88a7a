/**
 * pickRows (the rows a position or equality delete keeps): the picked column keeps its maker's attachments for
 * exactly the rows picked — a decimal column's exact doubles, lazy or not.
 */
import { describe, expect, it } from 'vitest';
import { attachLazyScaled, attachScaled, LAZY_NUMERIC, materializeNumerics, scaledColumnOf } from '../../common/pgtypes/numeric-column.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { pickRows } from './file-scan-task-reader.ts';

describe('pickRows', () => {
  const rows = [0, 2, 3, 5];

  it('keeps a decimal column\'s exact doubles for the picked rows', () => {
    const f = Float64Array.from([150, -275, 0, 9_007_199_254_740_991, 1, -1]);
    const col = [...f].map((u, i) => (i === 2 ? null : Numeric.of(BigInt(u), 2)));
    attachScaled(col, f, 2);
    const picked = pickRows(col, rows);
    expect(picked).toEqual(rows.map((r) => col[r]));
    const att = scaledColumnOf(picked)!;
    expect([...att.f].filter((_v, k) => picked[k] !== null)).toEqual([150, 9_007_199_254_740_991, -1]);
    expect([att.scale, att.lazy]).toEqual([2, undefined]);
  });

  it('keeps a lazy decimal column lazy, materialized from the picked rows\' doubles', () => {
    const f = Float64Array.from([101, 202, 303, 404, 505, 606]);
    const col = [...f].map(() => LAZY_NUMERIC);
    attachLazyScaled(col, f, 1, true);
    const picked = pickRows(col, rows);
    expect(scaledColumnOf(picked)?.lazy).toBe(true);
    materializeNumerics(picked);
    expect(picked.map((v) => (v as Numeric).toString())).toEqual(['10.1', '30.3', '40.4', '60.6']);
  });

  it('attaches nothing to a plain column', () => {
    expect(scaledColumnOf(pickRows([1, 2, 3, 4, 5, 6], rows))).toBeUndefined();
  });
});
