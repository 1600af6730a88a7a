/**
 * cookDefaultText: the text PostgreSQL's pg_get_expr prints for a column DEFAULT that is a plain constant.
 * PostgreSQL stores the cooked expression (cookDefault: the constant coerced to the column's type, length
 * coercions as hidden implicit casts) and ruleutils' get_const_expr labels it: int4 and numeric-looking
 * constants bare, booleans bare, everything else quoted with `::type` ('anon'::text, '-1'::integer).
 * Other expressions keep their deparsed text (now(), nextval(...)).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/ruleutils.c (get_const_expr)
 */
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { typeInfo } from '../../common/pgtypes/registry.ts';
import { textInput, textOutput } from '../../functions/index.ts';
import { nodeBody, nodeKind, type AstNode } from '../ast.ts';

const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** undefined when `raw` is not a constant (the caller then deparses it) */
export function cookDefaultText(raw: unknown, type: SqlType): string | undefined {
  if (nodeKind(raw) !== 'A_Const') return undefined;
  const c = nodeBody(raw);
  if (c.isnull === true) return undefined;
  if (c.boolval !== undefined) return (c.boolval as AstNode).boolval === true ? 'true' : 'false';
  if (c.ival !== undefined) return constText(Oid.int4, String((c.ival as AstNode).ival ?? 0));
  if (c.fval !== undefined) {
    const s = String((c.fval as AstNode).fval ?? '0');
    // make_const: an integer literal too wide for int4 is int8 when it fits, else numeric
    if (/^-?\d+$/.test(s) && BigInt(s) >= INT8_MIN && BigInt(s) <= INT8_MAX) return constText(Oid.int8, s);
    return constText(Oid.numeric, s);
  }
  if (c.sval !== undefined) {
    const text = String((c.sval as AstNode).sval ?? '');
    if (typeInfo(type.oid)?.typcategory === 'S') return constText(type.oid, text);
    return constText(type.oid, textOutput(type.oid, textInput(type.oid, -1, text, undefined), undefined));
  }
  return undefined;
}

/** get_const_expr for a constant of type `oid` whose output text is `value` (typmod -1) */
function constText(oid: number, value: string): string {
  switch (oid) {
    case Oid.int4: return value.startsWith('-') ? `'${value}'::integer` : value;
    case Oid.numeric: return /^\d/.test(value) && /[eE.]/.test(value) ? value : `'${value}'::numeric`;
    case Oid.bool: return value === 't' || value === 'true' ? 'true' : 'false';
    default: return `'${value.replace(/'/g, "''")}'::${formatType(oid)}`;
  }
}
