/**
 * typedPartitionGroups groups a typed batch's rows exactly as the JS path would: one group per distinct partition
 * tuple (each transform's `apply` on the row's JS value), numbered in order of first appearance, NULL a group of its
 * own. int32 transforms (dates, ints) go through a per-value table; a batch whose values span more than the table
 * takes the Map path — both must give the JS path's groups, in small batches as in big ones.
 */
import { describe, expect, it } from 'vitest';
import { parseSchema } from '../spec/schema.ts';
import { bindPartitionSpec } from '../transforms/partition-path.ts';
import { Int32Builder } from './typed-column-builders.ts';
import type { TypedColumn } from './typed-columns.ts';
import { tupleAt, typedPartitionGroups } from './typed-partition-groups.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'i', required: false, type: 'int' },
    { id: 2, name: 'd', required: false, type: 'date' },
  ],
});

function fieldsOf(spec: ReadonlyArray<[string, string]>) {
  return bindPartitionSpec({
    specId: 0,
    fields: spec.map(([col, transform], k) => ({ sourceId: schema.fields.find((f) => f.name === col)!.id, fieldId: 1000 + k, name: `${col}_${k}`, transform })),
  }, schema);
}

/** n rows: ints and dates from `value(r)`, NULL where `value` gives null */
function columns(n: number, value: (r: number) => number | null): TypedColumn[] {
  const i = new Int32Builder(n, 'int');
  const d = new Int32Builder(n, 'date');
  for (let r = 0; r < n; r++) {
    const v = value(r);
    if (v === null) {
      i.appendNull();
      d.appendNull();
    } else {
      i.append(v);
      d.append(v);
    }
  }
  return [i.finish(), d.finish()];
}

/** the JS path: group of each row by its tuple's text, groups numbered by first appearance */
function jsGroups(spec: ReadonlyArray<[string, string]>, cols: readonly TypedColumn[], n: number): number[] {
  const fields = fieldsOf(spec);
  const ids = new Map<string, number>();
  const out: number[] = [];
  for (let r = 0; r < n; r++) {
    const key = JSON.stringify(tupleAt(fields, cols, r), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    let g = ids.get(key);
    if (g === undefined) ids.set(key, (g = ids.size));
    out.push(g);
  }
  return out;
}

const specs: ReadonlyArray<ReadonlyArray<[string, string]>> = [
  [['d', 'month']], [['d', 'year']], [['d', 'day']], [['d', 'bucket[7]']], [['i', 'truncate[100]']], [['i', 'identity']],
  [['d', 'month'], ['i', 'bucket[3]']],
];

const cases: ReadonlyArray<[string, (r: number) => number | null]> = [
  // lineitem-like: a date within ~7 years, changing on almost every row, some before 1970, every 13th NULL
  ['narrow span with NULLs', (r) => (r % 13 === 4 ? null : 8000 + ((r * 7919) % 2600) - (r % 17 === 0 ? 9000 : 0))],
  // wider than the per-value table: the Map path
  ['wide span', (r) => (r % 2 === 0 ? -200_000 + (r % 97) : 150_000 + ((r * 31) % 1000))],
  ['all NULL', () => null],
];

describe('typedPartitionGroups', () => {
  for (const [name, value] of cases) {
    for (const spec of specs) {
      it.each([7, 5000])(`${name}: ${spec.map(([c, t]) => `${t}(${c})`).join(', ')} groups as the JS path (%i rows)`, (n) => {
        const cols = columns(n, value);
        const got = typedPartitionGroups(fieldsOf(spec), cols, n);
        const want = jsGroups(spec, cols, n);
        expect(Array.from(got.groupOf)).toEqual(want);
        expect(got.count).toBe(new Set(want).size);
        expect(got.first).toEqual(Array.from({ length: got.count }, (_, g) => want.indexOf(g)));
      });
    }
  }
});
