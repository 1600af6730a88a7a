/**
 * DistinctRows: DISTINCT inside an aggregate call for the typed hash aggregate (vector-aggregate.ts). The rows
 * of a batch whose (group, arguments) pair was not seen before — in this batch or an earlier one — are the
 * ones the aggregate steps; pairs are numbered by a GroupTable keyed on the group id and the argument values
 * (valueKey equality, as the row path's rowKey), so a pair costs no key string. Rows with a NULL argument are
 * dropped first: the aggregates that take this path are strict.
 *
 * Only aggregates whose answer depends neither on the order of the distinct values nor on which of several
 * equal values is kept take this path (`distinctTypable`): count, and sum / avg / min / max over integers,
 * dates and timestamps. Others (a float sum's rounding, numeric 1.0 vs 1.00, string_agg's order) stay on the
 * row path, which sorts the distinct values as PostgreSQL does.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import type { AggregateDef } from '../../functions/registry-types.ts';
import { GroupTable } from '../group-table.ts';
import { valuesOf } from './vector-values.ts';
import { selCount, type Sel, type Vec } from './vector-types.ts';

const EXACT_TYPES = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.date, Oid.timestamp, Oid.timestamptz]);

/** whether `def`(DISTINCT args) may dedupe by DistinctRows: its answer is the same for any order of the distinct values */
export function distinctTypable(def: AggregateDef, argOids: readonly number[]): boolean {
  if (def.strict === false) return false;
  if (def.name === 'count') return true;
  if (argOids.length !== 1 || !EXACT_TYPES.has(argOids[0]!)) return false;
  if (def.name === 'min' || def.name === 'max') return true;
  const a = argOids[0]!;
  return (def.name === 'sum' || def.name === 'avg') && (a === Oid.int2 || a === Oid.int4 || a === Oid.int8);
}

export class DistinctRows {
  readonly #pairs: GroupTable;
  readonly #width: number;
  #ids = new Int32Array(0);
  #rows = new Int32Array(0);

  constructor(argOids: readonly number[]) {
    this.#pairs = new GroupTable([Oid.int4, ...argOids]);
    this.#width = argOids.length;
  }

  /** pairs seen so far */
  get size(): number { return this.#pairs.size; }

  /** the rows of `sel` (ascending) whose arguments are not NULL and whose (gids[row], arguments) pair is new */
  firstRows(sel: Sel, args: readonly Vec[], n: number, gids: Int32Array): Int32Array {
    const m = selCount(sel, n);
    const vals = args.map((v) => valuesOf(v, sel, n));
    if (this.#rows.length < m) { this.#rows = new Int32Array(Math.max(m, 1024)); this.#ids = new Int32Array(this.#rows.length); }
    const rows = this.#rows;
    const cols: unknown[][] = [new Array<unknown>(m)];
    for (let c = 0; c < this.#width; c++) cols.push(new Array<unknown>(m));
    let r = 0;
    outer: for (let j = 0; j < m; j++) {
      const i = sel === null ? j : sel[j]!;
      for (let c = 0; c < this.#width; c++) {
        const x = vals[c]![i];
        if (x === null || x === undefined) continue outer;
        cols[c + 1]![r] = x;
      }
      cols[0]![r] = gids[i]!;
      rows[r++] = i;
    }
    for (const col of cols) col.length = r;
    const ids = this.#ids;
    let next = this.#pairs.size;
    this.#pairs.assign(cols, r, ids);
    // ids are handed out in row order: a row carrying the next unused id is its pair's first row
    const out = new Int32Array(r);
    let k = 0;
    for (let q = 0; q < r; q++) if (ids[q] === next) { out[k++] = rows[q]!; next++; }
    return out.subarray(0, k);
  }
}
