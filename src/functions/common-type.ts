/**
 * select_common_type and coerce_to_common_type's check: the one type that UNION/INTERSECT/EXCEPT, CASE,
 * COALESCE, GREATEST/LEAST, VALUES, ARRAY[...] and IN lists resolve their inputs to.
 * @see https://www.postgresql.org/docs/15/typeconv-union-case.html
 */
import { Oid, sqlType, type SqlType } from '../common/pgtypes/oids.ts';
import { typeInfo } from '../common/pgtypes/registry.ts';
import { formatType } from '../common/pgtypes/format-type.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

/**
 * `context` names the construct in the errors (42804 "UNION types integer and text cannot be matched",
 * 42846 "CASE could not convert type ..."). All-unknown inputs resolve to text; the typmod survives
 * only when every input has the same one. `implicit` is can_coerce_type(..., COERCION_IMPLICIT).
 */
export function selectCommonType(types: readonly SqlType[], context: string, implicit: (s: number, t: number) => boolean): SqlType {
  const first = types[0];
  if (first === undefined) return sqlType(Oid.text);
  if (types.every((t) => t.oid === first.oid)) {
    if (first.oid === Oid.unknown) return sqlType(Oid.text);
    return types.every((t) => t.typmod === first.typmod) ? first : sqlType(first.oid);
  }
  let p: number = Oid.unknown;
  let pInfo = typeInfo(p);
  for (const t of types) {
    const n = t.oid;
    if (n === Oid.unknown || n === p) continue;
    const nInfo = typeInfo(n);
    if (p === Oid.unknown) {
      p = n;
      pInfo = nInfo;
    } else if ((nInfo?.typcategory ?? '') !== (pInfo?.typcategory ?? '')) {
      throw pgError(SqlState.datatype_mismatch, `${context} types ${formatType(p)} and ${formatType(n)} cannot be matched`);
    } else if (!(pInfo?.typispreferred ?? false) && implicit(p, n) && !implicit(n, p)) {
      p = n;
      pInfo = nInfo;
    }
  }
  if (p === Oid.unknown) p = Oid.text;
  for (const t of types) {
    if (!implicit(t.oid, p)) {
      throw pgError(SqlState.cannot_coerce, `${context} could not convert type ${formatType(t.oid)} to ${formatType(p)}`);
    }
  }
  const mods = types.filter((t) => t.oid === p).map((t) => t.typmod);
  const typmod = mods.length === types.length && mods.every((m) => m === mods[0]) ? mods[0]! : -1;
  return sqlType(p, typmod);
}
