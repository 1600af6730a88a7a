/**
 * INSERT INTO t [(cols)] VALUES … | SELECT … | DEFAULT VALUES [RETURNING …] → Insert plan whose input yields
 * whole table rows: listed columns with assignment casts, the others their DEFAULT (ColumnDef.defaultExpr,
 * parsed and bound here) or NULL. With ON CONFLICT → bind-on-conflict.ts (ModifyRows).
 */
import { formatType } from '../../common/pgtypes/format-type.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { isWritable, type ColumnDef } from '../../catalog/table-source.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import { parseSql } from '../parser/parse-sql.ts';
import { tryCoerce, INT8 } from './coerce.ts';
import { bindExpr, locOf, resolveUnknownOutput, tagOf } from './bind-expr.ts';
import { lookupRelation } from './bind-from.ts';
import { bindWith } from './bind-cte.ts';
import { figureColname } from './col-name.ts';
import { bindOnConflict } from './bind-on-conflict.ts';
import { Scope } from './scope.ts';
import type { Binder, OutColumn, QueryResult } from './binder.ts';
import { identityValue } from './identity-columns.ts';

type Node = Record<string, unknown>;

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

export function assign(b: Binder, e: Expr, col: ColumnDef, position: number | undefined): Expr {
  const r = tryCoerce(b.env, e, col.type, 'a');
  if (r === undefined) {
    throw pgError(SqlState.datatype_mismatch, `column "${col.name}" is of type ${formatType(col.type.oid)} but expression is of type ${formatType(e.type.oid)}`, {
      ...pos(position), hint: 'You will need to rewrite or cast the expression.',
    });
  }
  return r;
}

/** a column's DEFAULT (ColumnDef.defaultExpr parsed and bound), or a typed NULL */
export function defaultFor(b: Binder, col: ColumnDef): Expr {
  if (col.defaultExpr === undefined) return { kind: 'Literal', value: null, type: col.type };
  const stmt = parseSql(`SELECT ${col.defaultExpr}`)[0]!.ast as Node;
  const rt = (((stmt.SelectStmt as Node).targetList as Node[])[0]!.ResTarget as Node);
  const e = bindExpr(b, rt.val, { scope: new Scope(null), clause: 'DEFAULT expressions', allowAgg: false, allowWindow: false, allowSrf: false });
  return assign(b, e, col, undefined);
}

/** positions in `tcols` of an INSERT's column list (ResTargets), with PostgreSQL's 42703 / 42701 / 0A000 */
export function insertColumns(names: readonly Node[], tcols: readonly ColumnDef[], relName: string): number[] {
  const idx: number[] = [];
  for (const c of names) {
    const rt = c.ResTarget as Node;
    const name = String(rt.name);
    if (rt.indirection !== undefined) throw notSupported('INSERT into subfields or array elements');
    const i = tcols.findIndex((x) => x.name === name);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${name}" of relation "${relName}" does not exist`, pos(locOf(rt)));
    if (idx.includes(i)) throw pgError(SqlState.duplicate_column, `column "${name}" specified more than once`, pos(locOf(rt)));
    idx.push(i);
  }
  return idx;
}

