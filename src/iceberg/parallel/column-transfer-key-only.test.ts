/**
 * A key-only int8 column (a hash join's build key, exec/join-key-only.ts) crosses threads as its exact doubles;
 * without NULLs it arrives as a one-slot array (JOIN, session 24): no slot per row, its holes read as the
 * placeholder, the doubles attached. With NULLs it keeps a slot per row (NULL or the placeholder).
 */
import { describe, expect, it } from 'vitest';
import { unpackColumn, type PackedColumn } from './column-transfer.ts';
import { exactInt64Of, KEY_ONLY_INT64 } from '../../common/pgtypes/exact-int64-column.ts';

const n = 10_000;
const doubles = (): Float64Array => Float64Array.from({ length: n }, (_v, i) => i * 4 + 1);

describe('a key-only int8 column arriving on the main thread', () => {
  it('without NULLs: no element per row, every row reads as the placeholder, the doubles attached', () => {
    const f = doubles();
    const col = unpackColumn({ kind: 'i64exact', values: f, nulls: null } satisfies PackedColumn, n);
    expect(col.length).toBe(n);
    // one element (the last row's) instead of n
    expect(Object.keys(col).length).toBeLessThanOrEqual(1);
    expect(col[0]).toBe(KEY_ONLY_INT64);
    expect(col[n >> 1]).toBe(KEY_ONLY_INT64);
    expect(col[n - 1]).toBe(KEY_ONLY_INT64);
    expect(col.some((v) => v === null)).toBe(false);
    expect(Array.isArray(col)).toBe(true);
    const x = exactInt64Of(col, n)!;
    expect(x.nulls).toBe(null);
    expect(x.f[1234]).toBe(1234 * 4 + 1);
  });

  it('with NULLs: NULL rows read NULL, the others the placeholder', () => {
    const nulls = new Uint8Array(n);
    nulls[3] = 1;
    const col = unpackColumn({ kind: 'i64exact', values: doubles(), nulls } satisfies PackedColumn, n);
    expect(col[3]).toBe(null);
    expect(col[4]).toBe(KEY_ONLY_INT64);
    expect(exactInt64Of(col, n)!.nulls![3]).toBe(1);
  });
});
