/**
 * COUNT(*) / COUNT(col) / MIN / MAX of one snapshot answered from its manifests (TableSource.aggregateFromMetadata),
 * or null when the metadata cannot give the exact answer. Exact means, for every data file the filter keeps:
 *   - no delete file (position, equality, deletion vector) applies to it;
 *   - the filter holds for *all* its rows (identity partition values, or column bounds with no nulls); files
 *     the filter prunes hold no matching row (planScan's pruning is sound), so the filter splits files exactly;
 *   - COUNT(col) needs null_value_counts; MIN / MAX need both bounds of every file holding a non-null value,
 *     of a type whose bounds are its values (Iceberg Java / Spark aggregate pushdown take int, long, float,
 *     double, decimal, date, time, timestamp bounds as the min / max): never strings or binary (writers
 *     truncate them); floats only with nan_value_counts = 0 (NaN sorts above every float in PostgreSQL) and a
 *     non-zero bound (Parquet writes -0.0 as the lower bound of +0.0 values).
 * Bounds are decoded with the field's type in the read schema (promoted int → long, float → double widen).
 */
import { emptyScanMetrics, type MetadataAggregate, type MetadataAggregateAnswer, type ScanPredicate } from '../../catalog/table-source.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { IcebergIO } from '../io.ts';
import type { DataFile } from '../spec/manifest.ts';
import type { PartitionSpec } from '../spec/partition-spec.ts';
import type { NestedField, PrimitiveType } from '../spec/schema.ts';
import type { TableMetadata } from '../spec/table-metadata.ts';
import { decodeSingleValue, fromAvroValue } from '../spec/types.ts';
import { and, bindPredicates, compareOpTest, compareValues, or, predicateKey, type BindColumn, type BoundPredicate } from './bound-predicate.ts';
import { addPlanCounters, planScan, type FileScanTask } from './table-scan.ts';

/** a column of the source: its Iceberg field and its SQL type oid */
export interface AggregateColumn extends BindColumn {
  readonly oid: number;
}

/** Iceberg types whose bounds are the exact min / max, with the bound's byte length(s) */
const EXACT_BOUNDS: ReadonlyMap<string, readonly number[]> = new Map([
  ['int', [4]], ['long', [4, 8]], ['float', [4]], ['double', [4, 8]], ['date', [4]], ['time', [8]],
  ['timestamp', [8]], ['timestamptz', [8]], ['decimal', []],
]);

/** SQL types whose JS values are the decoded bounds (declared int2 / int4 share Iceberg int) */
const MIN_MAX_OIDS: ReadonlySet<number> = new Set([Oid.int2, Oid.int4, Oid.int8, Oid.float4, Oid.float8, Oid.numeric, Oid.date, Oid.time, Oid.timestamp, Oid.timestamptz]);

/** the keys of a FileScanTask this file knows: another key (say, a deletion vector) makes it fall back */
const KNOWN_TASK_KEYS: ReadonlySet<string> = new Set(['file', 'spec', 'dataSequenceNumber', 'positionDeletes', 'equalityDeletes', 'rowGroups', 'nameMapping']);

const isFloat = (t: PrimitiveType): boolean => t.name === 'float' || t.name === 'double';

/** the filter bound leaf by leaf: null when some leaf does not bind (bindPredicates would drop it as TRUE) */
export function bindExact(filters: readonly ScanPredicate[] | undefined, columns: readonly BindColumn[]): BoundPredicate | null {
  const bindTree = (p: ScanPredicate): BoundPredicate | null => {
    if (p.kind === 'and' || p.kind === 'or') {
      const args = p.args.map(bindTree);
      if (args.some((a) => a === null)) return null;
      return (p.kind === 'and' ? and : or)(args as BoundPredicate[]);
    }
    const b = bindPredicates([p], columns);
    return b.kind === 'true' ? null : b;
  };
  const args = (filters ?? []).map(bindTree);
  return args.some((a) => a === null) ? null : and(args as BoundPredicate[]);
}

