/**
 * NormKeyColumn: the normalized keys of one GroupTable key column, one per group (group-table.ts). While every key
 * is a number or NULL they are kept in a Float64Array (NaN stands for NULL: a NaN key is normalized to the string
 * 'NaN', so no number key is NaN) taken from and handed back to expr/spare-arrays.ts; the first key of another kind
 * (text, a bigint beyond 2^53, 'NaN'…) turns them into a JS array for good. Why: a JS array of more than ~16k
 * entries is a V8 large object, mapped fresh — and grown by copying into another fresh one — and the kernel faults
 * each new page in (~25 µs a page on the dev VM under load): growing one to TPC-H Q13's 100k customer keys (SF 1)
 * cost more than numbering the 1.5M rows. A spare typed array is already mapped.
 */
import { giveBack, takeFloat64 } from './expr/spare-arrays.ts';

export class NormKeyColumn {
  /** the keys while all are numbers or NULL (NaN), else null */
  #f: Float64Array | null = new Float64Array(256);
  /** the keys once one is neither (#f is null then) */
  #a: unknown[] | null = null;
  #n = 0;

  get length(): number { return this.#n; }

  /** the key of group g (g < length): a number, NULL, or whatever was pushed */
  at(g: number): unknown {
    const f = this.#f;
    if (f !== null) {
      const x = f[g]!;
      return x === x ? x : null;
    }
    const a = this.#a;
    if (a === null) throw new Error('internal error: group keys read after their table was released');
    return a[g];
  }

  push(k: unknown): void {
    const f = this.#f;
    if (f !== null && (typeof k === 'number' || k === null)) {
      if (this.#n === f.length) this.#grow(f);
      this.#f![this.#n++] = k === null ? NaN : k;
      return;
    }
    if (f !== null) this.#toArray(f);
    this.#a!.push(k);
    this.#n++;
  }

  /** hands the typed keys back for the next table (expr/spare-arrays.ts); nothing may be read afterwards */
  release(): void {
    if (this.#f !== null) giveBack(this.#f);
    this.#f = null;
    this.#a = null;
  }

  #grow(f: Float64Array): void {
    const grown = takeFloat64(f.length * 2);
    grown.set(f);
    giveBack(f);
    this.#f = grown;
  }

  #toArray(f: Float64Array): void {
    const a = new Array<unknown>(this.#n);
    for (let g = 0; g < this.#n; g++) {
      const x = f[g]!;
      a[g] = x === x ? x : null;
    }
    giveBack(f);
    this.#f = null;
    this.#a = a;
  }
}
