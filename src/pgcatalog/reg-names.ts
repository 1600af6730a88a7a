/**
 * Input and output of the OID alias types (regclass, regtype, regproc, regprocedure, regoper, regoperator,
 * regnamespace, regrole): name ⇄ OID through the catalog snapshot, with PostgreSQL's errors and its printing
 * rules (schema-qualified only when not visible on the search path; unknown OIDs print as the number; 0 as '-').
 * @see https://www.postgresql.org/docs/15/datatype-oid.html
 */
import { GatewayError } from '../common/errors.ts';
import { Oid, allTypes, formatType, typeByName, typeInfo } from '../common/pgtypes/index.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { OperatorDef, RoutineDef } from '../functions/registry-types.ts';
import type { CatalogSnapshot } from './catalog-snapshot.ts';
import { quoteIdent } from './catalog-snapshot.ts';
import { PG_IO_PROCS } from './data/pg-io-procs.ts';
import { linkedProcs } from './operator-procs.ts';
import { formatOtherType, otherType, otherTypeByName } from './other-types.ts';
import { registryLists } from './registry-lists.ts';
import { operatorOid, routineOid } from './routine-oids.ts';
import { PLPGSQL_PROCS } from './tables/pg-proc.ts';
import { textSearchObjectName, textSearchObjectOid } from './tables/text-search-catalogs.ts';
import { relationIndexes, type PrimaryKeyIndex } from './tables/relation-indexes.ts';
import { rowTypeArrayOid } from './well-known-oids.ts';

/** Splits a possibly qualified, possibly quoted name: 'Sales."My T"' → ['sales', 'My T'] (unquoted parts fold to lower case). */
export function parseQualifiedName(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  const s = text.trim();
  for (;;) {
    while (s[i] === ' ') i++;
    let part = '';
    if (s[i] === '"') {
      i++;
      for (;;) {
        if (i >= s.length) throw invalidName(text);
        if (s[i] === '"') {
          if (s[i + 1] === '"') { part += '"'; i += 2; continue; }
          i++;
          break;
        }
        part += s[i++];
      }
    } else {
      const start = i;
      while (i < s.length && s[i] !== '.' && s[i] !== ' ') i++;
      part = s.slice(start, i).toLowerCase();
    }
    if (part === '') throw invalidName(text);
    parts.push(part);
    while (s[i] === ' ') i++;
    if (i >= s.length) return parts;
    if (s[i] !== '.') throw invalidName(text);
    i++;
  }
}

function invalidName(text: string): GatewayError {
  return new GatewayError(SqlState.invalid_name, `invalid name syntax`, { detail: text });
}

const NUMERIC = /^\s*\d+\s*$/;

function relationParts(text: string, snap: CatalogSnapshot): [string | undefined, string] {
  const parts = parseQualifiedName(text);
  if (parts.length > 3) throw new GatewayError(SqlState.syntax_error, `improper relation name (too many dotted names): ${text}`);
  if (parts.length === 3 && parts[0] !== snap.catalog.database) {
    throw new GatewayError(SqlState.feature_not_supported, `cross-database references are not implemented: ${text}`);
  }
  return parts.length === 1 ? [undefined, parts[0]!] : [parts[parts.length - 2]!, parts[parts.length - 1]!];
}

/** regclassin; `missingOk` gives to_regclass's null instead of 42P01. */
export function regclassIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const [schema, name] = relationParts(text, snap);
  if (schema !== undefined && snap.schemaByName(schema) === undefined) {
    if (missingOk) return null;
    throw new GatewayError(SqlState.invalid_schema_name, `schema "${schema}" does not exist`);
  }
  const rel = schema === undefined ? snap.lookupRelation(name) : snap.findRelation(schema, name);
  if (rel !== undefined) return rel.oid;
  const index = findPrimaryKeyIndex(snap, schema, name);
  if (index !== undefined) return index.oid;
  if (missingOk) return null;
  throw new GatewayError(SqlState.undefined_table, `relation "${schema === undefined ? name : `${schema}.${name}`}" does not exist`);
}

/** The synthesized primary-key indexes are relations too ('t_pkey'::regclass). */
function findPrimaryKeyIndex(snap: CatalogSnapshot, schema: string | undefined, name: string): PrimaryKeyIndex | undefined {
  const path = schema === undefined ? snap.effectiveSearchPath() : [schema];
  for (const s of path) {
    const found = relationIndexes(snap).find((p) => p.rel.schema === s && p.name === name);
    if (found !== undefined) return found;
  }
  return undefined;
}

