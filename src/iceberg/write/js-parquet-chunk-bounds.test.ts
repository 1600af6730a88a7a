/**
 * A JS-written file's column bounds come from its chunks' statistics (js-parquet-chunk-bounds.mjs), one set for the
 * whole file instead of typedBounds over every batch again: they must equal typedBounds over all the file's rows for
 * every column kind — int and date (negative), long past 2^53 either sign, decimals on each physical type
 * (INT32 / INT64 / FIXED_LEN_BYTE_ARRAY) up to their precision's edges, strings longer than the 64 bytes the
 * statistics are cut to and with 4-byte characters, a column of NULLs only — dictionary-coded and PLAIN, across
 * several row groups.
 */
import { Decimal, DateDay, Field, Int32, Int64, Schema as ArrowSchema, Table, Utf8, tableToIPC } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { encodeTypedFile } from './parquet-encode.mjs';
import { typedBounds } from './typed-bounds.mjs';
import { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from './typed-column-builders.ts';
import type { TypedColumn } from './typed-columns.ts';
import type { BufferColumn, TypedBounds, TypedFileBatch } from './typed-file-ipc.mjs';

const NAMES = ['i', 'd', 'l', 'n9', 'n18', 'n38', 's', 'none'];
const TYPES = [new Int32(), new DateDay(), new Int64(), new Decimal(2, 9, 128), new Decimal(4, 18, 128), new Decimal(6, 38, 128), new Utf8(), new Utf8()];
const schema = tableToIPC(new Table(new ArrowSchema(NAMES.map((n, k) => new Field(n, TYPES[k]!, k > 0, new Map([['PARQUET:field_id', String(k + 1)]])))), []), 'stream');
const enc = new TextEncoder();

/** rows from … from+n−1, every 9th NULL in the nullable columns; `none` is NULL throughout */
function batch(from: number, n: number, shift: number): TypedFileBatch {
  const i = new Int32Builder(n, 'int');
  const d = new Int32Builder(n, 'date');
  const l = new Int64Builder(n);
  const dec = [new DecimalBuilder(n, 9, 2), new DecimalBuilder(n, 18, 4), new DecimalBuilder(n, 38, 6)];
  const s = new Utf8Builder(n);
  const none = new Utf8Builder(n);
  for (let r = from; r < from + n; r++) {
    i.append((r * 7919 + shift) % 100_000 - 50_000);
    none.appendNull();
    if (r % 9 === 4) {
      d.appendNull(); l.appendNull(); for (const b of dec) b.appendNull(); s.appendNull();
      continue;
    }
    d.append((r * 31 + shift) % 3000 - 1500);
    if (r % 101 === 7) l.value((r % 2 === 0 ? 1n : -1n) * (2n ** 62n + BigInt(r * shift))); else l.appendNumber((r * 13 + shift) % 70_000 - 35_000);
    [9, 18, 38].forEach((p, k) => {
      const edge = r % 211 === 3 ? (r % 2 === 0 ? 10n ** BigInt(p) - 1n : 1n - 10n ** BigInt(p)) : BigInt(((r + shift) % 400) - 200);
      dec[k]!.value(Numeric.of(edge, [2, 4, 6][k]!));
    });
    // long values share a 64-byte prefix (cut statistics), some carry 4-byte characters
    const str = r % 5 === 0 ? `${'p'.repeat(70)}${(r * shift) % 97}` : r % 7 === 0 ? `𝄞${r % 13}` : `v${(r + shift) % 50}`;
    const b = enc.encode(str);
    s.appendBytes(b, 0, b.length);
  }
  const cols: TypedColumn[] = [i.finish(), d.finish(), l.finish(), ...dec.map((b) => b.finish()), s.finish(), none.finish()];
  return { length: n, columns: cols as BufferColumn[] };
}

const less = (a: unknown, b: unknown): boolean => (typeof a === 'string' ? Buffer.compare(enc.encode(a), enc.encode(b as string)) < 0 : (a as number) < (b as number));

/** the bound sets merged into one [min, max] per column */
function merged(sets: readonly (readonly TypedBounds[])[]): TypedBounds[] {
  return NAMES.map((_, c) => {
    let out: TypedBounds = null;
    for (const set of sets) {
      const b = set[c] ?? null;
      if (b === null) continue;
      if (out === null) out = [b[0], b[1]] as TypedBounds;
      else {
        if (less(b[0], out[0])) out[0] = b[0];
        if (less(out[1], b[1])) out[1] = b[1];
      }
    }
    return out;
  });
}

describe('a JS-written file’s bounds from its chunk statistics', () => {
  it.each([
    ['dictionary-coded', [] as string[]],
    ['PLAIN', NAMES],
  ])('equal typedBounds over every row, %s, across row groups, in one set for the file', (_label, noDictionary) => {
    const batches = [batch(0, 3000, 1), batch(3000, 2500, 17), batch(5500, 4100, 5)];
    const result = encodeTypedFile({ schema, batches, options: { rowGroupRows: 4000, noDictionary } });
    expect(result.bounds).toHaveLength(1);
    const expected = merged(batches.map((b) => b.columns.map((c) => typedBounds(c))));
    expect(merged(result.bounds)).toEqual(expected);
    // the checks above would pass on empty bounds: the expectation is non-trivial
    expect(expected[2]![0]).toBeLessThan(-(2n ** 62n));
    expect((expected[6]![1] as string).startsWith('𝄞')).toBe(true);
    expect((expected[6]![0] as string).length).toBeGreaterThan(64);
    expect(expected[7]).toBeNull();
  });
});