/** a bound of a file, decoded with `t`; undefined when absent or not of t's width */
function bound(file: DataFile, which: 'lower' | 'upper', id: number, t: PrimitiveType): unknown {
  const bytes = (which === 'lower' ? file.lowerBounds : file.upperBounds).get(id);
  const widths = EXACT_BOUNDS.get(t.name);
  if (bytes === undefined || widths === undefined || (widths.length > 0 && !widths.includes(bytes.length))) return undefined;
  try {
    const v = decodeSingleValue(t, bytes);
    return v === null || (typeof v === 'number' && Number.isNaN(v)) ? undefined : v;
  } catch {
    return undefined;
  }
}

/** rows of a file with a null in field `id`, or undefined when unknown */
function nullsOf(file: DataFile, id: number): bigint | undefined {
  const n = file.nullValueCounts.get(id);
  const values = file.valueCounts.get(id);
  // a top-level column has one value per row; anything else is not a count we can use
  if (n === undefined || n < 0n || n > file.recordCount || (values !== undefined && values !== file.recordCount)) return undefined;
  return n;
}

/** the identity-partition value of field `id` in this file: { v } (v may be null), or undefined when not identity-partitioned */
function identityValue(file: DataFile, spec: PartitionSpec, id: number, t: PrimitiveType): { v: unknown } | undefined {
  const pf = spec.fields.find((f) => f.transform === 'identity' && f.sourceId === id && (f.sourceIds === undefined || f.sourceIds.length <= 1));
  if (pf === undefined || !file.partition.has(pf.fieldId) || isFloat(t)) return undefined;
  try {
    return { v: fromAvroValue(t, file.partition.get(pf.fieldId)) };
  } catch {
    return undefined;
  }
}

type Leaf = Exclude<BoundPredicate, { kind: 'true' | 'false' | 'and' | 'or' }>;

/** does the leaf hold for the single non-NaN value v (null = SQL NULL)? */
function holdsFor(b: Leaf, v: unknown): boolean {
  if (b.kind === 'isNull' || b.kind === 'isNotNull') return (v === null) === (b.kind === 'isNull');
  if (v === null) return false;
  if (b.kind === 'in') return b.values.some((x) => compareValues(b.type, v, x) === 0);
  if (b.kind === 'startsWith') return typeof v === 'string' && v.startsWith(b.prefix);
  if (b.kind !== 'compare') return false;
  return compareOpTest(b.op)(compareValues(b.type, v, b.value));
}

/** true only when every row of the file satisfies `b` (Iceberg Java's StrictMetricsEvaluator, narrowed) */
export function mustMatch(b: BoundPredicate, file: DataFile, spec: PartitionSpec): boolean {
  switch (b.kind) {
    case 'true': return true;
    case 'false': return false;
    case 'and': return b.args.every((a) => mustMatch(a, file, spec));
    case 'or': return b.args.some((a) => mustMatch(a, file, spec));
    case 'compareFields': return false; // a column pair: bounds of each column cannot prove it
    default: break;
  }
  const part = identityValue(file, spec, b.fieldId, b.type);
  // string / binary ranges: SQL order may be a collation's, not Iceberg's byte order
  const ranged = b.kind === 'startsWith' || (b.kind === 'compare' && b.op !== '=' && b.op !== '<>');
  if (part !== undefined) return (!ranged || EXACT_BOUNDS.has(b.type.name) || b.type.name === 'boolean') && holdsFor(b, part.v);
  const nulls = nullsOf(file, b.fieldId);
  if (nulls === undefined) return false;
  if (b.kind === 'isNull' || b.kind === 'isNotNull') return nulls === (b.kind === 'isNull' ? file.recordCount : 0n);
  // every row must hold a non-null, non-NaN value within the bounds
  if (nulls !== 0n || b.kind === 'startsWith' || !EXACT_BOUNDS.has(b.type.name)) return false;
  if (isFloat(b.type) && file.nanValueCounts.get(b.fieldId) !== 0n) return false;
  const lo = bound(file, 'lower', b.fieldId, b.type);
  const hi = bound(file, 'upper', b.fieldId, b.type);
  if (lo === undefined || hi === undefined) return false;
  const t = b.type;
  if (b.kind === 'in') return compareValues(t, lo, hi) === 0 && holdsFor(b, lo);
  if (b.kind !== 'compare') return false;
  switch (b.op) {
    case '=': return compareValues(t, lo, b.value) === 0 && compareValues(t, hi, b.value) === 0;
    case '<>': return compareValues(t, hi, b.value) < 0 || compareValues(t, lo, b.value) > 0;
    case '<': case '<=': return holdsFor(b, hi);
    case '>': case '>=': return holdsFor(b, lo);
  }
}

