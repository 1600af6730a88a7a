/**
 * Type coercion at bind time (PostgreSQL's coerce_type / select_common_type): unknown literals and `$n`
 * parameters take the type the context wants; other types go through the registry's coercion pathways.
 */
import { Oid, sqlType, type SqlType } from '../../common/pgtypes/oids.ts';
import { typeInfo } from '../../common/pgtypes/registry.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { GatewayError, pgError } from '../../common/errors.ts';
import type { EvalContext } from '../../functions/registry-types.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { CastContext, CastDef } from '../../functions/registry-types.ts';
import type { Expr } from '../logical/expr.ts';
import type { FunctionRegistry } from './function-registry.ts';

export const UNKNOWN: SqlType = sqlType(Oid.unknown);
export const BOOL: SqlType = sqlType(Oid.bool);
export const TEXT: SqlType = sqlType(Oid.text);
export const INT4: SqlType = sqlType(Oid.int4);
export const INT8: SqlType = sqlType(Oid.int8);

const NUMERIC_FOLDABLE = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.numeric, Oid.float4, Oid.float8, Oid.oid]);
/** types whose typmod a length-coercion cast applies after the conversion (bit(n) pads only when explicit) */
const LENGTH_COERCED: ReadonlySet<number> = new Set([Oid.varchar, Oid.bpchar, Oid.bit, Oid.varbit]);
/** numeric casts never read the session; anything that does would fail loudly here */
const NO_SESSION = new Proxy({}, { get: () => { throw new Error('constant folding needs no session'); } }) as EvalContext;

export interface CoerceEnv {
  readonly functions: FunctionRegistry;
  readonly paramTypes: SqlType[];
}

/** Converts `e` to `target`, or returns undefined when `context` does not allow it. */
export function tryCoerce(env: CoerceEnv, e: Expr, target: SqlType, context: CastContext): Expr | undefined {
  const src = e.type;
  if (target.oid === Oid.any || target.oid === Oid.anyelement || target.oid === Oid.anycompatible || target.oid === Oid.record && src.oid !== Oid.unknown) return e;
  if (e.kind === 'Param' && src.oid === Oid.unknown) {
    env.paramTypes[e.index] = target;
    return { ...e, type: target };
  }
  if (src.oid === target.oid) {
    if (target.typmod < 0 || src.typmod === target.typmod) return e;
    // length coercion (varchar(n), numeric(p,s)): the type's own cast with the new typmod
    const self = env.functions.cast(src.oid, target.oid);
    const explicit = context === 'e';
    return { kind: 'Cast', arg: e, fn: self ? (v, typmod, ctx) => self.impl(v, typmod, ctx, explicit) : null, type: target };
  }
  if (src.oid === Oid.unknown) {
    // a text → target cast registered by other modules (e.g. catalog-aware text → regclass) wins over plain I/O
    const viaText = env.functions.cast(Oid.text, target.oid);
    if (viaText !== undefined && viaText.method === 'f') {
      const position = e.kind === 'Literal' ? e.location : undefined;
      return { kind: 'Cast', arg: e, fn: viaText.impl, type: target, ...(position === undefined ? {} : { position }) };
    }
  }
  const path = env.functions.findCoercion(src.oid, target.oid, context);
  if (path === undefined) return undefined;
  if (path.method === 'b' && target.typmod < 0 && e.kind !== 'Literal') return { kind: 'Cast', arg: e, fn: null, type: target };
  const position = e.kind === 'Literal' ? e.location : undefined;
  if (e.kind === 'Literal' && NUMERIC_FOLDABLE.has(src.oid) && NUMERIC_FOLDABLE.has(target.oid)) {
    // numeric constants convert without session state: fold now (errors such as int4 overflow keep the position)
    try {
      const value = e.value === null ? null : path.impl(e.value, target.typmod, NO_SESSION);
      return { kind: 'Literal', value, type: target, ...(position === undefined ? {} : { location: position }) };
    } catch (err) {
      if (GatewayError.is(err) && err.position === undefined && position !== undefined) err.position = position;
      throw err;
    }
  }
  const explicit = context === 'e';
  const fn: CastDef['impl'] = (v, typmod, ctx) => path.impl(v, typmod, ctx, explicit);
  const self = target.typmod >= 0 && LENGTH_COERCED.has(target.oid) ? env.functions.cast(target.oid, target.oid) : undefined;
  if (self === undefined) return { kind: 'Cast', arg: e, fn, type: target, ...(position === undefined ? {} : { position }) };
  // coerce_type_typmod: varchar(n) / bpchar(n) / bit(n) / varbit(n) take the length coercion after the conversion (cut for CAST / ::,
  // else 22001), as a separate step whose errors carry no position (PostgreSQL raises them at run time)
  // int4 / int8 → bit(n) take the length as their typmod argument (bitfromint4(int4, int4)), as PostgreSQL passes it
  const convertedType = target.oid === Oid.bit ? target : sqlType(target.oid);
  const converted: Expr = { kind: 'Cast', arg: e, fn, type: convertedType, ...(position === undefined ? {} : { position }) };
  return { kind: 'Cast', arg: converted, fn: (v, typmod, ctx) => self.impl(v, typmod, ctx, explicit), type: target };
}