export function regclassOut(oid: number, snap: CatalogSnapshot): string {
  if (oid === 0) return '-';
  const rel = snap.relationByOid(oid);
  if (rel === undefined) {
    const index = relationIndexes(snap).find((p) => p.oid === oid);
    if (index === undefined) return String(oid);
    const visible = findPrimaryKeyIndex(snap, undefined, index.name)?.oid === oid;
    return visible ? quoteIdent(index.name) : `${quoteIdent(index.rel.schema)}.${quoteIdent(index.name)}`;
  }
  return snap.isRelationVisible(rel) ? quoteIdent(rel.name) : snap.qualifiedName(rel);
}

export function regtypeIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const t = typeByName(text);
  if (t !== undefined) return t.oid;
  // a catalog row type's array: 'pg_class[]'
  if (text.trim().endsWith('[]')) {
    const element = regtypeIn(text.trim().slice(0, -2), snap, true);
    const arrayOid = element === null ? 0 : typeInfo(element)?.typarray ?? (otherType(element)?.['typarray'] as number | undefined) ?? 0;
    if (arrayOid !== 0) return arrayOid;
    const ofRel = element === null ? undefined : snap.relations.find((r) => r.rowTypeOid === element);
    if (ofRel !== undefined && rowTypeArrayOid(ofRel) !== 0) return rowTypeArrayOid(ofRel);
  }
  try {
    // PostgreSQL's types the registry lacks: 'point', 'information_schema.cardinal_number'
    const other = otherTypeByName(parseQualifiedName(text));
    if (other !== undefined) return other;
    const [schema, name] = relationParts(text, snap);
    const rel = schema === undefined ? snap.lookupRelation(name) : snap.findRelation(schema, name);
    // indexes and sequences have no row type
    if (rel !== undefined && rel.rowTypeOid !== 0 && rel.kind !== 'i' && rel.kind !== 'S') return rel.rowTypeOid;
    // a catalog row type's array by initdb's name: '_pg_class'
    const elementName = name.startsWith('_') ? name.slice(1) : undefined;
    const ofRel = elementName === undefined ? undefined : schema === undefined ? snap.lookupRelation(elementName) : snap.findRelation(schema, elementName);
    if (ofRel !== undefined && rowTypeArrayOid(ofRel) !== 0) return rowTypeArrayOid(ofRel);
  } catch {
    // not a relation name either
  }
  if (missingOk) return null;
  throw new GatewayError(SqlState.undefined_object, `type "${text.trim()}" does not exist`);
}

export function regtypeOut(oid: number, snap: CatalogSnapshot): string {
  if (oid === 0) return '-';
  if (typeInfo(oid) !== undefined) return formatType(oid);
  // an array type the type registry does not list (regconfig[], xid8[]): its element's name and []
  const element = allTypes().find((t) => t.typarray === oid);
  if (element !== undefined) return `${formatType(element.oid)}[]`;
  const other = formatOtherType(oid);
  if (other !== undefined) return other;
  const rel = snap.relations.find((r) => r.rowTypeOid === oid);
  if (rel !== undefined) return snap.isRelationVisible(rel) ? quoteIdent(rel.name) : snap.qualifiedName(rel);
  const arrayOf = snap.relations.find((r) => rowTypeArrayOid(r) === oid);
  if (arrayOf === undefined) return String(oid);
  return `${snap.isRelationVisible(arrayOf) ? quoteIdent(arrayOf.name) : snap.qualifiedName(arrayOf)}[]`;
}

interface ProcEntry { readonly oid: number; readonly name: string; readonly args: readonly number[] }

interface ProcIndex {
  readonly entries: readonly ProcEntry[];
  readonly byOid: ReadonlyMap<number, ProcEntry>;
  /** how many functions share each name (regprocout qualifies an overloaded one) */
  readonly nameCount: ReadonlyMap<string, number>;
}

/** per registry and its size: regproc / regprocedure output looks a function up once per value */
const procIndexMemo = new WeakMap<object, { size: string; index: ProcIndex }>();
const NO_FUNCTIONS = {};

