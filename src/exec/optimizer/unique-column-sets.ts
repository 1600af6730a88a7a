/**
 * Column sets on which a plan's output rows are unique: no two rows hold equal values in every column of the set
 * (equal as GROUP BY compares them, NULLs equal to each other). Derived from
 *
 * - an Aggregate's group keys (without grouping sets): its output columns 0..k−1; no keys: at most one row;
 * - plain DISTINCT: all its columns;
 * - a scan's PRIMARY KEY when its columns are integers or dates and its rows were verified unique on it
 *   (reliablePrimaryKey; for those types the key check's equality is GROUP BY's);
 * - Filter, Sort and Limit keep their input's sets; a Projection keeps those whose columns it passes on as plain
 *   column references;
 * - a join keeps one side's sets when each row of that side meets at most one row of the other: the other side is
 *   unique on columns all equated to this side's by `=` conjuncts of the condition over one integer or date type
 *   (then one value of this side matches at most one row there). Inner joins keep the sets of either side so
 *   proved, LEFT joins only the preserved side's, semi / anti joins always the left side's (each row at most once).
 *
 * Only a few sets per node are kept (MAX_SETS): enough for key joins, bounded on wide plans.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { conjunctsOf, type Expr, type Join, type LogicalPlan, type TableScan } from '../../sql/index.ts';
import type { ExecContext } from '../context.ts';

export type ColumnSet = readonly number[];

/** types whose `=` is GROUP BY's equality and an enforced key's (no scale, collation, -0 or NaN) */
const EXACT_KEY_TYPES: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8, Oid.date]);
const MAX_SETS = 8;

/** the column sets on which `p`'s rows are unique (empty when none is known) */
export function uniqueColumnSets(p: LogicalPlan, ctx: ExecContext): readonly ColumnSet[] {
  switch (p.kind) {
    case 'TableScan':
      return primaryKeySets(p, ctx);
    case 'Filter':
    case 'Sort':
    case 'Limit':
      return uniqueColumnSets(p.input, ctx);
    case 'Distinct':
      return p.on === null ? [p.columns.map((_, i) => i)] : [];
    case 'Aggregate':
      return p.groupingSets === null ? [p.groupKeys.map((_, i) => i)] : [];
    case 'Projection':
      return projected(uniqueColumnSets(p.input, ctx), p.exprs);
    case 'Join':
      return joinSets(p, ctx);
    default:
      return [];
  }
}

/** true when `p` is unique on some set all of whose columns are in `columns` */
export function uniqueWithin(p: LogicalPlan, columns: ReadonlySet<number>, ctx: ExecContext): boolean {
  return uniqueColumnSets(p, ctx).some((s) => s.every((c) => columns.has(c)));
}

/**
 * the primary key of the table `scan` reads when plans may rely on it: the scan reads the relation's current
 * source (no time travel) and its rows were verified unique on the key (iceberg/keys/verified-keys.ts)
 */
export function reliablePrimaryKey(scan: TableScan, ctx: ExecContext): readonly number[] | undefined {
  if (scan.asOf !== undefined) return undefined;
  const rel = ctx.catalog.relationByOid(scan.tableOid);
  if (rel === undefined || rel.source !== scan.source || rel.primaryKeyUnverified === true) return undefined;
  const pk = rel.primaryKey;
  return pk === undefined || pk.length === 0 ? undefined : pk;
}

function primaryKeySets(scan: TableScan, ctx: ExecContext): readonly ColumnSet[] {
  const pk = reliablePrimaryKey(scan, ctx);
  if (pk === undefined) return [];
  const exact = pk.every((c) => {
    const col = scan.columns[c];
    return col !== undefined && EXACT_KEY_TYPES.has(col.type.oid);
  });
  return exact ? [pk] : [];
}

/** the sets whose every column the projection passes on as a plain column reference, in output positions */
function projected(sets: readonly ColumnSet[], exprs: readonly Expr[]): readonly ColumnSet[] {
  if (sets.length === 0) return [];
  const at = new Map<number, number>();
  exprs.forEach((e, i) => {
    if (e.kind === 'ColumnRef' && e.levelsUp === 0 && !at.has(e.index)) at.set(e.index, i);
  });
  const out: ColumnSet[] = [];
  for (const s of sets) {
    const mapped = s.map((c) => at.get(c));
    if (mapped.every((c) => c !== undefined)) out.push(mapped as number[]);
  }
  return out;
}

/** pairs (left column, right column) of the condition's `l = r` conjuncts over one exact key type */
function equatedPairs(j: Join): readonly (readonly [number, number])[] {
  if (j.condition === null) return [];
  const lw = j.left.columns.length;
  const pairs: [number, number][] = [];
  for (const c of conjunctsOf(j.condition)) {
    if (c.kind !== 'Op' || c.name !== '=' || c.left?.kind !== 'ColumnRef' || c.right.kind !== 'ColumnRef') continue;
    const a = c.left;
    const b = c.right;
    if (a.levelsUp !== 0 || b.levelsUp !== 0 || a.type.oid !== b.type.oid || !EXACT_KEY_TYPES.has(a.type.oid)) continue;
    if (c.leftType?.oid !== a.type.oid || c.rightType.oid !== b.type.oid) continue;
    if (a.index < lw && b.index >= lw) pairs.push([a.index, b.index - lw]);
    else if (b.index < lw && a.index >= lw) pairs.push([b.index, a.index - lw]);
  }
  return pairs;
}

/** whether some unique set of `side` has every column equated to a column of the other side */
function matchesAtMostOnce(sideSets: readonly ColumnSet[], equated: ReadonlySet<number>): boolean {
  return sideSets.some((s) => s.every((c) => equated.has(c)));
}

function joinSets(j: Join, ctx: ExecContext): readonly ColumnSet[] {
  if (j.lateral) return [];
  const leftSets = uniqueColumnSets(j.left, ctx);
  if (j.joinType === 'semi' || j.joinType === 'anti') return leftSets;
  if (j.joinType !== 'inner' && j.joinType !== 'left') return [];
  const pairs = equatedPairs(j);
  const rightSets = uniqueColumnSets(j.right, ctx);
  const lw = j.left.columns.length;
  const out: ColumnSet[] = [];
  // each left row meets at most one right row: the left side's sets stay unique
  if (leftSets.length > 0 && matchesAtMostOnce(rightSets, new Set(pairs.map(([, r]) => r)))) out.push(...leftSets);
  // each right row meets at most one left row (inner joins only: a LEFT join's NULL-extended right columns repeat)
  if (j.joinType === 'inner' && rightSets.length > 0 && matchesAtMostOnce(leftSets, new Set(pairs.map(([l]) => l)))) {
    out.push(...rightSets.map((s) => s.map((c) => c + lw)));
  }
  return out.slice(0, MAX_SETS);
}
