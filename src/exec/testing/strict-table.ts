/**
 * Test helper: a table that takes every pushdown of the ScanContext literally — it returns NULL in the columns
 * outside `projection`, drops the rows that fail `filters` (as if they were exact) and stops after `limit`
 * rows — and remembers the contexts it was scanned with. Running a query over it with the optimizer on and
 * off shows whether a pushdown could change an answer.
 */
import { batchFromRows, type Batch } from '../../common/batch.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { testCompare } from '../../functions/operators-compare.ts';
import type { ColumnDef, ScanContext, ScanPredicate, TableSource } from '../../catalog/table-source.ts';

export class StrictTable implements TableSource {
  readonly scans: ScanContext[] = [];
  constructor(readonly columns: readonly ColumnDef[], readonly rows: readonly (readonly unknown[])[]) {}

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    this.scans.push(ctx);
    const keep = ctx.projection === undefined ? null : new Set(ctx.projection);
    let out = this.rows.filter((r) => (ctx.filters ?? []).every((f) => matches(f, r, this.columns)));
    if (ctx.limit !== undefined) out = out.slice(0, ctx.limit);
    if (ctx.metrics) { ctx.metrics.filesTotal += 1; ctx.metrics.filesScanned += 1; ctx.metrics.rowsDecoded += out.length; }
    const shaped = out.map((r) => r.map((v, i) => (keep === null || keep.has(i) ? v : null)));
    for (let s = 0; s < shaped.length; s += 2) yield batchFromRows(shaped.slice(s, s + 2), this.columns.length);
  }
}

/** PostgreSQL's order for the scalar JS values pushdown uses (NaN above every float); null = unknown */
function cmp(a: unknown, b: unknown): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (Numeric.isNumeric(a) && Numeric.isNumeric(b)) return a.compare(b);
  if (typeof a === 'number' && typeof b === 'number' && (Number.isNaN(a) || Number.isNaN(b))) {
    return Number.isNaN(a) && Number.isNaN(b) ? 0 : Number.isNaN(a) ? 1 : -1;
  }
  if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  throw new Error(`StrictTable cannot compare ${typeof a} with ${typeof b}`);
}

/** a date (days) against a timestamp (µs) compares at midnight, as PostgreSQL's date_cmp_timestamp (finite dates) */
function asMicros(v: unknown, column: ColumnDef | undefined): unknown {
  return column?.type.oid === Oid.date && typeof v === 'number' && Number.isFinite(v) ? BigInt(v) * 86_400_000_000n : v;
}

/**
 * three-valued like SQL, but "unknown" drops the row, as a WHERE would (also the pruning tests' oracle);
 * `columns`: the table's, for a column pair of a date and a timestamp
 */
export function matches(p: ScanPredicate, row: readonly unknown[], columns?: readonly ColumnDef[]): boolean {
  switch (p.kind) {
    case 'compareColumns': {
      const a = row[p.column] ?? null, b = row[p.other] ?? null;
      const mixed = columns !== undefined && columns[p.column]?.type.oid !== columns[p.other]?.type.oid;
      const c = mixed ? cmp(asMicros(a, columns[p.column]), asMicros(b, columns[p.other])) : cmp(a, b);
      return c !== null && testCompare(p.op, c);
    }
    case 'compare': {
      const c = cmp(row[p.column] ?? null, p.value);
      return c !== null && testCompare(p.op, c);
    }
    case 'isNull': return (row[p.column] ?? null) === null;
    case 'isNotNull': return (row[p.column] ?? null) !== null;
    case 'in': return p.values.some((v) => cmp(row[p.column] ?? null, v) === 0);
    case 'startsWith': { const v = row[p.column]; return typeof v === 'string' && v.startsWith(p.prefix); }
    case 'and': return p.args.every((a) => matches(a, row, columns));
    case 'or': return p.args.some((a) => matches(a, row, columns));
  }
}
