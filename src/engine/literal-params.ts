/**
 * Literal-normalised plan caching for the simple protocol: dashboards and pgbench send the same SELECT with a
 * different constant each time (`WHERE id = 17`, `WHERE region = 'EU'`), and binding + optimizing each new
 * text costs more than running it. This turns the constants compared with a column in WHERE / JOIN ON into
 * `$n` parameters, so the statement shape keys a bound plan that every constant reuses.
 *
 * Only those positions are rewritten because there a constant and a parameter of the same type bind to the
 * same plan: select lists, GROUP BY, ORDER BY and HAVING are left alone (GROUP BY matches expressions by
 * structure, `ORDER BY 1` is a position), as are casts, function arguments and IN lists. Integer constants
 * become int4 / int8 / numeric parameters exactly as PostgreSQL types the literal; quoted strings stay
 * untyped so the column decides, as for the literal.
 */
import { Oid } from '../common/pgtypes/oids.ts';

/** a constant lifted out of the statement: its text and the type the literal has */
export interface LiftedLiteral {
  readonly text: string;
  /** Oid.int4 / int8 / numeric for numbers, 0 (unknown: the column decides) for quoted strings */
  readonly oid: number;
  /** where the constant starts in the statement text (statement-shapes.ts matches it to a token) */
  readonly location?: number;
}

export interface LiteralNormalised {
  /** the statement with `$1…$n` in place of the lifted constants (a copy: the parsed AST is shared) */
  readonly ast: unknown;
  readonly literals: readonly LiftedLiteral[];
  /** the shape of the statement: the AST without constants and source locations */
  readonly key: string;
}

type Json = { [k: string]: unknown };

const COMPARISONS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=']);
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** The normalised form of a SELECT, or null when it has no constant worth lifting. */
export function normaliseLiterals(ast: unknown): LiteralNormalised | null {
  const literals: LiftedLiteral[] = [];
  const out = rewriteNode(ast, literals);
  if (literals.length === 0) return null;
  return { ast: out, literals, key: JSON.stringify(out, (k, v: unknown) => (k === 'location' ? undefined : v)) };
}

/** Walks any node; inside a SelectStmt only WHERE and JOIN ON quals are rewritten (see the file comment). */
function rewriteNode(node: unknown, lits: LiftedLiteral[]): unknown {
  if (Array.isArray(node)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < node.length; i++) {
      const r = rewriteNode(node[i], lits);
      if (r !== node[i]) (copy ??= node.slice())[i] = r;
    }
    return copy ?? node;
  }
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  const select = obj.SelectStmt as Json | undefined;
  if (select !== undefined) return { SelectStmt: rewriteSelect(select, lits) };
  let copy: Json | null = null;
  for (const k of Object.keys(obj)) {
    const r = rewriteNode(obj[k], lits);
    if (r !== obj[k]) (copy ??= { ...obj })[k] = r;
  }
  return copy ?? obj;
}

function rewriteSelect(s: Json, lits: LiftedLiteral[]): Json {
  let copy: Json | null = null;
  const set = (k: string, v: unknown): void => {
    if (v !== s[k]) (copy ??= { ...s })[k] = v;
  };
  // set operations, CTEs and FROM subqueries hold SelectStmts of their own
  for (const k of ['larg', 'rarg']) if (s[k] !== undefined) set(k, { SelectStmt: rewriteSelect(s[k] as Json, lits) });
  if (s.withClause !== undefined) set('withClause', rewriteNode(s.withClause, lits));
  if (s.fromClause !== undefined) set('fromClause', rewriteFrom(s.fromClause, lits));
  if (s.whereClause !== undefined) set('whereClause', rewriteQual(s.whereClause, lits));
  return copy ?? s;
}