function procIndex(snap: CatalogSnapshot): ProcIndex {
  const routines: readonly RoutineDef[] = registryLists(snap).routines;
  const linked = linkedProcs(snap);
  const owner: object = snap.functions ?? NO_FUNCTIONS;
  const size = `${routines.length}:${linked.length}`;
  const kept = procIndexMemo.get(owner);
  if (kept !== undefined && kept.size === size) return kept.index;
  const entries: ProcEntry[] = [];
  const byOid = new Map<number, ProcEntry>();
  const add = (e: ProcEntry): void => { if (!byOid.has(e.oid)) { byOid.set(e.oid, e); entries.push(e); } };
  for (const r of routines) add({ oid: routineOid(r, snap.functions), name: r.name, args: r.args });
  for (const [oid, name, args] of PG_IO_PROCS) add({ oid, name, args });
  for (const p of linked) add(p);
  for (const [oid, name, args] of PLPGSQL_PROCS) add({ oid, name, args });
  const nameCount = new Map<string, number>();
  for (const e of entries) nameCount.set(e.name, (nameCount.get(e.name) ?? 0) + 1);
  const index = { entries, byOid, nameCount };
  procIndexMemo.set(owner, { size, index });
  return index;
}

function procEntries(snap: CatalogSnapshot): readonly ProcEntry[] {
  return procIndex(snap).entries;
}

function procName(text: string): string {
  const parts = parseQualifiedName(text);
  if (parts.length > 2 || (parts.length === 2 && parts[0] !== 'pg_catalog')) {
    throw new GatewayError(SqlState.undefined_function, `function "${text.trim()}" does not exist`);
  }
  return parts[parts.length - 1]!;
}

export function regprocIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const name = procName(text);
  const matches = procEntries(snap).filter((p) => p.name === name);
  if (matches.length === 1) return matches[0]!.oid;
  if (missingOk) return null;
  if (matches.length > 1) throw new GatewayError(SqlState.ambiguous_function, `more than one function named "${text.trim()}"`);
  throw new GatewayError(SqlState.undefined_function, `function "${text.trim()}" does not exist`);
}

export function regprocOut(oid: number, snap: CatalogSnapshot): string {
  if (oid === 0) return '-';
  const index = procIndex(snap);
  const p = index.byOid.get(oid);
  if (p === undefined) return String(oid);
  // regprocout qualifies a name regprocin would not resolve to this function alone: an overloaded name, or
  // information_schema's helpers (outside the search path)
  if (p.name.startsWith('_pg_')) return `information_schema.${quoteIdent(p.name)}`;
  return (index.nameCount.get(p.name) ?? 0) > 1 ? `pg_catalog.${quoteIdent(p.name)}` : quoteIdent(p.name);
}

/** 'name(type, type)' → OID */
export function regprocedureIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const m = /^\s*(.+?)\s*\((.*)\)\s*$/s.exec(text);
  if (m === null) {
    if (missingOk) return null;
    throw new GatewayError(SqlState.invalid_text_representation, `expected a left parenthesis`);
  }
  const name = procName(m[1]!);
  const argText = m[2]!.trim();
  const args = argText === '' ? [] : argText.split(',').map((a) => regtypeIn(a.trim(), snap, missingOk));
  const found = args.includes(null) ? undefined : procEntries(snap).find((p) => p.name === name && p.args.length === args.length && p.args.every((a, i) => a === args[i]));
  if (found !== undefined) return found.oid;
  if (missingOk) return null;
  throw new GatewayError(SqlState.undefined_function, `function "${text.trim()}" does not exist`);
}

export function regprocedureOut(oid: number, snap: CatalogSnapshot): string {
  if (oid === 0) return '-';
  const p = procIndex(snap).byOid.get(oid);
  if (p === undefined) return String(oid);
  // format_procedure: a quoted name ("numeric"(integer)), qualified when outside the search path
  return `${p.name.startsWith('_pg_') ? 'information_schema.' : ''}${quoteIdent(p.name)}(${p.args.map((a) => formatType(a)).join(',')})`;
}

function operators(snap: CatalogSnapshot): readonly OperatorDef[] {
  return registryLists(snap).operators;
}

export function regoperIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const name = text.trim().replace(/^pg_catalog\./, '');
  const matches = operators(snap).filter((o) => o.name === name);
  if (matches.length === 1) return operatorOid(matches[0]!, snap.functions);
  if (missingOk) return null;
  if (matches.length > 1) throw new GatewayError(SqlState.ambiguous_function, `more than one operator named ${name}`);
  throw new GatewayError(SqlState.undefined_function, `operator does not exist: ${name}`);
}

export function regoperOut(oid: number, snap: CatalogSnapshot, withArgs: boolean): string {
  if (oid === 0) return withArgs ? '0' : '0';
  const op = operators(snap).find((o) => operatorOid(o, snap.functions) === oid);
  if (op === undefined) return String(oid);
  // regoperout qualifies a name several operators share, as OpernameGetCandidates would not single it out
  if (!withArgs) return operators(snap).filter((o) => o.name === op.name).length > 1 ? `pg_catalog.${op.name}` : op.name;
  return `${op.name}(${op.left === 0 ? 'NONE' : formatType(op.left)},${formatType(op.right)})`;
}

