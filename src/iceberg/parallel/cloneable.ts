/**
 * Values that must survive postMessage's structured clone. Clone keeps numbers, bigints, strings,
 * Uint8Arrays, Maps and plain objects, but drops class prototypes: a Numeric arrives as a plain object
 * without its methods. toCloneable tags Numerics (deeply, through arrays such as PgArray.values and plain
 * objects such as a BoundPredicate tree); fromCloneable rebuilds them on the other side.
 */
import { Numeric } from '../../common/pgtypes/numeric.ts';

interface TaggedNumeric {
  readonly $numeric: string;
}

const isTagged = (v: object): v is TaggedNumeric => typeof (v as Partial<TaggedNumeric>).$numeric === 'string';

/** Numeric's text form round-trips exactly (value, display scale, NaN, ±Infinity). */
export function toCloneable(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || v instanceof Map) return v;
  if (Numeric.isNumeric(v)) return { $numeric: v.toString() } satisfies TaggedNumeric;
  if (Array.isArray(v)) return v.map(toCloneable);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toCloneable(x);
  return out;
}

export function fromCloneable(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || v instanceof Map) return v;
  if (isTagged(v)) return Numeric.parse(v.$numeric);
  if (Array.isArray(v)) return v.map(fromCloneable);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = fromCloneable(x);
  return out;
}

/** true when a value (deeply) holds something structured clone would not rebuild faithfully */
export function needsTagging(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v) || v instanceof Map) return false;
  if (Numeric.isNumeric(v)) return true;
  if (Array.isArray(v)) return v.some(needsTagging);
  return Object.values(v).some(needsTagging);
}
