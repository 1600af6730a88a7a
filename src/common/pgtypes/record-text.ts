/**
 * record_out: `(1,"a b",)`. NULL fields print as nothing; a field is quoted when empty or when it has
 * a quote, backslash, parenthesis, comma or space, with " and \ doubled inside quotes.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/rowtypes.c (record_out)
 */
import type { PgRecord } from './values.ts';

export function recordOut(r: PgRecord, fieldOut: (oid: number, v: unknown) => string): string {
  let out = '(';
  for (let i = 0; i < r.values.length; i++) {
    if (i > 0) out += ',';
    const v = r.values[i];
    if (v === null || v === undefined) continue;
    out += quoteField(fieldOut(r.fieldOids[i] ?? 25, v));
  }
  return out + ')';
}

function quoteField(s: string): string {
  let need = s.length === 0;
  for (let i = 0; i < s.length && !need; i++) {
    const c = s.charCodeAt(i);
    need = c === 34 || c === 92 || c === 40 || c === 41 || c === 44 || c === 32 || (c >= 9 && c <= 13);
  }
  if (!need) return s;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"' || ch === '\\') out += ch;
    out += ch;
  }
  return out + '"';
}
