/**
 * Inclusive projection of a row predicate through a partition spec (§ Scan Planning; Java ProjectionUtil):
 * if a row matches the predicate, its partition tuple matches the projection. The projection is a
 * BoundPredicate over partition field ids, evaluated (stats-evaluator.ts) against the manifest list's
 * field summaries and each data file's partition tuple.
 *
 * identity: every op. bucket[N]: = and IN. truncate[W]: =, IN, <, <=, >, >= (x < v ⇒ T(x) ≤ T(v): the
 * transforms are monotone), startsWith on strings. year/month/day/hour: =, IN and ranges; pre-1970 values
 * are widened by one (old Java writers rounded toward zero: Java's fixInclusiveTimeProjection).
 * Unknown transforms, void and anything else project to TRUE.
 */
import type { PartitionField, PartitionSpec } from '../spec/partition-spec.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';
import type { FieldSummary } from '../spec/manifest-list.ts';
import { decodeSingleValue, fromAvroValue } from '../spec/types.ts';
import { partitionTransform, type PartitionTransform } from '../transforms/partition-transform.ts';
import { TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY } from '../../common/pgtypes/values.ts';
import { and, or, TRUE, type BoundPredicate } from './bound-predicate.ts';
import type { FieldStats, StatsLookup } from './stats-evaluator.ts';

export interface ProjectedField {
  readonly field: PartitionField;
  readonly transform: PartitionTransform;
}

/** the partition fields of a spec whose transform lakegate knows, with their source type */
export function projectedFields(spec: PartitionSpec, typeOf: (sourceId: number) => IcebergType | undefined): ProjectedField[] {
  const out: ProjectedField[] = [];
  for (const field of spec.fields) {
    if (field.sourceIds !== undefined && field.sourceIds.length > 1) continue;
    const t = typeOf(field.sourceId);
    if (t === undefined) continue;
    try {
      out.push({ field, transform: partitionTransform(field.transform, t) });
    } catch {
      // unknown transform or source type: ignored for filtering (§ Scan Planning)
    }
  }
  return out;
}

export function projectPredicate(b: BoundPredicate, fields: readonly ProjectedField[]): BoundPredicate {
  switch (b.kind) {
    case 'true': case 'false': return b;
    case 'and': return and(b.args.map((a) => projectPredicate(a, fields)));
    case 'or': return or(b.args.map((a) => projectPredicate(a, fields)));
    case 'compareFields': return TRUE; // a column pair says nothing of one partition value
    default:
      return and(fields.filter((f) => f.field.sourceId === b.fieldId).map((f) => projectLeaf(b, f)));
  }
}

type Leaf = Exclude<BoundPredicate, { kind: 'true' | 'false' | 'and' | 'or' | 'compareFields' }>;

