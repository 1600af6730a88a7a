/**
 * SubqueryRunner: evaluates one subquery expression. Uncorrelated subqueries run once per execution and are
 * cached; correlated ones run once per outer row (with that row pushed as the outer level), before the
 * batch is evaluated, so the expression closures themselves stay synchronous.
 */
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import { elementTypeOf } from '../../common/pgtypes/registry.ts';
import { valueKey } from '../../functions/index.ts';
import { mapPlanExprs, type LogicalPlan, type SubqueryExpr } from '../../sql/index.ts';
import { rowKey } from '../batch-util.ts';
import { withOuter, type Env } from '../context.ts';
import type { Cols, RowFn, Slot } from './compile-expr.ts';

export class SubqueryRunner {
  #rows: unknown[] | null = null;
  #perRow: unknown[] = [];

  constructor(
    private readonly expr: SubqueryExpr,
    private readonly env: Env,
    private readonly test: RowFn | null,
    private readonly slot: Slot,
    private readonly hashable: { readonly left: RowFn; readonly oid: number } | null = null,
  ) {}

  #set: Set<unknown> | null = null;
  #refs: number[] | undefined;
  #setHasNull = false;

  #probe(cols: Cols, i: number, rows: unknown[]): unknown {
    const h = this.hashable!;
    if (this.#set === null) {
      this.#set = new Set(rows.filter((v) => v !== null).map((v) => valueKey(h.oid, v)));
      this.#setHasNull = rows.some((v) => v === null);
    }
    if (rows.length === 0) return false;
    const lv = h.left(cols, i);
    if (lv === null) return null;
    if (this.#set.has(valueKey(h.oid, lv))) return true;
    return this.#setHasNull ? null : false;
  }

  async prepare(batch: Batch): Promise<void> {
    if (!this.expr.correlated) {
      if (this.#rows === null) this.#rows = await this.#fetch(this.env);
      return;
    }
    this.#perRow = new Array<unknown>(batch.length);
    // memoized on the outer columns the subquery reads (rows with equal values share one run)
    this.#refs ??= outerColumnsOf(this.expr.plan);
    const memo = new Map<string, unknown[]>();
    for (let i = 0; i < batch.length; i++) {
      const row = batch.columns.map((c) => c[i] ?? null);
      const key = rowKey(this.#refs.map((c) => row[c] ?? null), this.#refs.map(() => 0));
      let rows = memo.get(key);
      if (rows === undefined) {
        rows = await this.#fetch(withOuter(this.env, row));
        memo.set(key, rows);
      }
      this.#perRow[i] = this.#reduce(rows, batch.columns, i);
    }
  }

  valueAt(cols: Cols, i: number): unknown {
    if (this.expr.correlated) return this.#perRow[i] ?? null;
    if (this.hashable !== null) return this.#probe(cols, i, this.#rows ?? []);
    return this.#reduce(this.#rows ?? [], cols, i);
  }

  /** first-column values of the subquery (or up to one row for EXISTS, two for a scalar subquery) */
  async #fetch(env: Env): Promise<unknown[]> {
    const k = this.expr.subKind;
    const max = k === 'exists' ? 1 : k === 'scalar' ? 2 : Infinity;
    const out: unknown[] = [];
    if ((k === 'any' || k === 'all') && this.expr.plan.columns.length > 1) {
      // a row-valued test `(a, b) IN (SELECT x, y …)`: whole rows, read through the slot's row
      for await (const b of env.run(this.expr.plan, env)) {
        for (let r = 0; r < b.length; r++) out.push(b.columns.map((c) => c[r] ?? null));
      }
      return out;
    }
    for await (const b of env.run(this.expr.plan, env)) {
      const col = b.columns[0];
      for (let r = 0; r < b.length && out.length < max; r++) out.push(col === undefined ? true : col[r] ?? null);
      if (out.length >= max) break;
    }
    return out;
  }

  #reduce(rows: unknown[], cols: Cols, i: number): unknown {
    switch (this.expr.subKind) {
      case 'exists': return rows.length > 0;
      case 'scalar':
        if (rows.length > 1) throw pgError(SqlState.cardinality_violation, 'more than one row returned by a subquery used as an expression');
        return rows[0] ?? null;
      case 'array': return pgArray(elementTypeOf(this.expr.type.oid), rows);
      case 'any': case 'all': {
        const useOr = this.expr.subKind === 'any';
        let sawNull = false;
        const rowValued = this.expr.plan.columns.length > 1;
        for (const v of rows) {
          if (rowValued) {
            this.slot.row = v as unknown[];
            this.slot.value = (v as unknown[])[0] ?? null;
          } else this.slot.value = v;
          const r = this.test!(cols, i);
          if (r === null) sawNull = true;
          else if (r === useOr) return useOr;
        }
        return sawNull ? null : !useOr;
      }
    }
  }
}

/** indexes of the outer row's columns that `plan` references (ColumnRefs one level up, at any depth) */
function outerColumnsOf(plan: LogicalPlan): number[] {
  const cols = new Set<number>();
  mapPlanExprs(plan, (e, depth) => {
    if (e.kind === 'ColumnRef' && e.levelsUp === depth + 1) cols.add(e.index);
    return undefined;
  });
  return [...cols].sort((a, b) => a - b);
}
