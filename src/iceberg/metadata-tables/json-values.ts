/** jsonb helpers of the metadata tables (the JSON form of Iceberg values is spec/json-values.ts). */
import { toJsonb } from '../spec/json-values.ts';

/** `{ "<field id>": <count> }` for column_sizes / value_counts / null_value_counts / nan_value_counts; null when empty */
export function idCountMap(m: ReadonlyMap<number, bigint>): string | null {
  if (m.size === 0) return null;
  return toJsonb(new Map([...m].sort((a, b) => a[0] - b[0])));
}
