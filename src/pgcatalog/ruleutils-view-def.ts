/**
 * pg_get_viewdef as PostgreSQL 15's ruleutils.c prints a view: every column qualified by its range table entry's
 * name, `AS` where the output name is not the column's own, constants cast to the type the operator took them as,
 * one target per line and PostgreSQL's clause indentation; parentheses on every operator without `pretty`
 * (PRETTYFLAG_PAREN), only where precedence needs them with it. psql's \d+ and \sv, pg_views.definition and
 * information_schema.views print this.
 *
 * Covered: one FROM item (a table or view, or left-deep INNER / LEFT / RIGHT / FULL joins with ON), DISTINCT,
 * targets that are columns, `*`, count / sum / avg / min / max (with DISTINCT), WHERE / HAVING of comparisons
 * (columns, aggregates, non-negative integer and string constants) combined by AND / OR / NOT, GROUP BY and ORDER BY of
 * columns or output positions, LIMIT / OFFSET of constants. Anything else returns undefined and the caller keeps the
 * stored SQL text: a wrong rendering is worse than a differently formatted right one.
 */
import { Oid } from '../common/pgtypes/index.ts';
import type { RelationInfo } from '../catalog/catalog-view.ts';
import type { ColumnDef } from '../catalog/table-source.ts';
import { parseSql } from '../sql/index.ts';
import { quoteIdent, type CatalogSnapshot } from './catalog-snapshot.ts';
import { regclassOut } from './reg-names.ts';

type Node = Record<string, unknown>;

/** a range table entry: the name columns are qualified with, and its columns */
interface Rte { readonly refname: string; readonly rel: RelationInfo; readonly columns: readonly ColumnDef[] }

/** a printed expression: its text, its result type, and (for a plain column) the column's name */
interface Printed {
  readonly text: string;
  readonly type: number;
  /** the output column name a target of it gets: the column's, the aggregate's */
  readonly column?: string;
  /** 'cmp': a comparison; 'arith': + - * / or ||; 'const': an integer (int4) or string (unknown) literal */
  readonly kind: 'var' | 'agg' | 'arith' | 'cmp' | 'bool' | 'const';
  readonly op?: string;
}

class Unsupported extends Error {}

const fail = (): never => {
  throw new Unsupported();
};

const INT_TYPES = new Set<number>([Oid.int2, Oid.int4, Oid.int8]);
const COMPARISONS = new Set(['=', '<>', '<', '>', '<=', '>=']);
/** ruleutils' two arithmetic priorities (isSimpleNode): + - below * / */
const ARITH_PRIORITY: Readonly<Record<string, number>> = { '+': 1, '-': 1, '*': 2, '/': 2 };

/**
 * The view's SELECT as PostgreSQL prints it (leading space, trailing ';'), or undefined outside the covered forms.
 * The printed output columns must be the view's (`view`): a `*` expanded today must still name what the view returns.
 */
export function ruleutilsViewDef(view: RelationInfo, snap: CatalogSnapshot, pretty: boolean): string | undefined {
  if (view.viewDefinition === undefined) return undefined;
  try {
    const parsed = parseSql(view.viewDefinition);
    if (parsed.length !== 1) return undefined;
    const select = (parsed[0]!.ast as Node)['SelectStmt'] as Node | undefined;
    if (select === undefined) return undefined;
    const printer = new ViewPrinter(snap, pretty, view.oid);
    const text = printer.select(select);
    const names = snap.columnsOf(view).filter((c) => c.system !== true).map((c) => c.name);
    return JSON.stringify(printer.outputNames()) === JSON.stringify(names) ? `${text};` : undefined;
  } catch {
    // outside the covered forms (Unsupported), or a text the parser refuses (another engine's view SQL)
    return undefined;
  }
}

class ViewPrinter {
  readonly #rtes: Rte[] = [];
  #targets: { printed: Printed; name: string }[] = [];

