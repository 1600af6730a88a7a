/**
 * Coercions that pg_cast does not list: I/O conversion (a type's output function then the other's input
 * function, COERCION_PATH_COERCEVIAIO), element-wise array coercion (ARRAYCOERCE), and applyCoercion,
 * the whole coerce_type + coerce_type_typmod step the executor runs for CAST, assignment and implicit casts.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/parser/parse_coerce.c
 */
import { Oid, type SqlType } from '../common/pgtypes/oids.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { formatType } from '../common/pgtypes/format-type.ts';
import { isPgArray, type PgArray } from '../common/pgtypes/values.ts';
import { elementTypeOf } from '../common/pgtypes/registry.ts';
import type { CastContext, CastDef, EvalContext } from './registry-types.ts';
import { textInput, textOutput } from './text-io.ts';

/** types whose typmod a separate length-coercion cast applies (not the input function) */
const LENGTH_COERCED: ReadonlySet<number> = new Set([Oid.varchar, Oid.bpchar, Oid.bit, Oid.varbit]);

/** source → target through text: textOut(source) then textIn(target, typmod). */
export function ioCoercion(source: number, target: number, context: CastContext): CastDef {
  return {
    source,
    target,
    context,
    method: 'i',
    impl: (v, typmod, ctx) => {
      const text = typeof v === 'string' && (source === Oid.unknown || source === Oid.text || source === Oid.varchar) ? v : textOutput(source, v, ctx);
      // length coercion of varchar(n)/bpchar(n)/bit(n)/varbit(n) is applied afterwards (applyCoercion), with isExplicit:
      // '1011'::bit(3) truncates as PostgreSQL's coerce_type (input with typmod -1, then the length cast) does
      return textInput(target, LENGTH_COERCED.has(target) ? -1 : typmod, text, ctx);
    },
  };
}

/** Element-wise array coercion with the element cast; NULL elements stay NULL. */
export function arrayCoercion(source: number, target: number, elem: CastDef): CastDef {
  const targetElem = elementTypeOf(target);
  return {
    source,
    target,
    context: elem.context,
    method: 'f',
    impl: (v, typmod, ctx, explicit) => {
      const a = v as PgArray;
      const values = a.values.map((x) => (x === null || x === undefined ? null : elem.impl(x, typmod, ctx, explicit)));
      return { kind: 'array', elementOid: targetElem, dims: a.dims, lowerBounds: a.lowerBounds, values } satisfies PgArray;
    },
  };
}

/** What applyCoercion needs of the registry (kept narrow to avoid an import cycle). */
export interface CoercionSource {
  findCoercion(source: number, target: number, context: CastContext): CastDef | undefined;
  cast(source: number, target: number): CastDef | undefined;
}

/**
 * Converts a value of type `from` to type `to` in `context` ('e' for CAST / ::, 'a' for INSERT/UPDATE
 * targets, 'i' for implicit), then applies the target typmod (length/precision coercion) as PostgreSQL's
 * coerce_type_typmod does. NULL passes through. Throws 42846 when no coercion exists.
 */
export function applyCoercion(reg: CoercionSource, value: unknown, from: SqlType, to: SqlType, context: CastContext, ctx: EvalContext): unknown {
  if (value === null || value === undefined) return null;
  const explicit = context === 'e';
  let v: unknown = value;
  if (from.oid !== to.oid) {
    const c = reg.findCoercion(from.oid, to.oid, context);
    if (c === undefined) {
      throw pgError(SqlState.cannot_coerce, `cannot cast type ${formatType(from.oid)} to ${formatType(to.oid)}`);
    }
    v = c.impl(v, to.typmod, ctx, explicit);
    if (isPgArray(v)) return v;
  } else if (to.typmod < 0 || to.typmod === from.typmod) {
    return v;
  }
  if (to.typmod >= 0) {
    const self = reg.cast(to.oid, to.oid);
    if (self !== undefined) v = self.impl(v, to.typmod, ctx, explicit);
  }
  return v;
}
