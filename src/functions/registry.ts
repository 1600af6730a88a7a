/**
 * FunctionRegistry: every routine, operator and cast lakegate knows, with PostgreSQL's type resolution
 * (exact match, implicit coercion, func_select_candidate, polymorphic types). The binder asks it to
 * resolve calls; pg_proc / pg_operator / pg_cast are generated from it.
 * @see https://www.postgresql.org/docs/15/typeconv.html
 */
import { Oid, sqlType, type SqlType } from '../common/pgtypes/oids.ts';
import { arrayTypeOf, elementTypeOf, typeByName, typeInfo } from '../common/pgtypes/registry.ts';
import { formatType } from '../common/pgtypes/format-type.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { CastContext, CastDef, OperatorDef, RoutineDef } from './registry-types.ts';
import { isAnyLike, isPolymorphic, resolvePolymorphic, substitute } from './polymorphic.ts';
import { matchArgTypes, selectCandidate, type Candidate } from './select-candidate.ts';
import { applyCoercion, arrayCoercion, ioCoercion } from './coercions.ts';
import { selectCommonType } from './common-type.ts';

export interface ResolvedFunction {
  readonly def: RoutineDef;
  /** pg_proc.oid of the chosen routine */
  readonly oid: number;
  /** the types the arguments must be coerced to, one per actual argument (VARIADIC expanded, flat) */
  readonly argTypes: readonly SqlType[];
  readonly returnType: SqlType;
  /**
   * set for `f(..., VARIADIC arr)`: argTypes' last entry is the array; the executor spreads the array's
   * elements into trailing arguments (typed as its element type) before calling impl
   */
  readonly variadicArray?: true;
}

export interface ResolveOptions {
  /** the call's last argument carried the VARIADIC keyword */
  readonly variadicArray?: boolean;
}

export interface ResolvedOperator {
  readonly def: OperatorDef;
  readonly oid: number;
  /** null for a prefix operator */
  readonly leftType: SqlType | null;
  readonly rightType: SqlType;
  readonly returnType: SqlType;
}

const CONTEXT_RANK: Record<CastContext, number> = { i: 0, a: 1, e: 2 };
const FIRST_ASSIGNED_OID = 100000;

export class FunctionRegistry {
  readonly #routines = new Map<string, RoutineDef[]>();
  readonly #operators = new Map<string, OperatorDef[]>();
  readonly #casts = new Map<string, CastDef>();
  readonly #oids = new Map<RoutineDef | OperatorDef, number>();
  #nextOid = FIRST_ASSIGNED_OID;
  readonly #castRoutines = new Map<string, RoutineDef>();
  /** findCoercion memo (pathways are pure functions of pg_cast) */
  readonly #coercions = new Map<string, CastDef | undefined>();

  /** Adds routines; one with the same name and argument types as an earlier one replaces it. */
  registerRoutines(defs: readonly RoutineDef[]): void {
    for (const d of defs) {
      const list = this.#routines.get(d.name) ?? [];
      this.#put(list, d, (o) => o.args.length === d.args.length && o.args.every((a, i) => a === d.args[i]));
      this.#routines.set(d.name, list);
    }
  }

  /** Adds operators; one with the same name and operand types as an earlier one replaces it. */
  registerOperators(defs: readonly OperatorDef[]): void {
    for (const d of defs) {
      const list = this.#operators.get(d.name) ?? [];
      this.#put(list, d, (o) => o.left === d.left && o.right === d.right);
      this.#operators.set(d.name, list);
    }
  }