  /** `viewOid`: the view printed; the system views' placeholder SQL reads the view itself and is not printed */
  constructor(private readonly snap: CatalogSnapshot, private readonly pretty: boolean, private readonly viewOid: number) {}

  outputNames(): string[] {
    return this.#targets.map((t) => t.name);
  }

  select(s: Node): string {
    for (const key of Object.keys(s)) {
      if (!['distinctClause', 'targetList', 'fromClause', 'whereClause', 'groupClause', 'havingClause', 'sortClause',
        'limitCount', 'limitOffset', 'limitOption', 'op', 'groupDistinct'].includes(key)) fail();
    }
    if (s['op'] !== 'SETOP_NONE' || s['groupDistinct'] === true) fail();
    const from = list(s['fromClause']);
    if (from.length === 0 || (from.length > 1 && from.some((f) => f['RangeVar'] === undefined))) fail();
    const fromText = from.map((f) => this.#fromItem(f, 0)).join(',\n    ');
    const distinct = list(s['distinctClause']);
    if (distinct.length > 0 && (distinct.length !== 1 || Object.keys(distinct[0]!).length !== 0)) fail(); // DISTINCT ON
    this.#targets = list(s['targetList']).flatMap((t) => this.#target(t));
    let out = ` SELECT ${distinct.length > 0 ? 'DISTINCT ' : ''}${this.#targets.map((t) => withAlias(t.printed, t.name)).join(',\n    ')}`;
    out += `\n   FROM ${fromText}`;
    if (s['whereClause'] !== undefined) out += `\n  WHERE ${this.#expr(s['whereClause'] as Node, null).text}`;
    const group = list(s['groupClause']);
    if (group.length > 0) out += `\n  GROUP BY ${group.map((g) => this.#sortGroupItem(g, false)).join(', ')}`;
    if (s['havingClause'] !== undefined) out += `\n HAVING ${this.#expr(s['havingClause'] as Node, null).text}`;
    const sort = list(s['sortClause']);
    if (sort.length > 0) out += `\n  ORDER BY ${sort.map((b) => this.#sortBy(b)).join(', ')}`;
    if (s['limitOffset'] !== undefined) out += `\n OFFSET ${this.#limitValue(s['limitOffset'] as Node)}`;
    if (s['limitCount'] !== undefined) {
      if (s['limitOption'] !== 'LIMIT_OPTION_COUNT') fail();
      out += `\n LIMIT ${this.#limitValue(s['limitCount'] as Node)}`;
    }
    return out;
  }

  #fromItem(item: Node, depth: number): string {
    const rv = item['RangeVar'] as Node | undefined;
    if (rv !== undefined) {
      const alias = rv['alias'] as Node | undefined;
      if (alias !== undefined && alias['colnames'] !== undefined) fail();
      const relname = rv['relname'] as string;
      const rel = typeof rv['schemaname'] === 'string' ? this.snap.findRelation(rv['schemaname'], relname) : this.snap.lookupRelation(relname);
      if (rel === undefined || rel.oid === this.viewOid || rv['inh'] === false || rv['catalogname'] !== undefined) fail();
      const refname = alias === undefined ? rel!.name : (alias['aliasname'] as string);
      if (this.#rtes.some((r) => r.refname === refname)) fail();
      this.#rtes.push({ refname, rel: rel!, columns: this.snap.columnsOf(rel!).filter((c) => c.system !== true) });
      return `${regclassOut(rel!.oid, this.snap)}${alias === undefined ? '' : ` ${quoteIdent(refname)}`}`;
    }
    const j = item['JoinExpr'] as Node | undefined;
    if (j === undefined || j['isNatural'] === true || j['usingClause'] !== undefined || j['alias'] !== undefined || j['quals'] === undefined) fail();
    const rarg = j!['rarg'] as Node;
    if (rarg['RangeVar'] === undefined) fail();
    const kind = ({ JOIN_INNER: 'JOIN', JOIN_LEFT: 'LEFT JOIN', JOIN_RIGHT: 'RIGHT JOIN', JOIN_FULL: 'FULL JOIN' } as Record<string, string>)[j!['jointype'] as string];
    if (kind === undefined) fail();
    const left = this.#fromItem(j!['larg'] as Node, depth + 1);
    const right = this.#fromItem(rarg, depth + 1);
    const quals = this.#expr(j!['quals'] as Node, null).text;
    const on = this.pretty ? quals : `(${quals})`;
    const text = `${left}\n     ${kind!} ${right} ON ${on}`;
    return this.pretty ? text : `(${text})`;
  }

  #target(t: Node): { printed: Printed; name: string }[] {
    const rt = t['ResTarget'] as Node;
    const val = rt['val'] as Node;
    const ref = val['ColumnRef'] as Node | undefined;
    if (ref !== undefined) {
      const fields = list(ref['fields']);
      if (fields.length > 0 && fields[fields.length - 1]!['A_Star'] !== undefined) {
        if (rt['name'] !== undefined) fail();
        const rtes = fields.length === 1 ? this.#rtes : [this.#rteNamed(fields.slice(0, -1).map(str))];
        return rtes.flatMap((r) => r.columns.map((c) => ({ printed: varOf(r, c), name: c.name })));
      }
    }
    const printed = this.#expr(val, null);
    if (printed.kind === 'const' || printed.kind === 'cmp' || printed.kind === 'bool') fail();
    const name = (rt['name'] as string | undefined) ?? printed.column ?? '?column?';
    return [{ printed, name }];
  }

