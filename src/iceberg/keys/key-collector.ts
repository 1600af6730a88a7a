/**
 * KeyCollector: the keys one unique constraint (unique-keys.ts) sees in a statement's new rows, in row
 * order, so that key-check.ts can find the first row PostgreSQL would refuse — one whose key an earlier new
 * row or a live table row already has. A row with a NULL in a key column never conflicts (NULLS DISTINCT)
 * but keeps its place. Single integer-like keys (int, long, date, time, timestamp) are kept as doubles in one
 * growing Float64Array (COPY's typed int32 / int64 buffers are read without making a value per row) and
 * indexed once: a bitmap over [min, max] when dense (a COPY of serial ids), else a sorted copy. Any other key,
 * or an integer beyond 2^53, is kept as text in a Set. Per key column it also keeps what the probe's pruning
 * predicate needs (existing-keys.ts): the distinct values while few, and the range.
 */
import type { Batch } from '../../common/batch.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { compareValues, normalizeValue } from '../scan/bound-predicate.ts';
import { isTypedBatch, typedValueAt, type TypedColumn } from '../write/typed-columns.ts';
import type { UniqueKey } from './unique-keys.ts';

const NUMERIC_KINDS = new Set(['int', 'long', 'date', 'time', 'timestamp', 'timestamptz']);
const BIGINT_KINDS = new Set(['long', 'timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns']);
/** a bitmap index when the key range is at most this many bits per key */
const DENSE_BITS_PER_KEY = 32;

/** one key column value as text: equal keys (PostgreSQL's `=` of the column type) give equal text */
function encodePart(v: unknown, bpchar: boolean): string {
  switch (typeof v) {
    case 'bigint': return v.toString();
    case 'number': return Object.is(v, -0) ? '0' : String(v);
    case 'string': return bpchar ? v.replace(/ +$/, '') : v;
    case 'boolean': return v ? 't' : 'f';
    default:
      if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
      if (Numeric.isNumeric(v)) return v.toString();
      return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
  }
}

/** distinct values (capped) and range of one key column in text mode */
interface ColumnStats {
  distinct: Map<string, unknown> | null;
  min: unknown;
  max: unknown;
  /** a value the pruning order cannot place (then no range) */
  unordered: boolean;
}

export class KeyCollector {
  /** number of rows added (with or without a key) */
  rows = 0;
  /** rows with a key (no NULL part) */
  keyed = 0;
  /** numeric mode: key per row, NaN for a row with a NULL key */
  private nums: Float64Array | null;
  private min = Infinity;
  private max = -Infinity;
  /** numeric mode index (index()): bits over [min, max], or the keys sorted */
  private bits: Uint32Array | null = null;
  private sorted: Float64Array | null = null;
  private numDuplicate = false;
  /** text mode: key per row (null: a NULL part); keys seen; values of keys seen twice */
  private order: (string | null)[] | null = null;
  private seen: Set<string> | null = null;
  private dupValues: Map<string, readonly unknown[]> | null = null;
  private stats: ColumnStats[] | null = null;
  /** keys live table rows have (marked by probes), with their values in text mode */
  private readonly existingNums = new Set<number>();
  private readonly existingText = new Map<string, readonly unknown[]>();
  private readonly bigintKey: boolean;
  private readonly bpchar: readonly boolean[];

  constructor(readonly key: UniqueKey, private readonly distinctMax = 4096) {
    const only = key.columns.length === 1 ? key.columns[0]! : null;
    this.nums = only !== null && NUMERIC_KINDS.has(only.field.type.name) ? new Float64Array(1024) : null;
    this.bigintKey = only !== null && BIGINT_KINDS.has(only.field.type.name);
    this.bpchar = key.columns.map((c) => c.sqlType.oid === Oid.bpchar);
    if (this.nums === null) this.toText();
  }

  /** the key of every row of `b` (a table row Batch, or COPY's TypedBatch: its typed buffers are read as they are) */
  add(b: Batch): void {
    const n = b.length;
    if (this.nums !== null) {
      const ci = this.key.columns[0]!.index;
      if (isTypedBatch(b) ? this.addTypedNums(b.typed[ci]!, n) : this.addNums(b.columns[ci]!, n)) return;
      this.toText();
    }
    const cols = this.key.columns;
    const typed = isTypedBatch(b) ? b.typed : null;
    const values = typed === null ? b.columns : null;
    for (let i = 0; i < n; i++) {
      const parts = new Array<unknown>(cols.length);
      let isNull = false;
      for (let k = 0; k < cols.length; k++) {
        const ci = cols[k]!.index;
        const v = typed !== null ? typedValueAt(typed[ci]!, i) : values![ci]![i] ?? null;
        if (v === null) { isNull = true; break; }
        parts[k] = v;
      }
      this.addText(isNull ? null : parts);
    }
  }

  private grow(extra: number): Float64Array {
    let a = this.nums!;
    if (this.rows + extra > a.length) {
      const bigger = new Float64Array(Math.max(a.length * 2, this.rows + extra));
      bigger.set(a.subarray(0, this.rows));
      a = this.nums = bigger;
    }
    return a;
  }