  #put<T extends RoutineDef | OperatorDef>(list: T[], d: T, same: (o: T) => boolean): void {
    const i = list.findIndex(same);
    if (i >= 0) {
      this.#oids.delete(list[i]!);
      list[i] = d;
    } else list.push(d);
    this.#oids.set(d, d.oid ?? this.#nextOid++);
  }

  /** Adds (or replaces) pg_cast entries; other modules (catalog: text → regclass, ...) call this too. */
  registerCasts(defs: readonly CastDef[]): void {
    for (const d of defs) this.#casts.set(`${d.source}:${d.target}`, d);
    this.#coercions.clear();
  }

  routines(name: string): readonly RoutineDef[] {
    return this.#routines.get(name.toLowerCase()) ?? [];
  }

  allRoutines(): readonly RoutineDef[] {
    return [...this.#routines.values()].flat();
  }

  operators(name: string): readonly OperatorDef[] {
    return this.#operators.get(name) ?? [];
  }

  allOperators(): readonly OperatorDef[] {
    return [...this.#operators.values()].flat();
  }

  /** pg_proc.oid / pg_operator.oid of a registered definition. */
  oidOf(def: RoutineDef | OperatorDef): number {
    const oid = this.#oids.get(def);
    if (oid === undefined) throw pgError(SqlState.internal_error, `internal error: unregistered routine ${def.name}`);
    return oid;
  }

  /** The pg_cast entry for source → target, if there is one. */
  cast(source: number, target: number): CastDef | undefined {
    return this.#casts.get(`${source}:${target}`);
  }

  allCasts(): readonly CastDef[] {
    return [...this.#casts.values()];
  }

  /**
   * find_coercion_pathway: how to convert source → target in `context`, or undefined if PostgreSQL would
   * refuse. Returns a pg_cast entry, or a synthesized one for binary identity, arrays and I/O conversion.
   * Unknown literals (705) are converted with the target's input function.
   */
  findCoercion(source: number, target: number, context: CastContext): CastDef | undefined {
    const key = `${source}:${target}:${context}`;
    if (this.#coercions.has(key)) return this.#coercions.get(key);
    const c = this.#findCoercion(source, target, context);
    this.#coercions.set(key, c);
    return c;
  }

  #findCoercion(source: number, target: number, context: CastContext): CastDef | undefined {
    if (source === target) return this.cast(source, target) ?? identity(source);
    if (source === Oid.unknown) return ioCoercion(source, target, 'i');
    const c = this.cast(source, target);
    if (c !== undefined) return CONTEXT_RANK[c.context] <= CONTEXT_RANK[context] ? c : undefined;
    const se = elementTypeOf(source);
    const te = elementTypeOf(target);
    if (se !== 0 && te !== 0) {
      const ec = this.findCoercion(se, te, context);
      if (ec !== undefined && ec.method === 'b') return { source, target, context: ec.context, method: 'b', impl: (v) => v };
      return ec === undefined ? undefined : arrayCoercion(source, target, ec);
    }
    const rank = CONTEXT_RANK[context];
    if (rank >= 1 && typeInfo(target)?.typcategory === 'S') return ioCoercion(source, target, 'a');
    if (rank >= 2 && typeInfo(source)?.typcategory === 'S') return ioCoercion(source, target, 'e');
    return undefined;
  }

  /** can_coerce_type for one concrete pair: binary-coercible or a cast allowed in `context`. */
  canCoerce(source: number, target: number, context: CastContext): boolean {
    if (source === target || source === Oid.unknown) return true;
    if (isAnyLike(target)) return true;
    if (target === Oid.record && (source === Oid.record || typeInfo(source)?.typtype === 'c')) return true;
    if (isPolymorphic(target)) {
      if (target === Oid.anyarray || target === Oid.anycompatiblearray) return elementTypeOf(source) !== 0;
      if (target === Oid.anynonarray) return elementTypeOf(source) === 0;
      return true;
    }
    return this.findCoercion(source, target, context) !== undefined;
  }

  readonly #implicit = (s: number, t: number): boolean => this.canCoerce(s, t, 'i');

  /**
   * select_common_type + coerce_to_common_type's check, for UNION/INTERSECT/EXCEPT, CASE, COALESCE,
   * GREATEST/LEAST, VALUES, ARRAY[...] and IN lists: `context` names the construct in the errors
   * (42804 "UNION types integer and text cannot be matched", 42846 "CASE could not convert type ...").
   * All-unknown inputs resolve to text; the typmod survives only when every input has the same one.
   */
  resolveCommonType(types: readonly SqlType[], context: string): SqlType {
    return selectCommonType(types, context, this.#implicit);
  }

  /**
   * ParseFuncOrColumn's lookup (func_get_detail): the routine `name(argTypes...)` resolves to.
   * Throws 42883 (no candidate) or 42725 (ambiguous) with PostgreSQL's wording.
   */
  resolveFunction(name: string, argTypes: readonly SqlType[], options: ResolveOptions = {}): ResolvedFunction {
    const lname = name.toLowerCase();
    if (options.variadicArray === true) return this.#resolveVariadicArray(lname, argTypes);
    const inputs = argTypes.map((t) => t.oid);
    const cands: Candidate<RoutineDef>[] = [];
    for (const def of this.routines(lname)) {
      const expanded = expandArgs(def, inputs.length);
      if (expanded !== undefined) cands.push({ def, args: expanded });
    }
    const coercion = this.#functionStyleCast(lname, argTypes, cands);
    if (coercion !== undefined) return coercion;
    const chosen = this.#choose(inputs, cands);
    if (chosen === 'none') {
      // the cast functions of pg_proc (int4(numeric), text(bool) ...) are served by their casts
      const viaCast = this.#functionStyleCast(lname, argTypes, cands, true);
      if (viaCast !== undefined) return viaCast;
    }
    if (chosen === 'none') {
      throw pgError(SqlState.undefined_function, `function ${lname}(${inputs.map((t) => formatType(t)).join(', ')}) does not exist`, {
        hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
      });
    }
    if (chosen === 'ambiguous') {
      throw pgError(SqlState.ambiguous_function, `function ${lname}(${inputs.map((t) => formatType(t)).join(', ')}) is not unique`, {
        hint: 'Could not choose a best candidate function. You might need to add explicit type casts.',
      });
    }
    const { resolved, returnType } = this.#finish(argTypes, chosen.args, chosen.def.returns);
    return { def: chosen.def, oid: this.oidOf(chosen.def), argTypes: resolved, returnType };
  }

  /** `f(a, VARIADIC arr)`: only VARIADIC routines, matched against their unexpanded declared types. */
  #resolveVariadicArray(name: string, argTypes: readonly SqlType[]): ResolvedFunction {
    const inputs = argTypes.map((t) => t.oid);
    const last = inputs[inputs.length - 1];
    if (last === undefined || (last !== Oid.unknown && elementTypeOf(last) === 0)) {
      throw pgError(SqlState.datatype_mismatch, 'VARIADIC argument must be an array');
    }
    const cands: Candidate<RoutineDef>[] = [];
    for (const def of this.routines(name)) {
      if (def.variadic === undefined || def.args.length !== inputs.length) continue;
      // VARIADIC "any" takes any array as it is
      const args = def.variadic === Oid.any ? [...def.args.slice(0, -1), last] : def.args;
      cands.push({ def, args });
    }
    const chosen = this.#choose(inputs, cands);
    const sig = `${name}(${inputs.map((t) => formatType(t)).join(', ')})`;
    if (chosen === 'none') {
      throw pgError(SqlState.undefined_function, `function ${sig} does not exist`, {
        hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
      });
    }
    if (chosen === 'ambiguous') {
      throw pgError(SqlState.ambiguous_function, `function ${sig} is not unique`, {
        hint: 'Could not choose a best candidate function. You might need to add explicit type casts.',
      });
    }
    const { resolved, returnType } = this.#finish(argTypes, chosen.args, chosen.def.returns);
    return { def: chosen.def, oid: this.oidOf(chosen.def), argTypes: resolved, returnType, variadicArray: true };
  }

  /**
   * func_get_detail's FUNCDETAIL_COERCION: `typename(x)` with one argument is a cast when x is an unknown
   * literal or the cast is binary / via I/O (checked before overload matching, unless a routine matches
   * exactly); `allPaths` also accepts function casts, standing in for pg_proc's cast functions.
   */
  #functionStyleCast(name: string, argTypes: readonly SqlType[], cands: readonly Candidate<RoutineDef>[], allPaths = false): ResolvedFunction | undefined {
    if (argTypes.length !== 1) return undefined;
    const target = typeByName(name);
    if (target === undefined || (target.typname !== name && !(name === 'char' && target.oid === Oid.bpchar))) return undefined;
    const source = argTypes[0]!.oid;
    if (cands.some((c) => c.args[0] === source)) return undefined;
    const path = this.findCoercion(source, target.oid, 'e');
    if (path === undefined) return undefined;
    if (!allPaths && source !== Oid.unknown && path.method === 'f') return undefined;
    const key = `${source}:${target.oid}`;
    let def = this.#castRoutines.get(key);
    if (def === undefined) {
      const returnType = sqlType(target.oid);
      def = {
        kind: 'scalar', name, args: [source], returns: target.oid, volatility: 's',
        impl: (args, ctx) => applyCoercion(this, args[0], argTypes[0]!, returnType, 'e', ctx),
      };
      this.#castRoutines.set(key, def);
      this.#oids.set(def, this.#nextOid++);
    }
    return { def, oid: this.oidOf(def), argTypes: [argTypes[0]!], returnType: sqlType(target.oid) };
  }

  /**
   * oper_select_candidate / binary_oper_exact: resolves `left name right` (left null for prefix operators).
   * An unknown operand facing a known one is first tried as that type. Throws 42883 / 42725.
   */
  resolveOperator(name: string, left: SqlType | null, right: SqlType): ResolvedOperator {
    const prefix = left === null;
    const defs = this.operators(name).filter((d) => (d.left === 0) === prefix);
    const inputs = prefix ? [right.oid] : [left.oid, right.oid];
    let chosen: Candidate<OperatorDef> | 'none' | 'ambiguous' | undefined;
    if (!prefix) {
      let l = left.oid;
      let r = right.oid;
      if (l === Oid.unknown && r !== Oid.unknown) l = r;
      else if (r === Oid.unknown && l !== Oid.unknown) r = l;
      const exact = defs.find((d) => d.left === l && d.right === r);
      if (exact !== undefined) chosen = { def: exact, args: [l, r] };
    }
    if (chosen === undefined) {
      const cands = defs.map((d) => ({ def: d, args: prefix ? [d.right] : [d.left, d.right] }));
      chosen = this.#choose(inputs, cands);
    }
    const shown = (prefix ? '' : formatType(left.oid) + ' ') + name + ' ' + formatType(right.oid);
    if (chosen === 'none') {
      throw pgError(SqlState.undefined_function, `operator does not exist: ${shown}`, {
        // op_error: a prefix operator's hint speaks of one argument
        hint: prefix
          ? 'No operator matches the given name and argument type. You might need to add an explicit type cast.'
          : 'No operator matches the given name and argument types. You might need to add explicit type casts.',
      });
    }
    if (chosen === 'ambiguous') {
      throw pgError(SqlState.ambiguous_function, `operator is not unique: ${shown}`, {
        hint: 'Could not choose a best candidate operator. You might need to add explicit type casts.',
      });
    }
    const actual = prefix ? [right] : [left, right];
    const { resolved, returnType } = this.#finish(actual, chosen.args, chosen.def.returns);
    return {
      def: chosen.def,
      oid: this.oidOf(chosen.def),
      leftType: prefix ? null : resolved[0]!,
      rightType: resolved[prefix ? 0 : 1]!,
      returnType,
    };
  }

  #choose<T>(inputs: readonly number[], cands: readonly Candidate<T>[]): Candidate<T> | 'none' | 'ambiguous' {
    const exact = cands.find((c) => c.args.every((a, i) => a === inputs[i]));
    if (exact !== undefined) return exact;
    const reachable = matchArgTypes(inputs, cands, this.#implicit);
    if (reachable.length === 0) return 'none';
    if (reachable.length === 1) return reachable[0]!;
    const best = selectCandidate(inputs, reachable, this.#implicit);
    return best.length === 1 ? best[0]! : 'ambiguous';
  }

  #finish(actual: readonly SqlType[], declared: readonly number[], returns: RoutineDef['returns']): { resolved: SqlType[]; returnType: SqlType } {
    const poly = declared.some(isPolymorphic) || (typeof returns === 'number' && isPolymorphic(returns));
    const binding = poly ? resolvePolymorphic(actual, declared, this.#implicit) : { elem: 0, compatible: 0 };
    const resolved = declared.map((d, i) => substitute(d, binding, actual[i]));
    let returnType: SqlType;
    if (typeof returns === 'function') returnType = returns(resolved);
    else if (isPolymorphic(returns)) returnType = substitute(returns, binding, undefined);
    else returnType = sqlType(returns);
    return { resolved, returnType };
  }
}

/** The declared types for a call with `n` arguments: defaults may be omitted, VARIADIC expands. */
function expandArgs(def: RoutineDef, n: number): number[] | undefined {
  const declared = def.args.length;
  if (def.variadic !== undefined) {
    // PostgreSQL expands VARIADIC only for calls with at least one variadic argument
    if (n < declared) return undefined;
    const out = def.args.slice(0, declared - 1);
    while (out.length < n) out.push(def.variadic);
    return out;
  }
  const min = declared - (def.defaults ?? 0);
  return n >= min && n <= declared ? def.args.slice(0, n) : undefined;
}

function identity(oid: number): CastDef {
  return { source: oid, target: oid, context: 'i', method: 'b', impl: (v) => v };
}

/** pg_type.typarray of `oid` (0 if none): re-exported for callers building array result types. */
export function arrayOf(oid: number): number {
  return arrayTypeOf(oid);
}