  #rteNamed(names: string[]): Rte {
    const found = names.length === 1
      ? this.#rtes.filter((r) => r.refname === names[0])
      : this.#rtes.filter((r) => r.rel.name === names[names.length - 1] && r.rel.schema === names[names.length - 2] && r.refname === r.rel.name);
    if (found.length !== 1) fail();
    return found[0]!;
  }

  #column(ref: Node): Printed {
    const names = list(ref['fields']).map(str);
    const name = names[names.length - 1]!;
    const rtes = names.length === 1 ? this.#rtes : [this.#rteNamed(names.slice(0, -1))];
    const hits = rtes.flatMap((r) => r.columns.filter((c) => c.name === name).map((c) => ({ r, c })));
    if (hits.length !== 1) fail();
    return varOf(hits[0]!.r, hits[0]!.c);
  }

  /** `parent`: the enclosing boolean operator, for pretty mode's parentheses */
  #expr(node: Node, parent: 'AND_EXPR' | 'OR_EXPR' | 'NOT_EXPR' | null): Printed {
    if (node['ColumnRef'] !== undefined) return this.#column(node['ColumnRef'] as Node);
    if (node['FuncCall'] !== undefined) return this.#aggregate(node['FuncCall'] as Node);
    if (node['A_Const'] !== undefined) return constant(node['A_Const'] as Node);
    const bool = node['BoolExpr'] as Node | undefined;
    if (bool !== undefined) {
      const op = bool['boolop'] as 'AND_EXPR' | 'OR_EXPR' | 'NOT_EXPR';
      const args = list(bool['args']).map((a) => this.#expr(a, op));
      for (const a of args) if (a.type !== Oid.bool || a.kind === 'const') fail();
      const body = op === 'NOT_EXPR' ? `NOT ${args[0]!.text}` : args.map((a) => a.text).join(op === 'AND_EXPR' ? ' AND ' : ' OR ');
      // ruleutils' isSimpleNode: AND / NOT inside AND or OR, OR inside OR need no parentheses
      const simple = this.pretty && (parent === null || (op !== 'OR_EXPR' && parent !== 'NOT_EXPR') || (op === 'OR_EXPR' && parent === 'OR_EXPR'));
      return { text: simple ? body : `(${body})`, type: Oid.bool, kind: 'bool' };
    }
    const e = node['A_Expr'] as Node | undefined;
    if (e !== undefined && e['kind'] === 'AEXPR_OP') {
      const ops = list(e['name']).map(str);
      if (ops.length !== 1) fail();
      return this.#binary(ops[0]!, e['lexpr'] as Node, e['rexpr'] as Node);
    }
    return fail();
  }

  /** a comparison, + - * /, or ||: operands cast as the operator PostgreSQL resolves takes them */
  #binary(op: string, lnode: Node, rnode: Node): Printed {
    const category = COMPARISONS.has(op) ? 'cmp' : ARITH_PRIORITY[op] !== undefined || op === '||' ? 'arith' : fail();
    const l = this.#expr(lnode, null);
    const r = this.#expr(rnode, null);
    // no mixing of || with + - * / (their relative precedence is not modelled here)
    for (const p of [l, r]) {
      if (p.kind === 'bool' || p.kind === 'cmp' || (p.kind === 'arith' && (op === '||') !== (p.op === '||'))) fail();
    }
    if (l.kind === 'const' && r.kind === 'const') fail();
    const { castL, castR, result } = resolveOperands(op, l, r);
    const prio = ARITH_PRIORITY[op];
    const lText = this.#operandText(l, castL, category, prio, 'left');
    const rText = this.#operandText(r, castR, category, prio, 'right');
    const body = `${lText} ${op} ${rText}`;
    return { text: this.pretty ? body : `(${body})`, type: category === 'cmp' ? Oid.bool : result, kind: category, op };
  }

  /**
   * an operand as printed inside its operator: cast (`x::numeric` pretty, `(x)::numeric` otherwise; string constants
   * `'x'::text` either way), and in pretty mode parenthesised as ruleutils' isSimpleNode decides for + - * /: under a
   * comparison always, under a tighter operator, or as the right operand of one of the same priority
   */
  #operandText(p: Printed, cast: string | undefined, parent: 'cmp' | 'arith', parentPrio: number | undefined, side: 'left' | 'right'): string {
    if (cast !== undefined) {
      if (p.kind === 'const') return p.type === Oid.unknown || this.pretty ? `${p.text}::${cast}` : `(${p.text})::${cast}`;
      return this.pretty ? (p.kind === 'arith' ? `(${p.text})::${cast}` : `${p.text}::${cast}`) : `(${p.text})::${cast}`;
    }
    if (p.kind === 'const' && p.type === Oid.unknown) return fail();
    if (!this.pretty || p.kind !== 'arith') return p.text;
    const prio = ARITH_PRIORITY[p.op ?? ''] ?? fail();
    const simple = parent === 'arith' && parentPrio !== undefined && (prio > parentPrio || (prio === parentPrio && side === 'left'));
    return simple ? p.text : `(${p.text})`;
  }

  /** a varchar operand of a text function carries its RelabelType: `x::text` (pretty) or `(x)::text` */
  #asText(p: Printed): string {
    if (p.type !== Oid.varchar) return p.text;
    if (p.kind !== 'var') fail();
    return this.pretty ? `${p.text}::text` : `(${p.text})::text`;
  }

  #aggregate(f: Node): Printed {
    for (const key of Object.keys(f)) {
      if (!['funcname', 'args', 'agg_star', 'agg_distinct', 'funcformat', 'location'].includes(key)) fail();
    }
    const names = list(f['funcname']).map(str);
    if (names.length === 2 && names[0] !== 'pg_catalog') fail();
    const name = names[names.length - 1]!;
    const distinct = f['agg_distinct'] === true ? 'DISTINCT ' : '';
    if (f['agg_star'] === true) {
      if (name !== 'count') fail();
      return { text: 'count(*)', type: Oid.int8, column: 'count', kind: 'agg' };
    }
    const args = list(f['args']).map((a) => this.#expr(a, null));
    if (args.length !== 1 || (args[0]!.kind !== 'var' && args[0]!.kind !== 'arith')) fail();
    const arg = args[0]!;
    const type = aggregateType(name, arg.type);
    // an operator argument keeps its own parentheses without pretty: sum((a * b))
    const argText = (name === 'min' || name === 'max') ? this.#asText(arg) : arg.text;
    return { text: `${name}(${distinct}${argText})`, type, column: name, kind: 'agg' };
  }

  /** GROUP BY / ORDER BY item: a column, or an output position / name standing for its target */
  #sortGroupItem(node: Node, outputNamesFirst: boolean): string {
    const c = node['A_Const'] as Node | undefined;
    let p: Printed | undefined;
    if (c !== undefined) {
      const pos = ((c['ival'] as Node | undefined)?.['ival'] as number | undefined) ?? fail();
      p = this.#targets[pos - 1]?.printed ?? fail();
    } else if (outputNamesFirst && node['ColumnRef'] !== undefined && list((node['ColumnRef'] as Node)['fields']).length === 1) {
      const name = str(list((node['ColumnRef'] as Node)['fields'])[0]!);
      const hits = this.#targets.filter((t) => t.name === name);
      if (hits.length > 1) fail();
      p = hits[0]?.printed;
    }
    p ??= this.#expr(node, null);
    if (p.kind === 'var') return p.text;
    if (p.kind === 'agg' || (p.kind === 'arith' && this.pretty)) return `(${p.text})`;
    if (p.kind === 'arith') return p.text;
    return fail();
  }

  #sortBy(b: Node): string {
    const s = b['SortBy'] as Node;
    if (s['sortby_nulls'] !== 'SORTBY_NULLS_DEFAULT' || s['useOp'] !== undefined) fail();
    const dir = s['sortby_dir'] === 'SORTBY_DESC' ? ' DESC' : '';
    return `${this.#sortGroupItem(s['node'] as Node, true)}${dir}`;
  }

  #limitValue(node: Node): string {
    const c = node['A_Const'] as Node | undefined;
    const v = c === undefined ? fail() : (((c['ival'] as Node | undefined)?.['ival'] as number | undefined) ?? (c['ival'] !== undefined ? 0 : fail()));
    return String(v);
  }
}