export function regoperatorIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const m = /^\s*(\S+?)\s*\(\s*(.+?)\s*,\s*(.+?)\s*\)\s*$/.exec(text);
  const found = m === null ? undefined : operators(snap).find((o) => {
    const left = m[2]!.toLowerCase() === 'none' ? 0 : regtypeIn(m[2]!, snap, true);
    return o.name === m[1] && o.left === left && o.right === regtypeIn(m[3]!, snap, true);
  });
  if (found !== undefined) return operatorOid(found, snap.functions);
  if (missingOk) return null;
  throw new GatewayError(SqlState.undefined_function, `operator does not exist: ${text.trim()}`);
}

export function regnamespaceIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const parts = parseQualifiedName(text);
  if (parts.length !== 1) throw new GatewayError(SqlState.invalid_name, `invalid name syntax`);
  const s = snap.schemaByName(parts[0]!);
  if (s !== undefined) return s.oid;
  if (missingOk) return null;
  throw new GatewayError(SqlState.invalid_schema_name, `schema "${parts[0]}" does not exist`);
}

export function regnamespaceOut(oid: number, snap: CatalogSnapshot): string {
  if (oid === 0) return '-';
  const s = snap.schemaByOid(oid);
  return s === undefined ? String(oid) : quoteIdent(s.name);
}

export function regroleIn(text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  if (NUMERIC.test(text)) return Number(text);
  const parts = parseQualifiedName(text);
  if (parts.length !== 1) throw new GatewayError(SqlState.invalid_name, `invalid name syntax`);
  const r = snap.roles().find((x) => x.name === parts[0]);
  if (r !== undefined) return r.oid;
  if (missingOk) return null;
  throw new GatewayError(SqlState.undefined_object, `role "${parts[0]}" does not exist`);
}

export function regroleOut(oid: number, snap: CatalogSnapshot): string {
  if (oid === 0) return '-';
  const r = snap.roles().find((x) => x.oid === oid);
  return r === undefined ? String(oid) : quoteIdent(r.name);
}

/** The reg* type OIDs this module handles. */
export const REG_TYPES = [Oid.regclass, Oid.regtype, Oid.regproc, Oid.regprocedure, Oid.regoper, Oid.regoperator, Oid.regnamespace, Oid.regrole, Oid.regconfig, Oid.regdictionary] as const;

/** Text input of any reg* type. */
export function regIn(typeOid: number, text: string, snap: CatalogSnapshot, missingOk = false): number | null {
  switch (typeOid) {
    case Oid.regclass: return regclassIn(text, snap, missingOk);
    case Oid.regtype: return regtypeIn(text, snap, missingOk);
    case Oid.regproc: return regprocIn(text, snap, missingOk);
    case Oid.regprocedure: return regprocedureIn(text, snap, missingOk);
    case Oid.regoper: return regoperIn(text, snap, missingOk);
    case Oid.regoperator: return regoperatorIn(text, snap, missingOk);
    case Oid.regnamespace: return regnamespaceIn(text, snap, missingOk);
    case Oid.regrole: return regroleIn(text, snap, missingOk);
    case Oid.regconfig: case Oid.regdictionary: {
      if (NUMERIC.test(text)) return Number(text);
      const kind = typeOid === Oid.regconfig ? 'config' : 'dict';
      const oid = textSearchObjectOid(kind, text);
      if (oid !== undefined || missingOk) return oid ?? null;
      throw new GatewayError(SqlState.undefined_object, `text search ${kind === 'config' ? 'configuration' : 'dictionary'} "${text}" does not exist`);
    }
    default: return Number(text);
  }
}

/** Text output of any reg* type (PostgreSQL prints names, not numbers). */
export function regOut(typeOid: number, oid: number, snap: CatalogSnapshot): string {
  switch (typeOid) {
    case Oid.regclass: return regclassOut(oid, snap);
    case Oid.regtype: return regtypeOut(oid, snap);
    case Oid.regproc: return regprocOut(oid, snap);
    case Oid.regprocedure: return regprocedureOut(oid, snap);
    case Oid.regoper: return regoperOut(oid, snap, false);
    case Oid.regoperator: return regoperOut(oid, snap, true);
    case Oid.regnamespace: return regnamespaceOut(oid, snap);
    case Oid.regrole: return regroleOut(oid, snap);
    case Oid.regconfig: return textSearchObjectName('config', oid) ?? String(oid);
    case Oid.regdictionary: return textSearchObjectName('dict', oid) ?? String(oid);
    default: return String(oid);
  }
}