export function bindInsert(b: Binder, n: Node): QueryResult {
  if (n.withClause !== undefined) b.ctes.push(bindWith(b, n.withClause as Node, null));
  const rv = n.relation as Node;
  const rel = lookupRelation(b, rv.schemaname as string | undefined, String(rv.relname), locOf(rv));
  const table = rel.source;
  if (!isWritable(table)) throw pgError(SqlState.wrong_object_type, `cannot insert into relation "${rel.name}"`, pos(locOf(rv)));
  const tcols = table.columns;
  const targetIdx = insertColumns((n.cols as Node[] | undefined) ?? [], tcols, rel.name);
  // without a column list, fewer expressions than columns leave the trailing columns to their defaults
  const explicitCols = targetIdx.length > 0;
  if (targetIdx.length === 0) tcols.forEach((_, i) => targetIdx.push(i));
  const fullRow = (provided: (tableCol: number) => Expr | undefined): Expr[] =>
    tcols.map((c, j) => provided(j) ?? defaultFor(b, c));
  const tableColumns = tcols.map((c) => ({ name: c.name, type: c.type }));

  let input: LogicalPlan;
  const sel = n.selectStmt as Node | undefined;
  const selStmt = sel?.SelectStmt as Node | undefined;
  const plainValues = selStmt?.valuesLists !== undefined && selStmt.sortClause === undefined && selStmt.limitCount === undefined && selStmt.withClause === undefined;
  if (selStmt === undefined) {
    input = { kind: 'Values', rows: [fullRow(() => undefined)], columns: tableColumns };
  } else if (plainValues) {
    const scope = new Scope(null);
    const lists = selStmt.valuesLists as Node[];
    const width = ((lists[0]!.List as Node).items as unknown[]).length;
    const rows = lists.map((l) => {
      const items = (l.List as Node).items as unknown[];
      if (items.length !== width) throw pgError(SqlState.syntax_error, 'VALUES lists must all be the same length', pos(locOf(tagOf(items[0])[1])));
      if (items.length > targetIdx.length) throw pgError(SqlState.syntax_error, 'INSERT has more expressions than target columns', pos(locOf(tagOf(items[targetIdx.length])[1])));
      // PostgreSQL points at the first target column left without an expression
      if (items.length < targetIdx.length && explicitCols) throw pgError(SqlState.syntax_error, 'INSERT has more target columns than expressions', pos(locOf(tagOf((n.cols as unknown[])[items.length])[1])));
      return fullRow((j) => {
        const k = targetIdx.indexOf(j);
        if (k < 0 || k >= items.length) return undefined;
        const [tag, node] = tagOf(items[k]);
        if (tag === 'SetToDefault') return defaultFor(b, tcols[j]!);
        if (identityValue(b, rel, tcols[j]!, n.override) === 'default') return defaultFor(b, tcols[j]!); // identity-columns.ts (SEQ)
        const e = bindExpr(b, items[k], { scope, clause: 'VALUES', allowAgg: false, allowWindow: false, allowSrf: false });
        return assign(b, e, tcols[j]!, locOf(node));
      });
    });
    input = { kind: 'Values', rows, columns: tableColumns };
  } else {
    const src = b.bindSelect(sel!, null, { resolveUnknowns: false });
    if (src.columns.length > targetIdx.length) throw pgError(SqlState.syntax_error, 'INSERT has more expressions than target columns');
    if (src.columns.length < targetIdx.length && explicitCols) throw pgError(SqlState.syntax_error, 'INSERT has more target columns than expressions', pos(locOf(tagOf((n.cols as unknown[])[src.columns.length])[1])));
    const exprs = fullRow((j) => {
      const k = targetIdx.indexOf(j);
      if (k < 0 || k >= src.columns.length) return undefined;
      if (identityValue(b, rel, tcols[j]!, n.override) === 'default') return defaultFor(b, tcols[j]!); // identity-columns.ts (SEQ)
      const c = src.columns[k]!;
      return assign(b, { kind: 'ColumnRef', index: k, levelsUp: 0, type: c.type, name: c.name }, tcols[j]!, undefined);
    });
    input = { kind: 'Projection', input: src.plan, exprs, columns: tableColumns };
  }

  // ON CONFLICT: the proposed rows joined to the target on the arbiter key (bind-on-conflict.ts)
  const upsert = n.onConflictClause === undefined ? null : bindOnConflict(b, n, input);
  if (upsert !== null) return upsert;
  let returning: Expr[] | null = null;
  let columns: OutColumn[] = [{ name: 'count', type: INT8, tableOid: 0, attnum: 0 }];
  const retList = n.returningList as Node[] | undefined;
  if (retList !== undefined) {
    const scope = new Scope(null);
    const alias = (rv.alias as Node | undefined)?.aliasname as string | undefined;
    scope.add({ alias: alias ?? rel.name, schema: rel.schema, columns: tcols.map((c, i) => ({ name: c.name, type: c.type, index: i, tableOid: rel.oid, attnum: i + 1 })) });
    returning = [];
    columns = [];
    for (const r of retList) {
      const rt = r.ResTarget as Node;
      const [tag, node] = tagOf(rt.val);
      if (tag === 'ColumnRef' && (node.fields as Node[]).some((f) => f.A_Star !== undefined)) {
        tcols.forEach((c, i) => {
          returning!.push({ kind: 'ColumnRef', index: i, levelsUp: 0, type: c.type, name: c.name });
          columns.push({ name: c.name, type: c.type, tableOid: rel.oid, attnum: i + 1 });
        });
        continue;
      }
      const e = resolveUnknownOutput(b, bindExpr(b, rt.val, { scope, clause: 'RETURNING', allowAgg: false, allowWindow: false, allowSrf: false }));
      returning.push(e);
      const direct = e.kind === 'ColumnRef' && e.levelsUp === 0;
      columns.push({ name: (rt.name as string | undefined) ?? figureColname(rt.val), type: e.type.oid === Oid.unknown ? e.type : e.type, tableOid: direct ? rel.oid : 0, attnum: direct ? e.index + 1 : 0 });
    }
  }
  const plan: LogicalPlan = {
    kind: 'Insert', table, name: `${rel.schema}.${rel.name}`, tableOid: rel.oid, input, returning,
    columns: columns.map((c) => ({ name: c.name, type: c.type })),
  };
  return { plan, columns, correlated: false };
}
