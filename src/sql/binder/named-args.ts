/**
 * Named and mixed call notation: `make_interval(days => 10)`, `make_timestamptz(2024, 7, 1, hour := 12, ...)`.
 * The arguments are put in positional order for each candidate whose pg_proc.proargnames (the registry's
 * argNames) name them; a skipped parameter must have a default, filled in from argDefaults. PostgreSQL's
 * rules: positional arguments first, each name once, a name may not repeat a positional parameter.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/parser/parse_func.c (ParseFuncOrColumn)
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/catalog/namespace.c (MatchNamedCall)
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { sqlType } from '../../common/pgtypes/oids.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import type { RoutineDef } from '../../functions/registry-types.ts';
import type { Expr } from '../logical/expr.ts';

type Node = Record<string, unknown>;

/** the NamedArgExpr names of a call's raw arguments (null for positional ones), after PostgreSQL's syntax checks */
export function namedArgNames(rawArgs: readonly unknown[]): (string | null)[] {
  const names: (string | null)[] = [];
  const seen = new Set<string>();
  for (const raw of rawArgs) {
    const named = (raw as Node).NamedArgExpr as Node | undefined;
    if (named === undefined) {
      if (seen.size > 0) throw syntaxAt('positional argument cannot follow named argument', locationOf(raw));
      names.push(null);
      continue;
    }
    const name = String(named.name ?? '');
    if (seen.has(name)) throw syntaxAt(`argument name "${name}" used more than once`, locationOf(raw));
    seen.add(name);
    names.push(name);
  }
  return names;
}

/** the expression a raw argument binds (the value of `name => value`) */
export function argValueNode(raw: unknown): unknown {
  const named = (raw as Node).NamedArgExpr as Node | undefined;
  return named === undefined ? raw : named.arg;
}

/**
 * Positional argument lists for `name(args)` called with `names` (null = positional), one per distinct way
 * the candidates arrange them; 42883 when no candidate takes these names.
 */
export function arrangeNamedArgs(routines: readonly RoutineDef[], name: string, args: readonly Expr[], names: readonly (string | null)[], position: number | undefined): Expr[][] {
  const npos = names.filter((n) => n === null).length;
  const out: Expr[][] = [];
  for (const def of routines) {
    const arranged = arrangeFor(def, args, names, npos);
    if (arranged !== undefined && !out.some((o) => o.length === arranged.length && o.every((e, i) => e === arranged[i]))) out.push(arranged);
  }
  if (out.length === 0) throw noSuchFunction(name, args, names, position);
  return out;
}

/** 42883 as ParseFuncOrColumn words it for a named call: `function f(days => integer) does not exist` */
export function noSuchFunction(name: string, args: readonly Expr[], names: readonly (string | null)[], position: number | undefined): Error {
  const shown = args.map((a, i) => `${names[i] === null ? '' : `${names[i]} => `}${formatType(a.type.oid)}`);
  return pgError(SqlState.undefined_function, `function ${name}(${shown.join(', ')}) does not exist`, {
    hint: 'No function matches the given name and argument types. You might need to add explicit type casts.',
    ...(position === undefined ? {} : { position }),
  });
}

function arrangeFor(def: RoutineDef, args: readonly Expr[], names: readonly (string | null)[], npos: number): Expr[] | undefined {
  const argNames = def.argNames;
  if (argNames === undefined || def.variadic !== undefined || args.length > def.args.length) return undefined;
  const slots: (Expr | undefined)[] = def.args.map(() => undefined);
  for (let i = 0; i < args.length; i++) {
    const n = names[i];
    const at = n === null ? i : argNames.indexOf(n!);
    if (at < 0 || (n !== null && at < npos)) return undefined;
    slots[at] = args[i];
  }
  const firstDefault = def.args.length - (def.defaults ?? 0);
  let last = -1;
  slots.forEach((e, p) => { if (e !== undefined) last = p; });
  const result: Expr[] = [];
  for (let p = 0; p < def.args.length; p++) {
    const e = slots[p];
    if (e !== undefined) { result.push(e); continue; }
    if (p < firstDefault) return undefined; // a parameter without default is missing
    if (p > last) break; // trailing defaults: the function supplies them
    const d = def.argDefaults?.[p - firstDefault];
    if (d === undefined) return undefined;
    result.push({ kind: 'Literal', value: d, type: sqlType(def.args[p]!) });
  }
  return result;
}

function locationOf(raw: unknown): number | undefined {
  const body = Object.values(raw as Node)[0] as Node | undefined;
  const loc = body?.location;
  return typeof loc === 'number' && loc >= 0 ? loc + 1 : undefined;
}

function syntaxAt(message: string, position: number | undefined): Error {
  return pgError(SqlState.syntax_error, message, position === undefined ? {} : { position });
}
