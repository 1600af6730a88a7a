/**
 * Sort keys made once per value for types whose compareValues takes both values apart at every comparison:
 * inet / cidr (network_cmp parses both texts: 100k distinct addresses sorted pairwise cost 3–6× a text sort).
 * Such a key column is replaced by its values' sort keys (common/pgtypes/inet-sort-key.ts), strings whose
 * code-point order — compareValues under text — is the type's order, and the sort runs over those.
 */
import { inetSortKey } from '../../common/pgtypes/inet-sort-key.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { KeySpec } from './sort-compare.ts';

/** the per-value sort key of a type, or undefined when compareValues is already cheap for it */
export function valueSortKeyOf(oid: number): ((value: string) => string) | undefined {
  return oid === Oid.inet || oid === Oid.cidr ? inetSortKey : undefined;
}

/** a sort entry whose key array holds sort keys, pointing back at the caller's entry */
interface KeyedEntry<E> {
  readonly key: readonly unknown[];
  readonly entry: E;
}

/**
 * `entries` sorted stably by `sort` over their keys with every keyed type's values replaced by their sort keys
 * (compared as text); undefined when no key is of such a type (sort them as they are). The caller's entries
 * and their key arrays are left as they were — a spilled run's keys are compared again under `specs`.
 */
export function sortByValueKeys<E extends { readonly key: readonly unknown[] }>(
  specs: readonly KeySpec[],
  entries: E[],
  sort: <K extends { readonly key: readonly unknown[] }>(specs: readonly KeySpec[], entries: K[]) => K[],
): E[] | undefined {
  let keyOf: (((value: string) => string) | undefined)[] | undefined;
  for (let k = 0; k < specs.length; k++) {
    const f = valueSortKeyOf(specs[k]!.oid);
    if (f === undefined) continue;
    keyOf ??= new Array<((value: string) => string) | undefined>(specs.length).fill(undefined);
    keyOf[k] = f;
  }
  if (keyOf === undefined) return undefined;
  // a leading key of few distinct values is ranked from its distinct values (sort-key-ranks.ts), each compared a
  // few times through compareValues' memo: keying every row would cost more than it saves
  if (keyOf[0] === undefined || !mostlyDistinct(entries)) return undefined;
  const keyedSpecs = specs.map((s, k): KeySpec => (keyOf[k] === undefined ? s : { ...s, oid: Oid.text }));
  // a repeated value is keyed once: few distinct addresses over many rows cost a Map hit per row
  const made = keyOf.map((f) => (f === undefined ? undefined : new Map<string, string>()));
  const keyed = new Array<KeyedEntry<E>>(entries.length);
  for (let i = 0; i < entries.length; i++) keyed[i] = { key: keysOf(keyOf, made, entries[i]!.key), entry: entries[i]! };
  const sorted = sort(keyedSpecs, keyed);
  for (let i = 0; i < sorted.length; i++) entries[i] = sorted[i]!.entry;
  return entries;
}

/** rows of the leading key looked at to tell a mostly distinct key */
const SAMPLE_ROWS = 1024;

/** whether more than half of the first SAMPLE_ROWS rows' leading key values are distinct */
function mostlyDistinct(entries: readonly { readonly key: readonly unknown[] }[]): boolean {
  const m = Math.min(entries.length, SAMPLE_ROWS);
  const seen = new Set<unknown>();
  for (let i = 0; i < m; i++) seen.add(entries[i]!.key[0] ?? null);
  return seen.size * 2 > m;
}

/** a row's key array with the keyed columns' non-NULL values replaced by their sort keys (kept in `made`) */
function keysOf(keyOf: readonly (((value: string) => string) | undefined)[], made: readonly (Map<string, string> | undefined)[], key: readonly unknown[]): unknown[] {
  const out = key.slice();
  for (let k = 0; k < keyOf.length; k++) {
    const f = keyOf[k];
    const v = out[k];
    if (f === undefined || typeof v !== 'string') continue;
    const seen = made[k]!;
    let sortKey = seen.get(v);
    if (sortKey === undefined) { sortKey = f(v); seen.set(v, sortKey); }
    out[k] = sortKey;
  }
  return out;
}
