/**
 * pg_get_function_arguments / _identity_arguments / _result and pg_get_functiondef: printed from pg_proc's own row
 * of the function (argument names, modes, defaults; for built-ins PostgreSQL's, builtin-proc-details.ts), the way
 * PostgreSQL's ruleutils.c prints them. The rows are indexed by OID once per function registry, so psql's \df+ (one
 * call per listed function) looks each up in a map instead of scanning every routine.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/ruleutils.c (print_function_arguments)
 */
import { isPgArray } from '../common/pgtypes/index.ts';
import type { CatalogSnapshot } from './catalog-snapshot.ts';
import { quoteIdent } from './catalog-snapshot.ts';
import type { CatalogRow } from './system-table.ts';
import { registryLists } from './registry-lists.ts';
import { pgProcRows } from './tables/pg-proc.ts';
import { builtinProcDetails, splitTopLevel } from './builtin-proc-details.ts';
import { NamespaceOid } from './well-known-oids.ts';

/** what printing a function's arguments and result needs from its pg_proc row */
export interface ProcSignature {
  readonly row: CatalogRow;
  readonly name: string;
  /** every argument's type: proallargtypes, else proargtypes */
  readonly argTypes: readonly number[];
  readonly modes: readonly string[] | null;
  readonly names: readonly string[] | null;
  readonly inputCount: number;
  readonly defaults: readonly string[];
  /** an ordered-set aggregate's direct arguments, printed before ORDER BY */
  readonly orderedSetDirectArgs: number | null;
}

const arrayValues = <T>(v: unknown): T[] | null => (isPgArray(v) ? (v.values as T[]) : null);

function signatureOf(row: CatalogRow): ProcSignature {
  const inputs = arrayValues<number>(row['proargtypes']) ?? [];
  const oid = row['oid'] as number;
  const defaults = row['proargdefaults'];
  return {
    row, name: row['proname'] as string,
    argTypes: arrayValues<number>(row['proallargtypes']) ?? inputs,
    modes: arrayValues<string>(row['proargmodes']),
    names: arrayValues<string>(row['proargnames']),
    inputCount: inputs.length,
    defaults: typeof defaults === 'string' ? splitTopLevel(defaults) : [],
    orderedSetDirectArgs: builtinProcDetails(oid)?.orderedSetDirectArgs ?? null,
  };
}

/** per registry and its size, as procIndex and the description rows: the routines do not change while it lives */
const memo = new WeakMap<object, { size: string; byOid: ReadonlyMap<number, ProcSignature> }>();
const NO_FUNCTIONS = {};

/** the pg_proc row of function `oid` with its printable signature */
export function procSignature(snap: CatalogSnapshot, oid: number): ProcSignature | undefined {
  const owner: object = snap.functions ?? NO_FUNCTIONS;
  const size = registryLists(snap).key;
  let kept = memo.get(owner);
  if (kept === undefined || kept.size !== size) {
    const byOid = new Map<number, ProcSignature>();
    for (const row of pgProcRows(snap)) byOid.set(row['oid'] as number, signatureOf(row));
    kept = { size, byOid };
    memo.set(owner, kept);
  }
  return kept.byOid.get(oid);
}

const MODE_NAMES: Readonly<Record<string, string>> = { i: '', b: 'INOUT ', o: 'OUT ', v: 'VARIADIC ', t: '' };

/**
 * print_function_arguments: `name type` per argument, OUT / INOUT / VARIADIC marked, ` DEFAULT expr` on the
 * defaulted inputs when `withDefaults`, TABLE columns only (for the result) when `tableColumns`
 */
