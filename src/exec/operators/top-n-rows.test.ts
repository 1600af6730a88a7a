/**
 * TopNRows (SortExec's top-N): the k first rows of a full stable sort, for keys with NULLs, DESC, NULLS FIRST /
 * LAST and ties on the first key decided by the second (the rows the first-key shortcut must not drop).
 */
import { describe, expect, it } from 'vitest';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { Cols } from '../expr/compile-expr.ts';
import { compareKeys, type KeySpec } from '../expr/sort-compare.ts';
import { TopNRows } from './top-n-rows.ts';

const col = (c: number) => (cols: Cols, i: number): unknown => cols[c]![i];

/** rows [a, b, id] of a deterministic pseudo-random stream: few distinct a values (ties), NULLs in both keys */
function stream(n: number): unknown[][] {
  const rows: unknown[][] = [];
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const a = x % 11 === 0 ? null : x % 7;
    const b = x % 13 === 0 ? null : (x >> 8) % 50;
    rows.push([a, b, i]);
  }
  return rows;
}

function topViaSort(rows: readonly unknown[][], specs: readonly KeySpec[], k: number): unknown[][] {
  return [...rows].sort((x, y) => compareKeys(specs, x, y)).slice(0, k); // Array.prototype.sort is stable
}

function topViaTopN(rows: readonly unknown[][], specs: readonly KeySpec[], k: number, batch: number): unknown[][] {
  const top = new TopNRows(specs, [col(0), col(1)], k);
  for (let s = 0; s < rows.length; s += batch) {
    const part = rows.slice(s, s + batch);
    top.add([part.map((r) => r[0]), part.map((r) => r[1]), part.map((r) => r[2])], part.length);
  }
  return top.sorted().map((r) => r.row);
}

describe('TopNRows', () => {
  const rows = stream(5000);
  for (const descending of [false, true]) {
    for (const nullsFirst of [false, true]) {
      it(`equals the stable full sort's first rows (${descending ? 'DESC' : 'ASC'}, NULLS ${nullsFirst ? 'FIRST' : 'LAST'})`, () => {
        const specs: KeySpec[] = [{ oid: Oid.int4, descending, nullsFirst }, { oid: Oid.int4, descending: !descending, nullsFirst: !nullsFirst }];
        for (const k of [0, 1, 7, 20, 600]) {
          for (const batch of [1, 333, 5000]) expect(topViaTopN(rows, specs, k, batch)).toEqual(topViaSort(rows, specs, k));
        }
      });
    }
  }

  it('keeps fewer than k rows when the input is short', () => {
    const specs: KeySpec[] = [{ oid: Oid.int4, descending: false, nullsFirst: false }, { oid: Oid.int4, descending: false, nullsFirst: false }];
    expect(topViaTopN(rows.slice(0, 5), specs, 20, 2)).toEqual(topViaSort(rows.slice(0, 5), specs, 20));
  });
});