function varOf(r: Rte, c: ColumnDef): Printed {
  return { text: `${quoteIdent(r.refname)}.${quoteIdent(c.name)}`, type: c.type.oid, column: c.name, kind: 'var' };
}

/** `AS name` unless the target is a column of that name (ruleutils' get_target_list) */
function withAlias(p: Printed, name: string): string {
  return p.kind === 'var' && p.column === name ? p.text : `${p.text} AS ${quoteIdent(name)}`;
}

/** PostgreSQL 15's result type of count / sum / avg / min / max over one argument type */
function aggregateType(name: string, arg: number): number {
  switch (name) {
    case 'count': return Oid.int8;
    case 'min': case 'max':
      return ([Oid.int2, Oid.int4, Oid.int8, Oid.numeric, Oid.float4, Oid.float8, Oid.text, Oid.date, Oid.timestamp, Oid.timestamptz, Oid.bpchar] as number[]).includes(arg)
        ? arg : arg === Oid.varchar ? Oid.text : fail();
    case 'sum':
      if (arg === Oid.int2 || arg === Oid.int4) return Oid.int8;
      if (arg === Oid.int8 || arg === Oid.numeric) return Oid.numeric;
      if (arg === Oid.float4 || arg === Oid.float8) return arg;
      return fail();
    case 'avg':
      if (INT_TYPES.has(arg) || arg === Oid.numeric) return Oid.numeric;
      if (arg === Oid.float4 || arg === Oid.float8) return Oid.float8;
      return fail();
    default: return fail();
  }
}

