/**
 * WITH: non-recursive CTEs are bound once and inlined at each reference; WITH RECURSIVE `a UNION [ALL] b`
 * whose `b` names the CTE becomes a RecursiveCte (working-table loop) whose output types are the anchor's.
 */
import { Oid, sqlType } from '../../common/pgtypes/oids.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { tryCoerce } from './coerce.ts';
import { strVal } from './bind-expr.ts';
import type { Binder, CteEntry, OutColumn } from './binder.ts';
import type { Scope } from './scope.ts';

type Node = Record<string, unknown>;

export function bindWith(b: Binder, w: Node, parent: Scope | null): Map<string, CteEntry> {
  const map = new Map<string, CteEntry>();
  b.ctes.push(map);
  try {
    for (const c of w.ctes as Node[]) {
      const cte = c.CommonTableExpr as Node;
      const name = String(cte.ctename);
      if (map.has(name)) throw pgError('42712', `WITH query name "${name}" specified more than once`, typeof cte.location === 'number' ? { position: cte.location + 1 } : {});
      const query = cte.ctequery as Node;
      if (query.SelectStmt === undefined) throw notSupported('data-modifying statements in WITH');
      const aliases = ((cte.aliascolnames as Node[] | undefined) ?? []).map(strVal);
      const stmt = query.SelectStmt as Node;
      if (w.recursive === true && referencesName(stmt, name)) {
        map.set(name, bindRecursive(b, name, stmt, aliases, parent));
      } else {
        const r = b.bindSelect(query, parent);
        map.set(name, { name, columns: rename(r.columns, aliases, name), plan: r.plan, correlated: r.correlated });
      }
    }
  } finally {
    b.ctes.pop();
  }
  return map;
}

function rename(cols: readonly OutColumn[], aliases: readonly string[], name: string): OutColumn[] {
  if (aliases.length > cols.length) {
    throw pgError(SqlState.invalid_column_reference, `WITH query "${name}" has ${cols.length} columns available but ${aliases.length} columns specified`);
  }
  return cols.map((c, i) => ({ ...c, name: aliases[i] ?? c.name }));
}

function referencesName(node: unknown, name: string): boolean {
  if (node === null || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some((x) => referencesName(x, name));
  const o = node as Node;
  const rv = o.RangeVar as Node | undefined;
  if (rv !== undefined && rv.schemaname === undefined && rv.relname === name) return true;
  return Object.values(o).some((v) => referencesName(v, name));
}

function bindRecursive(b: Binder, name: string, stmt: Node, aliases: readonly string[], parent: Scope | null): CteEntry {
  if (stmt.op !== 'SETOP_UNION') {
    throw pgError(SqlState.invalid_recursion, `recursive query "${name}" does not have the form non-recursive-term UNION [ALL] recursive-term`);
  }
  if (stmt.sortClause !== undefined || stmt.limitCount !== undefined || stmt.limitOffset !== undefined) {
    throw notSupported('ORDER BY/LIMIT in a recursive query');
  }
  if (referencesName(stmt.larg, name)) {
    throw pgError(SqlState.invalid_recursion, `recursive reference to query "${name}" must not appear within its non-recursive term`);
  }
  const anchor = b.bindSelect(stmt.larg as Node, parent);
  let correlated = anchor.correlated;
  const cols = rename(anchor.columns, aliases, name).map((c) => ({ ...c, type: c.type.oid === Oid.unknown ? sqlType(Oid.text) : c.type, tableOid: 0, attnum: 0 }));
  const id = b.nextId();
  const entry: CteEntry = { name, columns: cols, plan: null, workTableId: id };
  b.ctes[b.ctes.length - 1]!.set(name, entry);
  const rec = b.bindSelect(stmt.rarg as Node, parent, { resolveUnknowns: false });
  correlated ||= rec.correlated;
  if (rec.columns.length !== cols.length) throw pgError(SqlState.syntax_error, 'each UNION query must have the same number of columns');
  let recPlan: LogicalPlan = rec.plan;
  if (rec.columns.some((c, i) => c.type.oid !== cols[i]!.type.oid)) {
    const exprs: Expr[] = rec.columns.map((c, i) => {
      const ref: Expr = { kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name };
      const t = cols[i]!.type;
      const x = c.type.oid === t.oid ? ref : tryCoerce(b.env, ref, t, c.type.oid === Oid.unknown ? 'i' : 'a');
      if (x === undefined || (c.type.oid !== Oid.unknown && !b.ctx.functions.canCoerce(c.type.oid, t.oid, 'i'))) {
        throw pgError(SqlState.datatype_mismatch, `recursive query "${name}" column ${i + 1} has type ${formatType(t.oid, t.typmod)} in non-recursive term but type ${formatType(c.type.oid, c.type.typmod)} overall`, { hint: 'Cast the output of the non-recursive term to the correct type.' });
      }
      return x;
    });
    recPlan = { kind: 'Projection', input: rec.plan, exprs, columns: cols.map((c) => ({ name: c.name, type: c.type })) };
  }
  let anchorPlan = anchor.plan;
  if (anchor.columns.some((c) => c.type.oid === Oid.unknown)) {
    const exprs: Expr[] = anchor.columns.map((c, i) => {
      const ref: Expr = { kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name };
      return c.type.oid === Oid.unknown ? tryCoerce(b.env, ref, cols[i]!.type, 'i')! : ref;
    });
    anchorPlan = { kind: 'Projection', input: anchor.plan, exprs, columns: cols.map((c) => ({ name: c.name, type: c.type })) };
  }
  entry.correlated = correlated;
  entry.plan = {
    kind: 'RecursiveCte', id, name, anchor: anchorPlan, recursive: recPlan, all: stmt.all === true,
    columns: cols.map((c) => ({ name: c.name, type: c.type })),
  };
  return entry;
}
