/**
 * TypedStage.appendGroups (column by column over several partitions' stages) against append (partition by
 * partition): the same rows in every stage, in order, whatever the column kinds, NULLs, a column that turns
 * into JS values between batches, and stages that fill up (the rest appended afterwards).
 */
import { describe, expect, it } from 'vitest';
import { rowsOfBatch } from '../../common/batch.ts';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import { TypedStage } from './typed-stage.ts';
import type { TypedColumn } from './typed-columns.ts';

const enc = new TextEncoder();

/** rows k·n … k·n+n−1: int, long, decimal, date (JS values when `dateValues`), string; every 7th NULL */
function batch(k: number, n: number, dateValues: boolean): TypedColumn[] {
  const i = new Int32Builder(n, 'int');
  const l = new Int64Builder(n);
  const d = new DecimalBuilder(n, 15, 2);
  const dt = new Int32Builder(n, 'date');
  const s = new Utf8Builder(n);
  const dates: unknown[] = [];
  for (let r = k * n; r < k * n + n; r++) {
    i.append(r);
    if (r % 7 === 3) {
      l.appendNull(); d.appendNull(); dt.appendNull(); s.appendNull();
      dates.push(null);
      continue;
    }
    l.appendNumber(r * 1_000_003);
    d.appendUnscaled(r * 37 - 500);
    dt.append(r - 400);
    dates.push(r % 5 === 0 ? Infinity : r - 400);
    const b = enc.encode(r % 3 === 0 ? `é${r}` : `s${'x'.repeat(r % 40)}`);
    s.appendBytes(b, 0, b.length);
  }
  const date: TypedColumn = dateValues ? { kind: 'values', length: n, values: dates } : dt.finish();
  return [i.finish(), l.finish(), d.finish(), date, s.finish()];
}

/** rows grouped by r % groups: the permutation, each group's start (and the end) */
function grouping(n: number, groups: number): { perm: Int32Array; starts: Int32Array } {
  const perm = new Int32Array(n);
  const starts = new Int32Array(groups + 1);
  let at = 0;
  for (let g = 0; g < groups; g++) {
    starts[g] = at;
    for (let r = g; r < n; r += groups) perm[at++] = r;
  }
  starts[groups] = n;
  return { perm, starts };
}

function drain(stage: TypedStage, out: unknown[][]): void {
  if (stage.rows > 0) out.push(...rowsOfBatch(stage.finish()));
}

describe('TypedStage.appendGroups', () => {
  it('gives every stage the rows append gives it', () => {
    const n = 300;
    const groups = 3;
    const maxRows = 128;
    const { perm, starts } = grouping(n, groups);
    const byAppend = Array.from({ length: groups }, () => new TypedStage(5, maxRows));
    const byGroups = Array.from({ length: groups }, () => new TypedStage(5, maxRows));
    const want: unknown[][][] = Array.from({ length: groups }, () => []);
    const got: unknown[][][] = Array.from({ length: groups }, () => []);
    for (let k = 0; k < 4; k++) {
      // batch 2 has its date column as JS values (a date that met 'infinity'): the stages continue as values
      const cols = batch(k, n, k === 2);
      for (let g = 0; g < groups; g++) {
        let at = starts[g]!;
        while (at < starts[g + 1]!) {
          at += byAppend[g]!.append(cols, perm, at, starts[g + 1]!);
          if (byAppend[g]!.full) drain(byAppend[g]!, want[g]!);
        }
      }
      const counts = new Int32Array(groups);
      for (let g = 0; g < groups; g++) counts[g] = Math.min(starts[g + 1]! - starts[g]!, byGroups[g]!.room);
      TypedStage.appendGroups(byGroups, cols, perm, starts, counts);
      for (let g = 0; g < groups; g++) {
        let at = starts[g]! + counts[g]!;
        if (byGroups[g]!.full) drain(byGroups[g]!, got[g]!);
        while (at < starts[g + 1]!) {
          at += byGroups[g]!.append(cols, perm, at, starts[g + 1]!);
          if (byGroups[g]!.full) drain(byGroups[g]!, got[g]!);
        }
      }
    }
    for (let g = 0; g < groups; g++) {
      drain(byAppend[g]!, want[g]!);
      drain(byGroups[g]!, got[g]!);
    }
    expect(want.map((w) => w.length)).toEqual([400, 400, 400]);
    expect(got).toEqual(want);
    // spot checks: group 1 starts with row 1; the rows of batch 2 carry Infinity where the date column met it
    expect(got[1]![0]!.slice(0, 2)).toEqual([1, 1_000_003n]);
    expect(got.flat().some((r) => r[3] === Infinity)).toBe(true);
  });

  it('keeps every value: strings of 0–60 bytes from sources at any offset, a first NULL met after valid rows were staged', () => {
    const n = 100;
    const groups = 3;
    const { perm, starts } = grouping(n, groups);
    const stages = Array.from({ length: groups }, () => new TypedStage(2, 1024));
    const want: unknown[][][] = Array.from({ length: groups }, () => []);
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (let k = 0; k < 3; k++) {
      const s = new Utf8Builder(n);
      const t = new Int32Builder(n, 'int');
      const rows: unknown[][] = [];
      for (let i = 0; i < n; i++) {
        const r = k * n + i;
        const text = r % 11 === 0 ? 'ü€'.repeat(r % 9) : letters.slice(0, r % 61);
        // every field copied out of its own source array, most of them at an odd offset into it
        const bytes = enc.encode(`${'#'.repeat(r % 4)}${text}`);
        s.appendBytes(i % 2 === 0 ? bytes.subarray(0) : new Uint8Array(bytes), r % 4, bytes.length);
        // column 1 has no NULL before batch 2, row 37
        const v = k === 2 && i >= 37 && i % 5 === 2 ? null : r;
        if (v === null) t.appendNull();
        else t.append(v);
        rows.push([text, v]);
      }
      const cols = [s.finish(), t.finish()];
      expect(cols[1]!.kind === 'int32' && cols[1]!.validity === null).toBe(k < 2);
      for (let g = 0; g < groups; g++) for (let at = starts[g]!; at < starts[g + 1]!; at++) want[g]!.push(rows[perm[at]!]!);
      TypedStage.appendGroups(stages, cols, perm, starts, Int32Array.from({ length: groups }, (_, g) => starts[g + 1]! - starts[g]!));
    }
    const got = stages.map((st) => rowsOfBatch(st.finish()));
    expect(got).toEqual(want);
    expect(got.flat().filter((r) => r[1] === null).length).toBe(13);
  });

  it('refuses more rows than a stage has room for', () => {
    const cols = batch(0, 10, false);
    const st = new TypedStage(5, 4);
    expect(() => TypedStage.appendGroups([st], cols, grouping(10, 1).perm, new Int32Array([0, 10]), new Int32Array([5]))).toThrow(/no room/);
  });
});
