/**
 * The PostgreSQL 15 functions other catalogs point at, for the registry's operators and casts: pg_operator.oprcode
 * (int4eq, texteq, network_lt …), oprrest / oprjoin (eqsel, scalarltsel …), pg_cast.castfunc (int4(smallint) …),
 * and pg_am.amhandler / pg_range's support functions. Most of them have no callable routine in the registry, so
 * those columns hold PostgreSQL's function OIDs and pg_proc / regproc list the functions' rows from
 * data/pg-linked-procs.ts (psql's \do+ and \dC print them; obj_description(oprcode, 'pg_proc') looks them up).
 * A registry routine of the same name and argument types is that function: its OID is used instead.
 */
import type { CastDef, OperatorDef, RoutineDef } from '../functions/registry-types.ts';
import type { CatalogSnapshot } from './catalog-snapshot.ts';
import { PG_LINKED_PROCS, type LinkedProcRow } from './data/pg-linked-procs.ts';
import { PG_CAST_FACTS, PG_OPERATOR_FACTS, type CastFactsRow, type OperatorFactsRow } from './data/pg-operator-procs.ts';
import { registryLists } from './registry-lists.ts';
import { routineOid } from './routine-oids.ts';

/** a function pg_proc lists because another catalog points at it: PostgreSQL's facts */
export interface LinkedProc {
  readonly oid: number;
  readonly name: string;
  readonly args: readonly number[];
  readonly returns: number;
  readonly volatility: string;
  readonly strict: boolean;
}

/** pg_operator's columns that name functions or planner facts */
export interface OperatorLinks {
  readonly code: number;
  readonly rest: number;
  readonly join: number;
  readonly canMerge: boolean;
  readonly canHash: boolean;
  /** PostgreSQL's commutator operator OID (0 for none) */
  readonly commutator: number;
}

const NO_LINKS: OperatorLinks = { code: 0, rest: 0, join: 0, canMerge: false, canHash: false, commutator: 0 };

let tables: { ops: Map<string, OperatorFactsRow>; casts: Map<string, CastFactsRow>; procs: Map<number, LinkedProcRow> } | undefined;

function pgTables(): NonNullable<typeof tables> {
  if (tables === undefined) {
    tables = { ops: new Map(), casts: new Map(), procs: new Map() };
    for (const r of PG_OPERATOR_FACTS) tables.ops.set(`${r[0]} ${r[1]} ${r[2]}`, r);
    for (const r of PG_CAST_FACTS) tables.casts.set(`${r[0]} ${r[1]}`, r);
    for (const r of PG_LINKED_PROCS) tables.procs.set(r[0], r);
  }
  return tables;
}

const signatureKey = (name: string, args: readonly number[]): string => `${name}(${args.join(',')})`;

/** per routine list: the registry routines by signature (a regproc column's text is looked up per row) */
const bySignature = new WeakMap<readonly RoutineDef[], Map<string, RoutineDef>>();

function registrySignatures(routines: readonly RoutineDef[]): Map<string, RoutineDef> {
  let m = bySignature.get(routines);
  if (m === undefined) {
    m = new Map();
    for (const r of routines) if (!m.has(signatureKey(r.name, r.args))) m.set(signatureKey(r.name, r.args), r);
    bySignature.set(routines, m);
  }
  return m;
}

/** the OID a catalog shows for PostgreSQL's function `oid`: a registry routine's of the same signature, else its own */
function linkedOid(oid: number, snap: CatalogSnapshot, routines: readonly RoutineDef[]): number {
  const pg = oid === 0 ? undefined : pgTables().procs.get(oid);
  if (pg === undefined) return oid;
  const own = registrySignatures(routines).get(signatureKey(pg[1], pg[2]));
  return own === undefined ? oid : routineOid(own, snap.functions);
}

/** the registry routine an operator's procName names, with the operator's argument types */
function registryProc(op: OperatorDef, routines: readonly RoutineDef[]): RoutineDef | undefined {
  if (op.procName === undefined) return undefined;
  return registrySignatures(routines).get(signatureKey(op.procName, op.left === 0 ? [op.right] : [op.left, op.right]));
}

/** pg_operator's oprcode / oprrest / oprjoin / oprcanmerge / oprcanhash / PostgreSQL's oprcom for `op` (its own routine wins for oprcode) */
export function operatorLinks(op: OperatorDef, routines: readonly RoutineDef[], snap: CatalogSnapshot): OperatorLinks {
  const own = registryProc(op, routines);
  const pg = pgTables().ops.get(`${op.name} ${op.left} ${op.right}`);
  if (pg === undefined) return own === undefined ? NO_LINKS : { ...NO_LINKS, code: routineOid(own, snap.functions) };
  return {
    code: own === undefined ? linkedOid(pg[3], snap, routines) : routineOid(own, snap.functions),
    rest: linkedOid(pg[4], snap, routines), join: linkedOid(pg[5], snap, routines), canMerge: pg[6], canHash: pg[7],
    commutator: pg[8],
  };
}

/** PostgreSQL's pg_cast.oid and castfunc for a registry cast, or undefined when PostgreSQL has no such cast */
export function castLinks(cast: CastDef, routines: readonly RoutineDef[], snap: CatalogSnapshot): { oid: number; func: number } | undefined {
  const pg = pgTables().casts.get(`${cast.source} ${cast.target}`);
  return pg === undefined ? undefined : { oid: pg[2], func: linkedOid(pg[3], snap, routines) };
}

/** pg_am's and pg_range's functions: always listed, as those catalogs are static */
const isStaticSupport = (name: string): boolean => name.endsWith('handler') || name.endsWith('_canonical') || name.endsWith('_subdiff');

/**
 * The functions the registry's operators and casts (and pg_am / pg_range) point at that the registry does not
 * list itself, one per OID: the rows pg_proc adds and regproc resolves.
 */
export function linkedProcs(snap: CatalogSnapshot): readonly LinkedProc[] {
  const { routines, operators, key: size } = registryLists(snap);
  // regproc output asks once per value: one list per registry and size
  const owner: object = snap.functions ?? NO_FUNCTIONS;
  const kept = linkedMemo.get(owner);
  if (kept !== undefined && kept.size === size) return kept.procs;
  const made = makeLinkedProcs(snap, routines, operators);
  linkedMemo.set(owner, { size, procs: made });
  return made;
}

const NO_FUNCTIONS = {};
const linkedMemo = new WeakMap<object, { size: string; procs: readonly LinkedProc[] }>();

function makeLinkedProcs(snap: CatalogSnapshot, routines: readonly RoutineDef[], operators: readonly OperatorDef[]): LinkedProc[] {
  const { ops, casts, procs } = pgTables();
  const wanted = new Set<number>();
  for (const op of operators) {
    const pg = ops.get(`${op.name} ${op.left} ${op.right}`);
    if (pg === undefined) continue;
    if (registryProc(op, routines) === undefined) wanted.add(pg[3]);
    wanted.add(pg[4]);
    wanted.add(pg[5]);
  }
  for (const c of registryLists(snap).casts) wanted.add(casts.get(`${c.source} ${c.target}`)?.[3] ?? 0);
  const signatures = registrySignatures(routines);
  const out: LinkedProc[] = [];
  for (const p of procs.values()) {
    if (!wanted.has(p[0]) && !isStaticSupport(p[1])) continue;
    if (signatures.has(signatureKey(p[1], p[2]))) continue;
    out.push({ oid: p[0], name: p[1], args: p[2], returns: p[3], volatility: p[4], strict: p[5] });
  }
  return out;
}