export function coerce(env: CoerceEnv, e: Expr, target: SqlType, context: CastContext, position?: number): Expr {
  const r = tryCoerce(env, e, target, context);
  if (r !== undefined) return r;
  if (context === 'e') {
    throw pgError(SqlState.cannot_coerce, `cannot cast type ${formatType(e.type.oid)} to ${formatType(target.oid, target.typmod)}`, pos(position));
  }
  throw pgError(SqlState.datatype_mismatch, `argument is of type ${formatType(e.type.oid)} but ${formatType(target.oid)} is expected`, pos(position));
}

/** Coerces a condition (WHERE, HAVING, ON, CASE WHEN) to boolean: 42804 `argument of WHERE must be type boolean, not type integer`. */
export function coerceToBoolean(env: CoerceEnv, e: Expr, clause: string, position?: number): Expr {
  if (e.type.oid === Oid.bool) return e;
  const r = e.type.oid === Oid.unknown ? tryCoerce(env, e, BOOL, 'i') : undefined;
  if (r !== undefined) return r;
  throw pgError(SqlState.datatype_mismatch, `argument of ${clause} must be type boolean, not type ${formatType(e.type.oid)}`, pos(position));
}

/**
 * select_common_type: text if all unknown; otherwise the first known type, replaced by a later one of the
 * same category that is preferred or coerces one way only. 42804 `<context> types x and y cannot be matched`.
 */
export function commonType(env: CoerceEnv, types: readonly SqlType[], context: string, position?: number): SqlType {
  const known = types.filter((t) => t.oid !== Oid.unknown);
  if (known.length === 0) return TEXT;
  let p = known[0]!;
  let pInfo = typeInfo(p.oid);
  const implicit = (s: number, t: number): boolean => env.functions.canCoerce(s, t, 'i');
  for (const n of known.slice(1)) {
    if (n.oid === p.oid) continue;
    const nInfo = typeInfo(n.oid);
    if ((nInfo?.typcategory ?? 'X') !== (pInfo?.typcategory ?? 'X')) {
      throw pgError(SqlState.datatype_mismatch, `${context} types ${formatType(p.oid)} and ${formatType(n.oid)} cannot be matched`, pos(position));
    }
    if (!(pInfo?.typispreferred ?? false) && implicit(p.oid, n.oid) && !implicit(n.oid, p.oid)) {
      p = n;
      pInfo = nInfo;
    }
  }
  for (const t of known) {
    if (t.oid !== p.oid && !implicit(t.oid, p.oid)) {
      throw pgError(SqlState.datatype_mismatch, `${context} could not convert type ${formatType(t.oid)} to ${formatType(p.oid)}`, pos(position));
    }
  }
  // keep a typmod only when every input agrees (select_common_typmod)
  const mods = new Set(known.filter((t) => t.oid === p.oid).map((t) => t.typmod));
  return sqlType(p.oid, mods.size === 1 && known.every((t) => t.oid === p.oid) ? p.typmod : -1);
}

function pos(position: number | undefined): { position?: number } {
  return position === undefined ? {} : { position };
}