function rewriteFrom(node: unknown, lits: LiftedLiteral[]): unknown {
  if (Array.isArray(node)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < node.length; i++) {
      const r = rewriteFrom(node[i], lits);
      if (r !== node[i]) (copy ??= node.slice())[i] = r;
    }
    return copy ?? node;
  }
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  const join = obj.JoinExpr as Json | undefined;
  if (join !== undefined) {
    const larg = rewriteFrom(join.larg, lits);
    const rarg = rewriteFrom(join.rarg, lits);
    const quals = join.quals === undefined ? undefined : rewriteQual(join.quals, lits);
    if (larg === join.larg && rarg === join.rarg && quals === join.quals) return obj;
    return { JoinExpr: { ...join, larg, rarg, ...(quals === undefined ? {} : { quals }) } };
  }
  const sub = obj.RangeSubselect as Json | undefined;
  if (sub !== undefined) {
    const subquery = rewriteNode(sub.subquery, lits);
    return subquery === sub.subquery ? obj : { RangeSubselect: { ...sub, subquery } };
  }
  return obj; // RangeVar, RangeFunction (function arguments stay constants)
}

/** a boolean qualification: comparisons `column op constant` lift the constant; subqueries recurse */
function rewriteQual(node: unknown, lits: LiftedLiteral[]): unknown {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const obj = node as Json;
  const expr = obj.A_Expr as Json | undefined;
  if (expr !== undefined && expr.kind === 'AEXPR_OP' && COMPARISONS.has(operatorName(expr.name))) {
    if (isColumnRef(expr.lexpr)) {
      const r = liftConst(expr.rexpr, lits);
      if (r !== null) return { A_Expr: { ...expr, rexpr: r } };
    } else if (isColumnRef(expr.rexpr)) {
      const l = liftConst(expr.lexpr, lits);
      if (l !== null) return { A_Expr: { ...expr, lexpr: l } };
    }
    return obj;
  }
  const bool = obj.BoolExpr as Json | undefined;
  if (bool !== undefined && Array.isArray(bool.args)) {
    let copy: unknown[] | null = null;
    bool.args.forEach((a: unknown, i: number) => {
      const r = rewriteQual(a, lits);
      if (r !== a) (copy ??= (bool.args as unknown[]).slice())[i] = r;
    });
    return copy === null ? obj : { BoolExpr: { ...bool, args: copy } };
  }
  const link = obj.SubLink as Json | undefined;
  if (link !== undefined) {
    const subselect = rewriteNode(link.subselect, lits);
    return subselect === link.subselect ? obj : { SubLink: { ...link, subselect } };
  }
  return obj;
}

function operatorName(name: unknown): string {
  if (!Array.isArray(name) || name.length !== 1) return '';
  const s = (name[0] as Json).String as Json | undefined;
  return typeof s?.sval === 'string' ? s.sval : '';
}

function isColumnRef(node: unknown): boolean {
  return node !== null && typeof node === 'object' && 'ColumnRef' in node;
}

/** `$n` for a number or string constant (NULL and booleans stay: they bind to special forms) */
function liftConst(node: unknown, lits: LiftedLiteral[]): Json | null {
  if (node === null || typeof node !== 'object') return null;
  const c = (node as Json).A_Const as Json | undefined;
  if (c === undefined) return null;
  let lit: LiftedLiteral;
  if (c.ival !== undefined) {
    lit = { text: String((c.ival as Json).ival ?? 0), oid: Oid.int4 };
  } else if (c.fval !== undefined) {
    const text = String((c.fval as Json).fval);
    lit = { text, oid: /^-?\d+$/.test(text) && BigInt(text) >= INT8_MIN && BigInt(text) <= INT8_MAX ? Oid.int8 : Oid.numeric };
  } else if (c.sval !== undefined) {
    lit = { text: String((c.sval as Json).sval ?? ''), oid: 0 };
  } else {
    return null;
  }
  lits.push(typeof c.location === 'number' ? { ...lit, location: c.location } : lit);
  return { ParamRef: { number: lits.length, location: c.location } };
}
