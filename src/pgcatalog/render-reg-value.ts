/**
 * renderRegValue: the text PostgreSQL sends for a reg* value (regclass 1259 → 'pg_class'). The wire layer's
 * textOut(oid, value) has no catalog, so the engine should call this for result columns of reg* types before
 * encoding (or cast them to text, which gives the same string).
 */
import type { SnapshotSource } from './catalog-snapshot.ts';
import { snapshotFor } from './eval-snapshot.ts';
import { REG_TYPES, regOut } from './reg-names.ts';

const REG_TYPE_SET = new Set<number>(REG_TYPES);

export function isRegType(typeOid: number): boolean {
  return REG_TYPE_SET.has(typeOid);
}

/** Text form of a reg* value; null for NULL. Values of other types fall back to String(value). */
export function renderRegValue(typeOid: number, value: unknown, ctx: SnapshotSource): string | null {
  if (value === null || value === undefined) return null;
  const oid = Number(value);
  if (!isRegType(typeOid)) return String(value);
  return regOut(typeOid, oid, snapshotFor(ctx));
}