/** a task no delete of any kind applies to */
function undeleted(task: FileScanTask): boolean {
  return task.positionDeletes.length === 0 && task.equalityDeletes.length === 0 && Object.keys(task).every((k) => KNOWN_TASK_KEYS.has(k));
}

/** min / max over files of their bounds: the running value, or a reason to give up */
function better(kind: 'min' | 'max', t: PrimitiveType, cur: unknown, v: unknown): unknown {
  if (cur === null) return v;
  const c = compareValues(t, v, cur);
  return (kind === 'min' ? c < 0 : c > 0) ? v : cur;
}

/** answers by metadata object (immutable: one table version) and request, so a repeated COUNT(*) reads nothing */
const ANSWERS = new WeakMap<TableMetadata, Map<string, Promise<MetadataAggregateAnswer | null>>>();
const ANSWERS_PER_TABLE = 32;

/** aggregateFromManifests, remembered per table version and request */
export function cachedAggregateFromManifests(
  io: IcebergIO,
  md: TableMetadata,
  snapshotId: bigint | null,
  columns: readonly AggregateColumn[],
  aggregates: readonly MetadataAggregate[],
  filters: readonly ScanPredicate[] | undefined,
  groupBy: readonly number[] = [],
): Promise<MetadataAggregateAnswer | null> {
  const filter = bindExact(filters, columns);
  if (filter === null) return Promise.resolve(null);
  const colKey = (i: number): string => `${columns[i]?.field.id}:${columns[i]?.oid}`;
  const cols = aggregates.map((a) => (a.kind === 'countStar' ? '*' : `${a.kind}:${colKey(a.column)}`));
  const key = `${snapshotId}|${cols.join(',')}|${groupBy.map(colKey).join(',')}|${predicateKey(filter)}`;
  let byKey = ANSWERS.get(md);
  if (byKey === undefined) ANSWERS.set(md, (byKey = new Map()));
  let answer = byKey.get(key);
  if (answer === undefined) {
    answer = aggregateFromManifests(io, md, snapshotId, columns, aggregates, filters, groupBy);
    answer.catch(() => byKey.delete(key));
    if (byKey.size >= ANSWERS_PER_TABLE) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, answer);
  }
  return answer;
}

/** what an aggregate reads: null for COUNT(*), else its field and primitive type */
export type AggregateTarget = { readonly field: NestedField; readonly type: PrimitiveType } | null;

/** the targets of the aggregates, or null when one of them cannot come from metadata at all */
export function aggregateTargets(columns: readonly AggregateColumn[], aggregates: readonly MetadataAggregate[]): AggregateTarget[] | null {
  const targets: AggregateTarget[] = [];
  for (const a of aggregates) {
    if (a.kind === 'countStar') { targets.push(null); continue; }
    const col = columns[a.column];
    if (col === undefined || col.field.type.kind !== 'primitive') return null;
    const type = col.field.type;
    if (a.kind !== 'count' && (!MIN_MAX_OIDS.has(col.oid) || !EXACT_BOUNDS.has(type.name))) return null;
    targets.push({ field: col.field, type });
  }
  return targets;
}

/** the initial values: counts 0, MIN / MAX NULL (also the answer over no rows) */
export function initialValues(aggregates: readonly MetadataAggregate[]): unknown[] {
  return aggregates.map((a) => (a.kind === 'countStar' || a.kind === 'count' ? 0n : null));
}

/**
 * Folds one file the filter kept into `values`; false when its metadata cannot give the exact answer (then
 * `values` is partly updated and must be dropped).
 */