function list(v: unknown): Node[] {
  return Array.isArray(v) ? (v as Node[]) : [];
}

function str(n: Node): string {
  const s = n['String'] as Node | undefined;
  return typeof s?.['sval'] === 'string' ? s['sval'] : fail();
}

/** a literal: a non-negative int4, or a string (type unknown until an operator takes it) */
function constant(c: Node): Printed {
  const ival = c['ival'] as Node | undefined;
  if (ival !== undefined) {
    const v = (ival['ival'] as number | undefined) ?? 0;
    if (v < 0 || v > 2147483647) fail();
    return { text: String(v), type: Oid.int4, kind: 'const' };
  }
  const sval = c['sval'] as Node | undefined;
  if (sval === undefined) return fail();
  const text = (sval['sval'] as string | undefined) ?? '';
  if (text.includes('\\')) fail();
  return { text: `'${text.replaceAll("'", "''")}'`, type: Oid.unknown, kind: 'const' };
}

const INT_WIDTH: Readonly<Record<number, number>> = { [Oid.int2]: 1, [Oid.int4]: 2, [Oid.int8]: 3 };

/**
 * the casts PostgreSQL's operator resolution puts on each operand (type names as ruleutils prints them) and the
 * result type; fails outside the cases checked against PostgreSQL 15
 */
