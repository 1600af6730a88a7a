/**
 * Bound expressions across threads. A bound Expr (sql/logical/expr.ts) holds function objects — its
 * functions', operators' and aggregates' `def`s and a Cast's `fn` closure — which structured clone refuses,
 * so a worker receives a wire form: each `def` as its signature (`r:sum(1700)`, `o:*(1700,1700)`), re-resolved
 * in the worker against the built-in registry (functions/index.ts createRegistry: the same module-level def
 * objects), each Cast as its source and target types (the registry's coercion pathway, found again),
 * literals through cloneable.ts (Numerics).
 * Only what a worker can evaluate on its own is encoded: built-in, non-volatile functions (stable ones read
 * the settings snapshot the worker gets), no subqueries, no outer references; anything else → NotWireable,
 * and the aggregate stays on the main thread.
 */
import { Oid } from '../../common/pgtypes/oids.ts';
import { createRegistry, getDefaultRegistry, type FunctionRegistry } from '../../functions/index.ts';
import type { AggregateDef, CastDef, OperatorDef, RoutineDef } from '../../functions/registry-types.ts';
import type { CastFn } from '../../sql/binder/function-registry.ts';
import type { Expr } from '../../sql/index.ts';
import { fromCloneable, toCloneable } from '../../iceberg/parallel/cloneable.ts';
import { packKeys, unpackKeys } from '../../iceberg/parallel/key-list-wire.ts';
import { isPgArray, type PgArray } from '../../common/pgtypes/values.ts';

/** an expression a worker could not evaluate the same way */
export class NotWireable extends Error {}

type Def = RoutineDef | OperatorDef;

const isOperator = (d: Def): d is OperatorDef => 'left' in d && 'right' in d && !('kind' in d);

export function defKey(d: Def): string {
  return isOperator(d) ? `o:${d.name}(${d.left},${d.right})` : `r:${d.kind}:${d.name}(${d.args.join(',')})`;
}

let builtins: Map<string, Def> | undefined;
let builtinRegistry: FunctionRegistry | undefined;

/** the built-in registry, by signature (built once per thread) */
function builtinDefs(): { readonly defs: Map<string, Def>; readonly registry: FunctionRegistry } {
  if (builtins === undefined || builtinRegistry === undefined) {
    builtinRegistry = createRegistry();
    builtins = new Map();
    for (const d of builtinRegistry.allRoutines()) builtins.set(defKey(d), d);
    for (const d of builtinRegistry.allOperators()) builtins.set(defKey(d), d);
  }
  return { defs: builtins, registry: builtinRegistry };
}

/** the built-in def with this signature (worker side) */
export function defOfKey(key: string): Def {
  const d = builtinDefs().defs.get(key);
  if (d === undefined) throw new NotWireable(`no built-in ${key}`);
  return d;
}

export function aggregateOfKey(key: string): AggregateDef {
  const d = defOfKey(key);
  if (isOperator(d) || d.kind !== 'aggregate') throw new NotWireable(`${key} is not an aggregate`);
  return d;
}

/** main side: the key of a built-in def, or NotWireable for session-registered or volatile ones */
export function keyOfBuiltin(d: Def): string {
  const key = defKey(d);
  if (builtinDefs().defs.get(key) !== d) throw new NotWireable(`${key} is not a built-in`);
  if (!isOperator(d) && d.volatility === 'v') throw new NotWireable(`${key} is volatile`);
  return key;
}

/** casts whose conversion depends on CAST vs. implicit (varchar(n) / bpchar(n) truncation) are not re-derived */
const EXPLICIT_SENSITIVE = new Set<number>([Oid.varchar, Oid.bpchar, Oid._varchar, Oid._bpchar]);

interface WireCast { readonly source: number; readonly target: number; readonly self: boolean }

/** the registry's pathway for a cast (what the binder's coerce.ts chose, for the casts allowed here) */
function castPath(reg: FunctionRegistry, c: WireCast): CastDef | undefined {
  if (c.self) return reg.cast(c.source, c.target);
  if (c.source === Oid.unknown) {
    const viaText = reg.cast(Oid.text, c.target);
    if (viaText !== undefined && viaText.method === 'f') return viaText;
  }
  return reg.findCoercion(c.source, c.target, 'e');
}

