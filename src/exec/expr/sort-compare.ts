/** Row comparator for sort keys: compareValues per key, DESC, NULLS FIRST/LAST (PostgreSQL's default: NULLs largest). */
import { compareValues } from '../../functions/index.ts';

export interface KeySpec {
  readonly oid: number;
  readonly descending: boolean;
  readonly nullsFirst: boolean;
}

export function compareKeys(specs: readonly KeySpec[], a: readonly unknown[], b: readonly unknown[]): number {
  for (let k = 0; k < specs.length; k++) {
    const s = specs[k]!;
    const x = a[k] ?? null;
    const y = b[k] ?? null;
    if (x === null || y === null) {
      if (x === y) continue;
      return (x === null) === s.nullsFirst ? -1 : 1;
    }
    const c = compareValues(s.oid, x, y);
    if (c !== 0) return s.descending ? -c : c;
  }
  return 0;
}