export function addFile(values: unknown[], aggregates: readonly MetadataAggregate[], targets: readonly AggregateTarget[], task: FileScanTask, filter: BoundPredicate): boolean {
  const file = task.file;
  if (!undeleted(task) || file.recordCount < 0n) return false;
  if (filter.kind !== 'true' && !mustMatch(filter, file, task.spec)) return false;
  for (let i = 0; i < aggregates.length; i++) {
    const a = aggregates[i]!;
    if (a.kind === 'countStar') { values[i] = (values[i] as bigint) + file.recordCount; continue; }
    const { field, type } = targets[i]!;
    const nulls = nullsOf(file, field.id);
    if (nulls === undefined) return false;
    if (a.kind === 'count') { values[i] = (values[i] as bigint) + file.recordCount - nulls; continue; }
    if (nulls === file.recordCount) continue; // no value here
    if (isFloat(type) && file.nanValueCounts.get(field.id) !== 0n) return false;
    const v = bound(file, a.kind === 'min' ? 'lower' : 'upper', field.id, type);
    if (v === undefined || (isFloat(type) && v === 0)) return false;
    values[i] = better(a.kind, type, values[i], v);
  }
  return true;
}

/** SQL types a GROUP BY key may have: the identity partition value is the column value, equal values one group */
const GROUP_OIDS: ReadonlySet<number> = new Set([Oid.bool, Oid.int2, Oid.int4, Oid.int8, Oid.numeric, Oid.date, Oid.timestamp, Oid.timestamptz, Oid.text, Oid.varchar]);

/** the GROUP BY values of a file (its identity partition values), or undefined when it has none for a key */
function groupValues(task: FileScanTask, keys: readonly AggregateColumn[]): unknown[] | undefined {
  const out: unknown[] = [];
  for (const k of keys) {
    const t = k.field.type;
    const v = t.kind === 'primitive' ? identityValue(task.file, task.spec, k.field.id, t) : undefined;
    if (v === undefined) return undefined;
    out.push(v.v);
  }
  return out;
}

/** a map key of group values (bigint, Numeric and strings kept apart) */
function groupKey(values: readonly unknown[]): string {
  return JSON.stringify(values.map((v) => (v === null ? null : typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? `s${v}` : String(v))));
}

export async function aggregateFromManifests(
  io: IcebergIO,
  md: TableMetadata,
  snapshotId: bigint | null,
  columns: readonly AggregateColumn[],
  aggregates: readonly MetadataAggregate[],
  filters: readonly ScanPredicate[] | undefined,
  groupBy: readonly number[] = [],
): Promise<MetadataAggregateAnswer | null> {
  // checked before any manifest is read
  const targets = aggregateTargets(columns, aggregates);
  const filter = bindExact(filters, columns);
  const keys = groupBy.map((i) => columns[i]);
  if (targets === null || filter === null || keys.some((k) => k === undefined || !GROUP_OIDS.has(k.oid))) return null;
  const plan = await planScan(io, md, snapshotId, { filter });
  const groups = new Map<string, { keys: unknown[]; values: unknown[] }>();
  // without GROUP BY: one row even over no rows
  if (keys.length === 0) groups.set(groupKey([]), { keys: [], values: initialValues(aggregates) });
  for (const task of plan.tasks) {
    // a file without rows makes no group (and adds nothing to one)
    if (keys.length > 0 && task.file.recordCount === 0n) continue;
    const kv = groupValues(task, keys as AggregateColumn[]);
    if (kv === undefined) return null;
    const gk = groupKey(kv);
    let g = groups.get(gk);
    if (g === undefined) groups.set(gk, (g = { keys: kv, values: initialValues(aggregates) }));
    if (!addFile(g.values, aggregates, targets, task, filter)) return null;
  }
  const metrics = emptyScanMetrics();
  addPlanCounters(metrics, plan.counters);
  metrics.fromMetadata = true;
  return { rows: [...groups.values()].map((g) => [...g.keys, ...g.values]), metrics };
}
