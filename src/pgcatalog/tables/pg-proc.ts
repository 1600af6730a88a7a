/**
 * pg_proc, pg_aggregate: the routines of the function registry (scalar 'f', set-returning 'f' + proretset,
 * aggregates 'a') plus PostgreSQL's type I/O functions that pg_type's regproc columns point at.
 * @see https://www.postgresql.org/docs/15/catalog-pg-proc.html
 */
import { Oid } from '../../common/pgtypes/index.ts';
import type { RoutineDef } from '../../functions/registry-types.ts';
import { builtinProcDetails } from '../builtin-proc-details.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { PG_IO_PROCS } from '../data/pg-io-procs.ts';
import { linkedProcs } from '../operator-procs.ts';
import { registryLists } from '../registry-lists.ts';
import { declaredReturnType, routineOid } from '../routine-oids.ts';
import type { CatalogRow } from '../system-table.ts';
import { BOOTSTRAP_SUPERUSER_OID, INTERNAL_LANGUAGE_OID, NamespaceOid } from '../well-known-oids.ts';
import { charArray, oidArray, oidvector, textArray } from './vectors.ts';

/**
 * The functions initdb's plpgsql extension creates (pg_language.lanplcallfoid / laninline / lanvalidator, \dL+,
 * \dx+ plpgsql): oid, name, argument types, result type; language C, as builtin-proc-details.ts lists them.
 */
export const PLPGSQL_PROCS: readonly (readonly [number, string, readonly number[], number])[] = [
  [13560, 'plpgsql_call_handler', [], 2280], [13561, 'plpgsql_inline_handler', [2281], 2278], [13562, 'plpgsql_validator', [26], 2278],
];

export function registryRoutines(snap: CatalogSnapshot): readonly RoutineDef[] {
  return registryLists(snap).routines;
}

function base(oid: number, name: string, args: readonly number[], rettype: number): Record<string, unknown> {
  return {
    // information_schema's helper functions (_pg_expandarray & co.) live in that schema
    oid, proname: name, pronamespace: name.startsWith('_pg_') ? NamespaceOid.information_schema : NamespaceOid.pg_catalog, proowner: BOOTSTRAP_SUPERUSER_OID,
    prolang: INTERNAL_LANGUAGE_OID, procost: 1, prorows: 0, provariadic: 0, prosupport: 0, prokind: 'f',
    prosecdef: false, proleakproof: false, proisstrict: true, proretset: false, provolatile: 'i',
    proparallel: 's', pronargs: args.length, pronargdefaults: 0, prorettype: rettype,
    proargtypes: oidvector(args), proallargtypes: null, proargmodes: null, proargnames: null,
    proargdefaults: null, protrftypes: null, prosrc: name, probin: null, prosqlbody: null, proconfig: null,
    proacl: null,
  };
}

function routineRow(def: RoutineDef, snap: CatalogSnapshot): Record<string, unknown> {
  const row = base(routineOid(def, snap.functions), def.name, def.args, declaredReturnType(def.returns, def.args));
  row['prokind'] = def.kind === 'aggregate' ? 'a' : 'f';
  row['proisstrict'] = def.kind === 'aggregate' ? false : def.strict ?? true;
  row['provolatile'] = def.volatility ?? 'i';
  row['pronargdefaults'] = def.defaults ?? 0;
  row['provariadic'] = def.variadic ?? 0;
  // one name per argument ('' for an unnamed one), as PostgreSQL stores them: pgJDBC reads proargnames[i] for each
  const names = def.argNames === undefined ? undefined : def.args.map((_, i) => def.argNames?.[i] ?? '');
  if (names !== undefined) row['proargnames'] = textArray(names);
  if (def.kind === 'set') {
    row['proretset'] = true;
    row['prorows'] = 1000;
    const outs = def.outColumns?.(def.args.map((a) => ({ oid: a, typmod: -1 })));
    if (outs !== undefined && outs.length > 0) {
      // one OUT column: PostgreSQL's prorettype is that column's type (setof regclass), several: record
      row['prorettype'] = outs.length === 1 ? outs[0]!.type.oid : Oid.record;
      row['proallargtypes'] = oidArray([...def.args, ...outs.map((o) => o.type.oid)]);
      row['proargmodes'] = charArray([...def.args.map(() => 'i'), ...outs.map(() => 'o')]);
      row['proargnames'] = textArray([...(names ?? def.args.map(() => '')), ...outs.map((o) => o.name)]);
    }
  }
  return row;
}

