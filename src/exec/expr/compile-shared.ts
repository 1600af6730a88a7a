/**
 * Compiles several expression lists together so that a pure subexpression appearing more than once is
 * evaluated once per row: TPC-H Q1's `l_extendedprice * (1 - l_discount)` is both an aggregate argument and
 * part of another. Only column references of the current row, constants, operators, casts and
 * non-volatile function calls are shared (a subquery, an outer reference, CASE... never); a shared node
 * remembers the value of the last (columns, row) it saw, and `prepare` forgets it before each batch.
 */
import type { Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { Expr } from '../../sql/index.ts';
import type { Env } from '../context.ts';
import { compileNode, type Cols, type RowFn } from './compile-expr.ts';
import type { SubqueryRunner } from './subquery-runner.ts';

interface Memo { cols: Cols | null; i: number; v: unknown }

export class SharedSubexpressions {
  readonly #keys = new StructuralKeys();
  readonly #counts = new Map<string, number>();
  readonly #fns = new Map<string, RowFn>();
  readonly #memos: Memo[] = [];

  /** counts the subexpressions of `e` (call for every expression before compiling any) */
  count(e: Expr): void {
    const k = this.#keys.of(e);
    if (k === null) return;
    const n = (this.#counts.get(k) ?? 0) + 1;
    this.#counts.set(k, n);
    if (n > 1) return; // its children were counted the first time
    for (const child of children(e)) this.count(child);
  }

  get(e: Expr): RowFn | undefined {
    const k = this.#keys.of(e);
    return k === null ? undefined : this.#fns.get(k);
  }

  put(e: Expr, fn: RowFn): RowFn {
    const k = this.#keys.of(e);
    if (k === null || (this.#counts.get(k) ?? 0) < 2 || e.kind === 'ColumnRef' || e.kind === 'Literal') return fn;
    const memo: Memo = { cols: null, i: -1, v: null };
    this.#memos.push(memo);
    const shared: RowFn = (cols, i) => {
      if (cols === memo.cols && i === memo.i) return memo.v;
      const v = fn(cols, i);
      memo.cols = cols;
      memo.i = i;
      memo.v = v;
      return v;
    };
    this.#fns.set(k, shared);
    return shared;
  }

  /** forgets the remembered rows (before each batch: a batch may reuse an array) */
  reset(): void {
    for (const m of this.#memos) { m.cols = null; m.v = null; }
  }
}

/**
 * Structural keys of pure subexpressions (ColumnRef of the current row, Literal, Op, Cast, non-volatile Call):
 * equal keys mean the same computation on the same row; null for anything else. Shared by the row-path
 * sharing above and the vector kernels' per-batch memo.
 */
export class StructuralKeys {
  readonly #ids = new Map<object, number>();
  readonly #keys = new Map<Expr, string | null>();

  of(e: Expr): string | null {
    let k = this.#keys.get(e);
    if (k === undefined) { k = this.#compute(e); this.#keys.set(e, k); }
    return k;
  }

  #id(o: object): number {
    let id = this.#ids.get(o);
    if (id === undefined) { id = this.#ids.size + 1; this.#ids.set(o, id); }
    return id;
  }

  /** a structural key: equal keys mean the same computation on the same row */
  #compute(e: Expr): string | null {
    const t = `${e.type.oid}.${e.type.typmod}`;
    switch (e.kind) {
      case 'ColumnRef': return e.levelsUp === 0 ? `c${e.index}:${t}` : null;
      case 'Literal': {
        const v = e.value;
        if (v === null) return `n${t}`;
        if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'string') return `l${t}:${typeof v}:${JSON.stringify(String(v))}`;
        if (Numeric.isNumeric(v)) return `l${t}:N:${v.toString()}`;
        return typeof v === 'object' ? `L${t}:${this.#id(v)}` : null;
      }
      case 'Op': {
        const l = e.left === null ? '' : this.of(e.left);
        const r = this.of(e.right);
        if (l === null || r === null) return null;
        return `o${this.#id(e.def)}:${t}:${e.leftType?.oid}.${e.leftType?.typmod}:${e.rightType.oid}.${e.rightType.typmod}(${l},${r})`;
      }
      case 'Call': {
        const vol = e.def.volatility;
        if (vol !== 'i' && vol !== 's') return null;
        const args = e.args.map((a) => this.of(a));
        if (args.some((a) => a === null)) return null;
        return `f${this.#id(e.def)}:${t}:${e.argTypes.map((a) => `${a.oid}.${a.typmod}`).join(',')}(${args.join(',')})`;
      }
      case 'Cast': {
        const a = this.of(e.arg);
        if (a === null) return null;
        return `k${e.fn === null ? 0 : this.#id(e.fn)}:${t}(${a})`;
      }
      default: return null;
    }
  }
}

function children(e: Expr): readonly Expr[] {
  switch (e.kind) {
    case 'Op': return e.left === null ? [e.right] : [e.left, e.right];
    case 'Call': return e.args;
    case 'Cast': return [e.arg];
    default: return [];
  }
}

/** compileAll for several lists at once, sharing repeated pure subexpressions (one prepare per list, as compileAll) */
export function compileShared(lists: readonly (readonly Expr[])[], env: Env): { fns: RowFn[]; prepare: (batch: Batch) => Promise<void> }[] {
  const share = new SharedSubexpressions();
  for (const list of lists) for (const e of list) share.count(e);
  return lists.map((list) => {
    const runners: SubqueryRunner[] = [];
    const fns = list.map((e) => compileNode(e, env, runners, { value: null }, share));
    return {
      fns,
      prepare: async (batch: Batch) => {
        share.reset();
        for (const r of runners) await r.prepare(batch);
      },
    };
  });
}