export function functionArguments(sig: ProcSignature, formatType: (oid: number) => string, withDefaults: boolean,
  tableColumns = false): { text: string; printed: number } {
  const isProcedure = sig.row['prokind'] === 'p';
  const lackDefaults = sig.inputCount - sig.defaults.length;
  const orderByAt = sig.orderedSetDirectArgs ?? -1;
  let text = '';
  let printed = 0;
  let inputNo = 0;
  let defaults = withDefaults;
  for (let i = 0; i < sig.argTypes.length; i++) {
    const mode = sig.modes?.[i] ?? 'i';
    const isInput = mode === 'i' || mode === 'b' || mode === 'v';
    if (isInput) inputNo++;
    if (tableColumns !== (mode === 't')) continue;
    if (printed === orderByAt) text += `${printed > 0 ? ' ' : ''}ORDER BY `;
    else if (printed > 0) text += ', ';
    text += mode === 'i' && isProcedure ? 'IN ' : MODE_NAMES[mode] ?? '';
    const name = sig.names?.[i];
    if (name !== undefined && name !== '') text += `${quoteIdent(name)} `;
    text += formatType(sig.argTypes[i]!);
    if (defaults && isInput && inputNo > lackDefaults) text += ` DEFAULT ${sig.defaults[inputNo - lackDefaults - 1]}`;
    printed++;
    // PostgreSQL prints a variadic ordered-set aggregate's last argument twice: `VARIADIC "any" ORDER BY VARIADIC "any"`
    if (printed === orderByAt && i === sig.argTypes.length - 1) {
      i--;
      defaults = false;
    }
  }
  return { text, printed };
}

/** print_function_rettype: `TABLE(a integer, …)`, `SETOF type` or the type */
export function functionResult(sig: ProcSignature, formatType: (oid: number) => string): string {
  const retset = sig.row['proretset'] === true;
  if (retset) {
    const table = functionArguments(sig, formatType, false, true);
    if (table.printed > 0) return `TABLE(${table.text})`;
  }
  return `${retset ? 'SETOF ' : ''}${formatType(sig.row['prorettype'] as number)}`;
}

const LANGUAGES: Readonly<Record<number, string>> = { 12: 'internal', 13: 'c', 14: 'sql', 13563: 'plpgsql' };
const VOLATILITY: Readonly<Record<string, string>> = { i: ' IMMUTABLE', s: ' STABLE', v: '' };
const PARALLEL: Readonly<Record<string, string>> = { s: ' PARALLEL SAFE', r: ' PARALLEL RESTRICTED', u: '' };

/** pg_get_functiondef: CREATE OR REPLACE FUNCTION … as pg_dump and psql's \ef / \sf show it */
export function functionDefinition(sig: ProcSignature, formatType: (oid: number) => string, procName: (oid: number) => string): string {
  const r = sig.row;
  const isFunction = r['prokind'] !== 'p';
  const schema = r['pronamespace'] === NamespaceOid.information_schema ? 'information_schema' : 'pg_catalog';
  let out = `CREATE OR REPLACE ${isFunction ? 'FUNCTION' : 'PROCEDURE'} ${quoteIdent(schema)}.${quoteIdent(sig.name)}(`;
  out += `${functionArguments(sig, formatType, true).text})\n`;
  if (isFunction) out += ` RETURNS ${functionResult(sig, formatType)}\n`;
  const lang = r['prolang'] as number;
  out += ` LANGUAGE ${quoteIdent(LANGUAGES[lang] ?? String(lang))}\n`;
  let options = r['prokind'] === 'w' ? ' WINDOW' : '';
  options += VOLATILITY[r['provolatile'] as string] ?? '';
  options += PARALLEL[r['proparallel'] as string] ?? '';
  if (r['proisstrict'] === true) options += ' STRICT';
  if (r['prosecdef'] === true) options += ' SECURITY DEFINER';
  if (r['proleakproof'] === true) options += ' LEAKPROOF';
  const cost = r['procost'] as number;
  if (cost !== (lang === 12 || lang === 13 ? 1 : 100)) options += ` COST ${cost}`;
  const rows = r['prorows'] as number;
  if (rows > 0 && rows !== 1000) options += ` ROWS ${rows}`;
  const support = r['prosupport'] as number;
  if (support !== 0) options += ` SUPPORT ${procName(support)}`;
  if (options !== '') out += `${options}\n`;
  const body = r['prosqlbody'];
  if (lang === 14 && typeof body === 'string') return `${out}${body}\n`;
  out += 'AS ';
  const probin = r['probin'];
  if (typeof probin === 'string') out += `'${probin.replace(/'/g, "''")}', `;
  const src = r['prosrc'] as string;
  let quote = `$${isFunction ? 'function' : 'procedure'}`;
  while (src.includes(quote)) quote += 'x';
  quote += '$';
  return `${out}${quote}${src}${quote}\n`;
}