/**
 * A built-in's row as PostgreSQL 15 lists it: its language, C symbol or SQL body, volatility (age(timestamptz,
 * timestamptz) is immutable there, stable in the registry, which the planner keeps using), argument names, modes
 * and defaults. The registry's definition still decides how lakegate runs the function.
 */
function withBuiltinDetails(row: Record<string, unknown>): CatalogRow {
  const d = builtinProcDetails(row['oid'] as number);
  if (d === undefined) return row;
  row['prolang'] = d.prolang;
  row['prosrc'] = d.prosrc;
  row['probin'] = d.probin;
  row['prosqlbody'] = d.prosqlbody;
  row['provolatile'] = d.provolatile;
  row['proisstrict'] = d.proisstrict;
  row['proparallel'] = d.proparallel;
  row['procost'] = d.procost;
  row['prorows'] = d.prorows;
  row['prosupport'] = d.prosupport;
  row['prosecdef'] = d.prosecdef;
  row['proleakproof'] = d.proleakproof;
  row['prokind'] = d.prokind;
  row['proretset'] = d.proretset;
  row['pronargdefaults'] = d.pronargdefaults;
  row['proargnames'] = d.proargnames === null ? null : textArray(d.proargnames);
  row['proargmodes'] = d.proargmodes === null ? null : charArray(d.proargmodes);
  row['proallargtypes'] = d.proallargtypes === null ? null : oidArray(d.proallargtypes);
  row['proargdefaults'] = d.argDefaults.length === 0 ? null : d.argDefaults.join(', ');
  return row;
}

export function* pgProcRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  const seen = new Set<number>();
  for (const def of registryRoutines(snap)) {
    const row = routineRow(def, snap);
    if (seen.has(row['oid'] as number)) continue;
    seen.add(row['oid'] as number);
    yield withBuiltinDetails(row);
  }
  for (const [oid, name, args, ret, volatility, strict] of PG_IO_PROCS) {
    if (seen.has(oid)) continue;
    seen.add(oid);
    yield withBuiltinDetails({ ...base(oid, name, args, ret), provolatile: volatility, proisstrict: strict });
  }
  // the functions pg_operator, pg_cast, pg_am and pg_range point at (operator-procs.ts)
  for (const p of linkedProcs(snap)) {
    if (seen.has(p.oid)) continue;
    seen.add(p.oid);
    yield withBuiltinDetails({ ...base(p.oid, p.name, p.args, p.returns), provolatile: p.volatility, proisstrict: p.strict });
  }
  for (const [oid, name, args, ret] of PLPGSQL_PROCS) if (!seen.has(oid)) yield withBuiltinDetails(base(oid, name, args, ret));
}

export function* pgAggregateRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const def of registryRoutines(snap)) {
    if (def.kind !== 'aggregate') continue;
    yield {
      aggfnoid: routineOid(def, snap.functions), aggkind: def.directArgs === undefined ? 'n' : 'o', aggnumdirectargs: def.directArgs ?? 0, aggtransfn: 0, aggfinalfn: 0,
      aggcombinefn: 0, aggserialfn: 0, aggdeserialfn: 0, aggmtransfn: 0, aggminvtransfn: 0, aggmfinalfn: 0,
      aggfinalextra: false, aggmfinalextra: false, aggfinalmodify: 'r', aggmfinalmodify: 'r', aggsortop: 0,
      aggtranstype: declaredReturnType(def.returns, def.args), aggtransspace: 0, aggmtranstype: 0,
      aggmtransspace: 0, agginitval: null, aggminitval: null,
    };
  }
}