function encodeCast(e: Extract<Expr, { kind: 'Cast' }>): WireCast | null {
  if (e.fn === null) return null;
  if (EXPLICIT_SENSITIVE.has(e.type.oid)) throw new NotWireable('length-coercing cast');
  const c: WireCast = { source: e.arg.type.oid, target: e.type.oid, self: e.arg.type.oid === e.type.oid };
  // the session's registry may carry other casts (pg_catalog's regclass & co.): those stay on the main thread
  const mine = getDefaultRegistry();
  const builtin = builtinDefs().registry;
  for (const s of [c.source, Oid.text]) {
    if (mine.cast(s, c.target) !== builtin.cast(s, c.target)) throw new NotWireable('cast registered by the session');
  }
  if (castPath(builtinDefs().registry, c) === undefined) throw new NotWireable('no cast pathway');
  return c;
}

/** one closure per cast (compile-shared.ts shares repeated casts by their function's identity) */
const castFns = new Map<string, CastFn>();

function decodeCast(c: WireCast | null): CastFn | null {
  if (c === null) return null;
  const key = `${c.source}:${c.target}:${c.self}`;
  const known = castFns.get(key);
  if (known !== undefined) return known;
  const path = castPath(builtinDefs().registry, c);
  if (path === undefined) throw new NotWireable(`no cast ${c.source} → ${c.target}`);
  const fn: CastFn = (v, typmod, ctx) => path.impl(v, typmod, ctx, true);
  castFns.set(key, fn);
  return fn;
}

const REFUSED = new Set(['Subquery', 'Aggregate', 'WindowFunc', 'SetCall', 'Grouping']);

function isNode(v: unknown): v is Expr {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { kind?: unknown }).kind === 'string';
}

function encodeAny(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(encodeAny);
  if (isNode(v)) return encodeExpr(v);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = encodeAny(x);
    return out;
  }
  if (typeof v === 'function') throw new NotWireable('function value');
  return v;
}

/** The wire form of a bound expression; throws NotWireable. */
export function encodeExpr(e: Expr): unknown {
  if (REFUSED.has(e.kind)) throw new NotWireable(`${e.kind} in a worker fragment`);
  if (e.kind === 'ColumnRef' && e.levelsUp !== 0) throw new NotWireable('outer reference');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (k === 'def') out[k] = keyOfBuiltin(v as Def);
    else if (k === 'fn' && e.kind === 'Cast') out[k] = encodeCast(e);
    else if (k === 'value' && e.kind === 'Literal') out[k] = keyListLiteral(v) ?? toCloneable(v);
    else out[k] = encodeAny(v);
  }
  return out;
}

/**
 * a runtime key filter's array literal (an integer key list: exec/runtime-key-filter.ts) as one shared typed array,
 * kept per worker by digest (iceberg/parallel/key-list-wire.ts): each task's Filter gets the same array, and the
 * set its IN probe builds on it (exec/in-list-set.ts) is built once per worker and list, not per task
 */
function keyListLiteral(v: unknown): unknown {
  if (!isPgArray(v)) return undefined;
  const packed = packKeys(v.values, false);
  return packed === null ? undefined : { $keyArray: { ...v, values: packed } };
}

function fromKeyListLiteral(v: unknown): PgArray | undefined {
  const a = typeof v === 'object' && v !== null ? (v as { $keyArray?: PgArray }).$keyArray : undefined;
  if (a === undefined) return undefined;
  const values = unpackKeys(a.values);
  return values === null ? undefined : { ...a, values };
}

function decodeAny(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeAny);
  if (isNode(v)) return decodeExpr(v);
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = decodeAny(x);
    return out;
  }
  return v;
}

/** The bound expression of a wire form (worker side). */
export function decodeExpr(w: unknown): Expr {
  const node = w as Record<string, unknown> & { kind: string };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'def') out[k] = defOfKey(v as string);
    else if (k === 'fn' && node.kind === 'Cast') out[k] = decodeCast(v as WireCast | null);
    else if (k === 'value' && node.kind === 'Literal') out[k] = fromKeyListLiteral(v) ?? fromCloneable(v);
    else out[k] = decodeAny(v);
  }
  return out as unknown as Expr;
}