function projectLeaf(b: Leaf, pf: ProjectedField): BoundPredicate {
  const tr = pf.transform;
  const fieldId = pf.field.fieldId;
  const type = tr.resultType;
  if (tr.name === 'void') return TRUE;
  // every other transform maps null to null and non-null to non-null
  if (b.kind === 'isNull' || b.kind === 'isNotNull') return { kind: b.kind, fieldId, type };
  if (tr.name === 'identity') return { ...b, fieldId, type } as BoundPredicate;
  const src = b.type;
  if (src.name.endsWith('_ns')) return TRUE; // transforms take ns there; our values are µs
  const apply = (v: unknown): unknown => {
    try {
      return tr.apply(v);
    } catch {
      return undefined;
    }
  };
  const timeLike = tr.name === 'year' || tr.name === 'month' || tr.name === 'day' || tr.name === 'hour';
  if (timeLike && (b.kind === 'in' || b.kind === 'compare')) {
    const vals = b.kind === 'in' ? b.values : [b.value];
    if (vals.some((v) => !finiteTime(src, v))) return TRUE;
  }
  switch (b.kind) {
    case 'in': {
      const out: unknown[] = [];
      if (tr.name === 'bucket' || tr.name === 'truncate' || timeLike) {
        for (const v of b.values) {
          const p = apply(v);
          if (p === undefined || p === null) return TRUE;
          out.push(p);
          if (timeLike && (p as number) < 0) out.push((p as number) + 1);
        }
        return { kind: 'in', fieldId, type, values: out };
      }
      return TRUE;
    }
    case 'startsWith': {
      if (tr.name !== 'truncate' || src.name !== 'string') return TRUE;
      const w = tr.param ?? 0;
      if ([...b.prefix].length <= w) return { kind: 'startsWith', fieldId, type, prefix: b.prefix };
      return { kind: 'compare', op: '=', fieldId, type, value: apply(b.prefix) };
    }
    case 'compare': {
      if (b.op === '<>') return TRUE;
      if (tr.name === 'bucket' && b.op !== '=') return TRUE;
      if (tr.name !== 'bucket' && tr.name !== 'truncate' && !timeLike) return TRUE;
      const p = apply(b.value);
      if (p === undefined || p === null) return TRUE;
      const negTime = timeLike && (p as number) < 0;
      switch (b.op) {
        case '=': return negTime ? { kind: 'in', fieldId, type, values: [p, (p as number) + 1] } : { kind: 'compare', op: '=', fieldId, type, value: p };
        case '<': case '<=': return { kind: 'compare', op: '<=', fieldId, type, value: negTime ? (p as number) + 1 : p };
        case '>': case '>=': return { kind: 'compare', op: '>=', fieldId, type, value: p };
      }
    }
  }
  return TRUE;
}

function finiteTime(t: PrimitiveType, v: unknown): boolean {
  if (t.name === 'date') return typeof v === 'number' && Number.isFinite(v);
  return typeof v === 'bigint' && v !== TIMESTAMP_INFINITY && v !== TIMESTAMP_NEG_INFINITY;
}

const isNaNValue = (v: unknown): boolean => typeof v === 'number' && Number.isNaN(v);

/** statistics of one data file's partition tuple (raw Avro values by partition field id) */
export function partitionTupleStats(partition: ReadonlyMap<number, unknown>, fields: readonly ProjectedField[]): StatsLookup {
  const byId = new Map<number, FieldStats>();
  for (const { field, transform } of fields) {
    if (!partition.has(field.fieldId)) continue;
    const v = fromAvroValue(transform.resultType, partition.get(field.fieldId));
    if (v === null) byId.set(field.fieldId, { nullCount: 1, valueCount: 1, nanCount: 0, allNull: true });
    else if (isNaNValue(v)) byId.set(field.fieldId, { nullCount: 0, valueCount: 1, nanCount: 1 });
    else byId.set(field.fieldId, { lower: v, upper: v, nullCount: 0, valueCount: 1, nanCount: 0 });
  }
  return (id) => byId.get(id);
}

/** statistics of a manifest's partition field summaries (one per spec field, in spec order) */
export function summaryStats(summaries: readonly FieldSummary[] | null, spec: PartitionSpec, fields: readonly ProjectedField[]): StatsLookup {
  const byId = new Map<number, FieldStats>();
  if (summaries !== null && summaries.length === spec.fields.length) {
    for (const { field, transform } of fields) {
      const s = summaries[spec.fields.indexOf(field)];
      if (s === undefined) continue;
      const decode = (b: Uint8Array | null): unknown => {
        if (b === null) return undefined;
        try {
          const v = decodeSingleValue(transform.resultType, b);
          return v === null || isNaNValue(v) ? undefined : v;
        } catch {
          return undefined;
        }
      };
      const lower = decode(s.lowerBound);
      const upper = decode(s.upperBound);
      const noValues = s.lowerBound === null && s.upperBound === null;
      byId.set(field.fieldId, {
        ...(lower === undefined ? {} : { lower }),
        ...(upper === undefined ? {} : { upper }),
        ...(s.containsNull ? {} : { nullCount: 0 }),
        ...(s.containsNan === false ? { nanCount: 0 } : {}),
        allNull: s.containsNull && noValues && s.containsNan === false,
      });
    }
  }
  return (id) => byId.get(id);
}
