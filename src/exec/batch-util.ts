/** Small helpers over columnar batches shared by operators: row keys, builders (gathering rows: join-gather.ts). */
import type { Batch } from '../common/batch.ts';
import { valueKey } from '../functions/index.ts';
import type { Cols, RowFn } from './expr/compile-expr.ts';

/** A hash key equal for rows whose values are equal under compareValues (NULLs equal each other). */
export function rowKey(values: readonly unknown[], oids: readonly number[]): string {
  let s = '';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) { s += 'N\u0000'; continue; }
    const k = valueKey(oids[i] ?? 0, v);
    s += (typeof k === 'bigint' ? 'b' : typeof k === 'number' ? 'n' : typeof k === 'boolean' ? 'o' : 's') + String(k) + '\u0000';
  }
  return s;
}

/** Accumulates rows into batches of `size`. */
export class BatchBuilder {
  #cols: unknown[][];
  #length = 0;
  constructor(private readonly width: number, private readonly size: number) {
    this.#cols = Array.from({ length: width }, () => []);
  }
  get length(): number { return this.#length; }
  push(row: readonly unknown[]): void {
    for (let c = 0; c < this.width; c++) this.#cols[c]!.push(row[c] ?? null);
    this.#length++;
  }
  full(): boolean { return this.#length >= this.size; }
  take(): Batch {
    const b: Batch = { columns: this.#cols, length: this.#length };
    this.#cols = Array.from({ length: this.width }, () => []);
    this.#length = 0;
    return b;
  }
}

export function rowAt(batch: Batch, i: number): unknown[] {
  return batch.columns.map((c) => c[i] ?? null);
}

/** one row, no columns: the input of expressions evaluated once (VALUES rows, LIMIT, function args) */
export const ONE_ROW: Batch = { columns: [], length: 1 };

export async function collectRows(it: AsyncIterable<Batch>): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const b of it) for (let i = 0; i < b.length; i++) rows.push(rowAt(b, i));
  return rows;
}

export function rowsToBatch(rows: readonly (readonly unknown[])[], width: number): Batch {
  const cols: unknown[][] = Array.from({ length: width }, () => new Array<unknown>(rows.length));
  for (let r = 0; r < rows.length; r++) for (let c = 0; c < width; c++) cols[c]![r] = rows[r]![c] ?? null;
  return { columns: cols, length: rows.length };
}

/** a Map key for a tuple of values: the primitive valueKey for one value, else rowKey (null → null) */
export function tupleKey(values: readonly unknown[], oids: readonly number[]): unknown {
  if (values.length === 1) {
    const v = values[0];
    return v === null || v === undefined ? NULL_KEY : valueKey(oids[0] ?? 0, v);
  }
  return rowKey(values, oids);
}

const NULL_KEY = Symbol('NULL');

/**
 * A join key reader: the same key as tupleKey over the values of `fns` at row i, or undefined when one of
 * them is NULL (NULL keys never match); one key column allocates nothing per row.
 */
export function joinKeyReader(fns: readonly RowFn[], oids: readonly number[]): (cols: Cols, i: number) => unknown {
  if (fns.length === 1) {
    const f = fns[0]!;
    const oid = oids[0] ?? 0;
    return (cols, i) => {
      const v = f(cols, i);
      return v === null || v === undefined ? undefined : valueKey(oid, v);
    };
  }
  const vals = new Array<unknown>(fns.length);
  return (cols, i) => {
    for (let k = 0; k < fns.length; k++) {
      const v = fns[k]!(cols, i);
      if (v === null) return undefined;
      vals[k] = v;
    }
    return tupleKey(vals, oids);
  };
}