  /** after a numeric batch: rows and keyed counts, the key range (the loops keep them in locals) */
  private settle(n: number, keyed: number, min: number, max: number): void {
    this.rows += n;
    this.keyed += keyed;
    this.min = min;
    this.max = max;
  }

  /** false (nothing added) when a value does not fit a double exactly */
  private addNums(col: readonly unknown[], n: number): boolean {
    const a = this.grow(n);
    const start = this.rows;
    let min = this.min, max = this.max, keyed = 0;
    for (let i = 0; i < n; i++) {
      const v = col[i];
      if (v === null || v === undefined) { a[start + i] = NaN; continue; }
      const x = typeof v === 'bigint' ? Number(v) : (v as number);
      if (typeof v === 'bigint' ? !Number.isSafeInteger(x) : typeof v !== 'number' || !Number.isFinite(x)) return false;
      a[start + i] = x;
      keyed++;
      if (x < min) min = x;
      if (x > max) max = x;
    }
    this.settle(n, keyed, min, max);
    return true;
  }

  private addTypedNums(col: TypedColumn, n: number): boolean {
    if (col.kind === 'values') return this.addNums(col.values, n);
    if (col.kind !== 'int32' && col.kind !== 'int64') return false;
    const a = this.grow(n);
    const start = this.rows;
    const valid = col.validity;
    let min = this.min, max = this.max, keyed = 0;
    const w = col.kind === 'int64' ? new Int32Array(col.values.buffer, col.values.byteOffset, n * 2) : null;
    const v32 = col.kind === 'int32' ? col.values : null;
    for (let i = 0; i < n; i++) {
      if (valid !== null && (valid[i >> 3]! & (1 << (i & 7))) === 0) { a[start + i] = NaN; continue; }
      let x: number;
      if (v32 !== null) x = v32[i]!;
      else {
        const hi = w![2 * i + 1]!;
        // |value| < 2^53: exact as a double
        if (hi > 0x1fffff || hi < -0x200000) return false;
        x = hi * 4294967296 + (w![2 * i]! >>> 0);
      }
      a[start + i] = x;
      keyed++;
      if (x < min) min = x;
      if (x > max) max = x;
    }
    this.settle(n, keyed, min, max);
    return true;
  }

  private encode(values: readonly unknown[]): string {
    let s = encodePart(values[0], this.bpchar[0]!);
    for (let k = 1; k < values.length; k++) s += '\u0000' + encodePart(values[k], this.bpchar[k]!);
    return s;
  }

  private addText(values: readonly unknown[] | null): void {
    this.rows++;
    if (values === null) { this.order!.push(null); return; }
    this.keyed++;
    const k = this.encode(values);
    this.order!.push(k);
    if (this.seen!.has(k)) {
      if (!this.dupValues!.has(k)) this.dupValues!.set(k, values);
    } else this.seen!.add(k);
    const cols = this.key.columns;
    for (let c = 0; c < cols.length; c++) {
      const s = this.stats![c]!;
      const v = values[c];
      if (s.distinct !== null && s.distinct.size <= this.distinctMax) {
        const t = cols.length === 1 ? k : encodePart(v, this.bpchar[c]!);
        if (!s.distinct.has(t)) s.distinct.set(t, v);
      }
      if (s.unordered) continue;
      const type = cols[c]!.field.type;
      const x = normalizeValue(type, v);
      if (x === undefined) { s.unordered = true; continue; }
      if (s.min === undefined || compareValues(type, x, s.min) < 0) s.min = x;
      if (s.max === undefined || compareValues(type, x, s.max) > 0) s.max = x;
    }
  }

  /** numeric mode → text mode (a key that is not a safe integer, or a key that never was numeric) */
  private toText(): void {
    const nums = this.nums;
    const rows = this.rows;
    this.nums = null;
    this.bits = null;
    this.sorted = null;
    this.order = [];
    this.seen = new Set();
    this.dupValues = new Map();
    this.stats = this.key.columns.map(() => ({ distinct: new Map(), min: undefined, max: undefined, unordered: false }));
    this.rows = 0;
    this.keyed = 0;
    if (nums === null) return;
    for (let i = 0; i < rows; i++) {
      const x = nums[i]!;
      this.addText(Number.isNaN(x) ? null : [this.bigintKey ? BigInt(x) : x]);
    }
  }