function resolveOperands(op: string, l: Printed, r: Printed): { castL?: string; castR?: string; result: number } {
  const textual = (p: Printed): boolean => p.type === Oid.text || p.type === Oid.varchar || p.type === Oid.unknown;
  const textCast = (p: Printed): string | undefined => (p.type === Oid.text ? undefined : p.type === Oid.varchar && p.kind !== 'var' ? fail() : 'text');
  if (op === '||' || l.type === Oid.unknown || r.type === Oid.unknown) {
    if (op !== '||' && !COMPARISONS.has(op)) return fail();
    if (op !== '||' && (l.type === Oid.bpchar || r.type === Oid.bpchar)) {
      // bpchar = 'x': the literal becomes bpchar
      if (l.type === Oid.bpchar && r.type === Oid.unknown) return { castR: 'bpchar', result: Oid.bpchar };
      if (r.type === Oid.bpchar && l.type === Oid.unknown) return { castL: 'bpchar', result: Oid.bpchar };
      return fail();
    }
    if (!textual(l) || !textual(r)) return fail();
    return { ...optional('castL', textCast(l)), ...optional('castR', textCast(r)), result: Oid.text };
  }
  if (textual(l) && textual(r) && COMPARISONS.has(op)) return { ...optional('castL', textCast(l)), ...optional('castR', textCast(r)), result: Oid.text };
  const li = INT_WIDTH[l.type];
  const ri = INT_WIDTH[r.type];
  if (li !== undefined && ri !== undefined) return { result: li >= ri ? l.type : r.type };
  if (l.type === Oid.numeric && r.type === Oid.numeric) return { result: Oid.numeric };
  if (l.type === Oid.numeric && ri !== undefined) return { castR: 'numeric', result: Oid.numeric };
  if (r.type === Oid.numeric && li !== undefined) return { castL: 'numeric', result: Oid.numeric };
  const float = (t: number): boolean => t === Oid.float4 || t === Oid.float8;
  if (float(l.type) && float(r.type)) return { result: l.type === Oid.float4 && r.type === Oid.float4 ? Oid.float4 : Oid.float8 };
  // float8 with an integer, float4 with an integer literal: float8 operators, the integer side cast
  if (float(l.type) && ri !== undefined && (l.type === Oid.float8 || r.kind === 'const')) return { castR: 'double precision', result: Oid.float8 };
  if (float(r.type) && li !== undefined && (r.type === Oid.float8 || l.kind === 'const')) return { castL: 'double precision', result: Oid.float8 };
  if (COMPARISONS.has(op) && l.type === r.type && [Oid.bool, Oid.date, Oid.timestamp, Oid.timestamptz, Oid.bpchar].includes(l.type as never)) {
    return { result: l.type };
  }
  return fail();
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Partial<Record<K, string>>);
}
