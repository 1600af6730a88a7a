/**
 * Polymorphic pseudo-types (anyelement, anyarray, anynonarray, anycompatible, anycompatiblearray, "any"):
 * PostgreSQL's check_generic_type_consistency (may this candidate take these inputs?) and
 * enforce_generic_type_consistency (which concrete types do the pseudo-types stand for?).
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/parser/parse_coerce.c
 */
import { Oid, sqlType, type SqlType } from '../common/pgtypes/oids.ts';
import { arrayTypeOf, elementTypeOf, isArrayType, typeInfo } from '../common/pgtypes/registry.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';

export type CoerceFn = (source: number, target: number) => boolean;

const ELEMENT_FAMILY = new Set<number>([Oid.anyelement, Oid.anynonarray, Oid.anyenum]);
const COMPATIBLE_FAMILY = new Set<number>([Oid.anycompatible, Oid.anycompatiblearray]);

export function isPolymorphic(oid: number): boolean {
  return ELEMENT_FAMILY.has(oid) || COMPATIBLE_FAMILY.has(oid) || oid === Oid.anyarray || oid === Oid.anyrange;
}

/** Declared types that accept anything without the consistency check. */
export function isAnyLike(oid: number): boolean {
  return oid === Oid.any;
}

/**
 * The element type an anyarray argument binds: a true array's element, and also int2 / oid for int2vector /
 * oidvector, which PostgreSQL 14+ treats as arrays (typsubscript array_subscript_handler → get_element_type),
 * so unnest(indkey) works (SQLAlchemy, pandas reflection).
 */
export function polymorphicElementOf(oid: number): number {
  if (oid === Oid.int2vector) return Oid.int2;
  if (oid === Oid.oidvector) return Oid.oid;
  return elementTypeOf(oid);
}

/** Bindings of the pseudo-types for one call, or undefined when the inputs are inconsistent. */
export interface PolyBinding {
  /** concrete type for anyelement (0 if undetermined) */
  readonly elem: number;
  /** concrete common type for anycompatible (0 if undetermined) */
  readonly compatible: number;
}

/**
 * check_generic_type_consistency. `inputs` are actual argument OIDs (705 = unknown literal),
 * `declared` the candidate's declared types for the same positions.
 */
export function checkPolymorphic(inputs: readonly number[], declared: readonly number[], coerce: CoerceFn): PolyBinding | undefined {
  let elem = 0;
  let hasNonArray = false;
  const compat: number[] = [];
  for (let i = 0; i < declared.length; i++) {
    const d = declared[i]!;
    const a = inputs[i]!;
    if (a === Oid.unknown) continue;
    if (ELEMENT_FAMILY.has(d)) {
      if (d === Oid.anynonarray) hasNonArray = true;
      if (elem !== 0 && elem !== a) return undefined;
      elem = a;
    } else if (d === Oid.anyarray) {
      const e = polymorphicElementOf(a);
      if (e === 0) return undefined;
      if (elem !== 0 && elem !== e) return undefined;
      elem = e;
    } else if (d === Oid.anycompatible) {
      compat.push(a);
    } else if (d === Oid.anycompatiblearray) {
      const e = polymorphicElementOf(a);
      if (e === 0) return undefined;
      compat.push(e);
    }
  }
  if (hasNonArray && elem !== 0 && isArrayType(elem)) return undefined;
  let compatible = 0;
  if (compat.length > 0) {
    const common = commonTypeOfOids(compat, coerce);
    if (common === undefined) return undefined;
    compatible = common;
  }
  return { elem, compatible };
}

/**
 * enforce_generic_type_consistency: the concrete types the pseudo-types stand for. Throws 42804 when only
 * unknown literals feed anyelement/anyarray, as PostgreSQL does.
 */
export function resolvePolymorphic(inputs: readonly SqlType[], declared: readonly number[], coerce: CoerceFn): PolyBinding {
  const b = checkPolymorphic(inputs.map((t) => t.oid), declared, coerce);
  if (b === undefined) throw pgError(SqlState.datatype_mismatch, 'arguments declared "anyelement" are not all alike');
  const usesElem = declared.some((d) => ELEMENT_FAMILY.has(d) || d === Oid.anyarray);
  if (usesElem && b.elem === 0) {
    throw pgError(SqlState.datatype_mismatch, 'could not determine polymorphic type because input has type unknown');
  }
  const usesCompat = declared.some((d) => COMPATIBLE_FAMILY.has(d));
  return { elem: b.elem, compatible: usesCompat && b.compatible === 0 ? Oid.text : b.compatible };
}

/** The concrete type a declared (possibly polymorphic) type stands for. */
export function substitute(declared: number, b: PolyBinding, actual: SqlType | undefined): SqlType {
  switch (declared) {
    case Oid.anyelement:
    case Oid.anynonarray:
    case Oid.anyenum:
      return actual !== undefined && actual.oid === b.elem ? actual : sqlType(b.elem);
    case Oid.anyarray:
      return actual !== undefined && actual.oid !== Oid.unknown ? actual : sqlType(arrayTypeOf(b.elem));
    case Oid.anycompatible:
      return actual !== undefined && actual.oid === b.compatible ? actual : sqlType(b.compatible);
    case Oid.anycompatiblearray: {
      const arr = arrayTypeOf(b.compatible);
      return actual !== undefined && actual.oid === arr ? actual : sqlType(arr);
    }
    case Oid.any:
      return actual ?? sqlType(Oid.unknown);
    default:
      return actual !== undefined && actual.oid === declared ? actual : sqlType(declared);
  }
}

/**
 * select_common_type over OIDs (unknowns already removed): all must share a type category; a later
 * type wins when the current one is not preferred and coerces implicitly to it but not back.
 */
export function commonTypeOfOids(types: readonly number[], coerce: CoerceFn): number | undefined {
  const known = types.filter((t) => t !== Oid.unknown);
  if (known.length === 0) return Oid.text;
  let p = known[0]!;
  let pInfo = typeInfo(p);
  for (const n of known.slice(1)) {
    if (n === p) continue;
    const nInfo = typeInfo(n);
    if ((nInfo?.typcategory ?? 'X') !== (pInfo?.typcategory ?? 'X')) return undefined;
    if (!(pInfo?.typispreferred ?? false) && coerce(p, n) && !coerce(n, p)) {
      p = n;
      pInfo = nInfo;
    }
  }
  return known.every((t) => t === p || coerce(t, p)) ? p : undefined;
}