  /** numeric mode: the bitmap or sorted index, built once after the last add */
  private index(): void {
    if (this.bits !== null || this.sorted !== null || this.keyed === 0) return;
    const a = this.nums!;
    const n = this.rows;
    const span = this.max - this.min;
    if (span < Math.min(this.keyed * DENSE_BITS_PER_KEY, 2 ** 31)) {
      const bits = new Uint32Array(Math.floor(span / 32) + 1);
      const min = this.min;
      let dup = false;
      for (let i = 0; i < n; i++) {
        const x = a[i]!;
        if (x !== x) continue; // NaN: a NULL key
        const o = x - min;
        const w = o >>> 5, m = 1 << (o & 31);
        if ((bits[w]! & m) !== 0) dup = true;
        else bits[w] = bits[w]! | m;
      }
      this.bits = bits;
      this.numDuplicate = dup;
      return;
    }
    const keys = new Float64Array(this.keyed);
    let j = 0;
    for (let i = 0; i < n; i++) if (a[i] === a[i]) keys[j++] = a[i]!;
    keys.sort();
    for (let i = 1; i < keys.length; i++) if (keys[i] === keys[i - 1]) { this.numDuplicate = true; break; }
    this.sorted = keys;
  }

  /** whether two new rows share a key */
  hasDuplicates(): boolean {
    if (this.nums === null) return this.dupValues!.size > 0;
    this.index();
    return this.numDuplicate;
  }

  /** the distinct values of key column k (JS values of its type), or null when there are more than `max` */
  distinctValues(k: number, max: number): unknown[] | null {
    if (this.nums !== null) {
      this.index();
      const out: unknown[] = [];
      const push = (x: number): boolean => {
        if (out.length >= max) return false;
        out.push(this.bigintKey ? BigInt(x) : x);
        return true;
      };
      if (this.bits !== null) {
        const bits = this.bits;
        for (let w = 0; w < bits.length; w++) {
          let word = bits[w]!;
          while (word !== 0) {
            const b = 31 - Math.clz32(word & -word);
            if (!push(this.min + w * 32 + b)) return null;
            word &= word - 1;
          }
        }
        return out;
      }
      const s = this.sorted ?? new Float64Array(0);
      for (let i = 0; i < s.length; i++) if ((i === 0 || s[i] !== s[i - 1]) && !push(s[i]!)) return null;
      return out;
    }
    const d = this.stats![k]!.distinct;
    if (d === null || d.size > max) return null;
    return [...d.values()];
  }

  /** [min, max] of key column k in the Iceberg order of its type (normalized values), or null */
  range(k: number): readonly [unknown, unknown] | null {
    if (this.keyed === 0) return null;
    if (this.nums !== null) return this.bigintKey ? [BigInt(this.min), BigInt(this.max)] : [this.min, this.max];
    const s = this.stats![k]!;
    return s.unordered || s.min === undefined ? null : [s.min, s.max];
  }

  /**
   * a live table row with these key column values: marks its key when a new row has it; returns whether it did.
   * Values are the JS values of the key columns' Iceberg types, as the Parquet reader gives them.
   */
  probe(values: readonly unknown[]): boolean {
    for (const v of values) if (v === null || v === undefined) return false;
    if (this.nums !== null) {
      const v = values[0];
      const x = typeof v === 'bigint' ? Number(v) : (v as number);
      if (typeof v === 'bigint' ? !Number.isSafeInteger(x) : typeof x !== 'number') return false;
      if (!(x >= this.min && x <= this.max)) return false;
      this.index();
      if (this.bits !== null) {
        const o = x - this.min;
        if (o !== Math.floor(o) || (this.bits[o >>> 5]! & (1 << (o & 31))) === 0) return false;
      } else {
        const s = this.sorted!;
        let a = 0, b = s.length;
        while (a < b) {
          const m = (a + b) >>> 1;
          if (s[m]! < x) a = m + 1;
          else b = m;
        }
        if (a >= s.length || s[a] !== x) return false;
      }
      this.existingNums.add(x);
      return true;
    }
    const k = this.encode(values);
    if (!this.seen!.has(k)) return false;
    if (!this.existingText.has(k)) this.existingText.set(k, values.slice());
    return true;
  }

  /** forgets what probes marked (a commit retry validates against another snapshot) */
  clearExisting(): void {
    this.existingNums.clear();
    this.existingText.clear();
  }

  /** the first row (0-based) whose key an earlier new row or a marked live row has; -1 when none */
  firstViolation(): number {
    if (!this.hasDuplicates() && this.existingNums.size === 0 && this.existingText.size === 0) return -1;
    if (this.nums !== null) {
      const seen = new Set<number>(this.existingNums);
      for (let i = 0; i < this.rows; i++) {
        const x = this.nums[i]!;
        if (Number.isNaN(x)) continue;
        if (seen.has(x)) return i;
        seen.add(x);
      }
      return -1;
    }
    const seen = new Set<string>(this.existingText.keys());
    const order = this.order!;
    for (let i = 0; i < order.length; i++) {
      const k = order[i]!;
      if (k === null) continue;
      if (seen.has(k)) return i;
      seen.add(k);
    }
    return -1;
  }

  /** the key column values of row `i`, a row firstViolation() returned */
  valuesAt(i: number): readonly unknown[] {
    if (this.nums !== null) {
      const x = this.nums[i]!;
      return [this.bigintKey ? BigInt(x) : x];
    }
    const k = this.order![i]!;
    return this.existingText.get(k) ?? this.dupValues!.get(k)!;
  }
}
