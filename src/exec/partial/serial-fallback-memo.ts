/**
 * The partial aggregates judged not to reduce their rows (partial-aggregate-exec.ts: one partial group per few
 * rows, as TPC-H Q18's GROUP BY l_orderkey), remembered per table snapshot and worker fragment, so the next run
 * aggregates on the main thread from the start. A judged run wastes more than its first tasks: the pool's window
 * of tasks already running (each file scanned, filtered and aggregated) is thrown away and the table scanned
 * again (Q18 at SF 0.2: about 260 ms of worker CPU per run, a fifth of the query's). Data files are immutable,
 * so the same snapshot, fragment and pushed filters give the same rows and the same judgement; a new snapshot
 * is judged afresh. The memo is per process and bounded (oldest entries go first).
 */
import type { ScanPredicate } from '../../catalog/table-source.ts';
import type { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import { intKeyListDigest } from '../../iceberg/scan/int-key-list.ts';
import type { WireFragment } from './worker-fragment.ts';

/** at most this many judged aggregates are remembered */
export const MAX_JUDGED = 256;

const judged = new Set<string>();

/** JSON that also takes bigints (filter constants, int8 literals in the fragment) */
/** a runtime key filter's marked integer key list (29k keys for TPC-H Q3 at SF1) stands in the key as its digest */
const keyText = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : Array.isArray(x) ? intKeyListDigest(x) ?? x : x)) ?? '';

/** what identifies the rows and the partial groups of an aggregate: table, snapshot, fragment and pushed filters */
export function serialFallbackKey(source: IcebergTableSource, fragment: WireFragment, filters: readonly ScanPredicate[] | undefined): string {
  const table = source.metadata.tableUuid ?? source.metadata.location;
  const snapshot = source.snapshot?.snapshotId ?? 'none';
  return `${table}@${snapshot}|${keyText(fragment)}|${keyText(filters ?? [])}`;
}

/** whether any aggregate is remembered (the key need not be made otherwise) */
export function anyJudgedSerial(): boolean {
  return judged.size > 0;
}

/** whether an earlier run of this aggregate found its partial states did not reduce the rows */
export function judgedSerial(key: string): boolean {
  return judged.has(key);
}

/** remembers that this aggregate's partial states did not reduce the rows */
export function rememberSerial(key: string): void {
  if (judged.has(key)) return;
  if (judged.size >= MAX_JUDGED) judged.delete(judged.values().next().value!);
  judged.add(key);
}

/** how many aggregates are remembered (tests) */
export function judgedSerialCount(): number {
  return judged.size;
}
