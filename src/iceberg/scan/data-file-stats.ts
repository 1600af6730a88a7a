/**
 * A data file's column metrics (§ Manifests: value_counts 109, null_value_counts 110, nan_value_counts 137,
 * lower_bounds 125, upper_bounds 128), by field id, as FieldStats for the stats evaluator. Bounds are decoded
 * with the field's current type (decodeSingleValue reads 4-byte bounds of promoted int/float columns). A
 * field without an entry (added later, or metrics mode none/counts) has unknown statistics.
 */
import type { DataFile } from '../spec/manifest.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { decodeSingleValue } from '../spec/types.ts';
import type { FieldStats, StatsLookup } from './stats-evaluator.ts';

function decodeBound(t: PrimitiveType, b: Uint8Array | undefined): unknown {
  if (b === undefined) return undefined;
  try {
    const v = decodeSingleValue(t, b);
    return v === null || (typeof v === 'number' && Number.isNaN(v)) ? undefined : v;
  } catch {
    return undefined;
  }
}

const num = (v: bigint | undefined): number | undefined => (v === undefined ? undefined : Number(v));

export function dataFileStats(file: DataFile, typeOf: (fieldId: number) => PrimitiveType | undefined): StatsLookup {
  const cache = new Map<number, FieldStats | undefined>();
  return (id) => {
    if (cache.has(id)) return cache.get(id);
    const t = typeOf(id);
    let s: FieldStats | undefined;
    if (t !== undefined) {
      const lower = decodeBound(t, file.lowerBounds.get(id));
      const upper = decodeBound(t, file.upperBounds.get(id));
      const nullCount = num(file.nullValueCounts.get(id));
      const valueCount = num(file.valueCounts.get(id));
      const nanCount = num(file.nanValueCounts.get(id));
      s = {
        ...(lower === undefined ? {} : { lower }),
        ...(upper === undefined ? {} : { upper }),
        ...(nullCount === undefined ? {} : { nullCount }),
        ...(valueCount === undefined ? {} : { valueCount }),
        ...(nanCount === undefined ? {} : { nanCount }),
      };
    }
    cache.set(id, s);
    return s;
  };
}
