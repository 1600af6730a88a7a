/**
 * MERGE INTO t [AS a] USING <table | (subquery)> [AS s] ON … WHEN [NOT] MATCHED [AND …] THEN UPDATE SET … |
 * DELETE | INSERT [(cols)] VALUES (…) | INSERT DEFAULT VALUES | DO NOTHING (PostgreSQL 15's transformMergeStmt)
 * → ModifyRows over `source LEFT JOIN target ON …`: a row whose target side is there is MATCHED, else NOT
 * MATCHED; the WHEN clauses are its actions in order. NOT MATCHED clauses see only the source (as in
 * PostgreSQL); a target row changed by a second source row is 21000 at execution.
 */
import { GatewayError, notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import type { ModifyAction } from '../logical/modify-rows.ts';
import { coerceToBoolean, INT8 } from './coerce.ts';
import { bindExpr, locOf, tagOf } from './bind-expr.ts';
import { bindFromList, checkNameConflicts } from './bind-from.ts';
import { assign, defaultFor, insertColumns } from './bind-insert.ts';
import { bindAssignments } from './bind-modify.ts';
import { bindModifyTarget } from './bind-modify-join.ts';
import { bindWith } from './bind-cte.ts';
import { Scope } from './scope.ts';
import { syntax, type Binder, type ExprScope, type QueryResult } from './binder.ts';

type Node = Record<string, unknown>;

export function bindMerge(b: Binder, n: Node): QueryResult {
  if ((n.returningList as unknown[] | undefined)?.length) syntax('syntax error at or near "RETURNING"');
  if (n.withClause !== undefined) b.ctes.push(bindWith(b, n.withClause as Node, null));
  const srcScope = new Scope(null);
  const source = bindFromList(b, [n.sourceRelation], srcScope);
  const start = source.columns.length;
  const t = bindModifyTarget(b, n.relation as Node, 'merge into', start);
  try {
    checkNameConflicts([t.item], srcScope.items);
  } catch {
    throw pgError('42712', `name "${t.item.alias!}" specified more than once`, { detail: 'The name is used both as MERGE target table and data source.' });
  }
  const tcols = t.table.columns;
  const k = t.target.system.length;
  const both = new Scope(null);
  for (const it of srcScope.items) both.add(it);
  both.add(t.item);
  const on = coerceToBoolean(b.env, bindExpr(b, n.joinCondition, { scope: both, clause: 'JOIN conditions', allowAgg: false, allowWindow: false, allowSrf: false }), 'JOIN/ON', locOf(tagOf(n.joinCondition)[1]));
  const input: LogicalPlan = { kind: 'Join', joinType: 'left', left: source, right: t.scan, condition: on, lateral: false, columns: [...source.columns, ...t.scan.columns] };
  const ref = (j: number): Expr => ({ kind: 'ColumnRef', index: start + j, levelsUp: 0, type: tcols[j]!.type, name: `${t.item.alias!}.${tcols[j]!.name}` });

  const actions: ModifyAction[] = [];
  const unconditional = new Set<boolean>();
  for (const w of n.mergeWhenClauses as Node[]) {
    const c = w.MergeWhenClause as Node;
    if (c.matchKind === 'MERGE_WHEN_NOT_MATCHED_BY_SOURCE') syntax('syntax error at or near "BY"');
    const matched = c.matchKind === 'MERGE_WHEN_MATCHED';
    if (unconditional.has(matched)) syntax('unreachable WHEN clause specified after unconditional WHEN clause');
    if (c.condition === undefined) unconditional.add(matched);
    const es: ExprScope = { scope: matched ? both : srcScope, clause: 'MERGE WHEN', allowAgg: false, allowWindow: false, allowSrf: false };
    const condition = c.condition === undefined ? null : coerceToBoolean(b.env, bindExpr(b, c.condition, es), 'WHEN', locOf(tagOf(c.condition)[1]));
    switch (c.commandType) {
      case 'CMD_UPDATE': {
        const assigned = mergeAssignments(() => bindAssignments(b, c.targetList as Node[], tcols, [...tcols, ...t.target.system], t.rel.name, { ...es, clause: 'UPDATE' }));
        actions.push({ matched, condition, kind: 'update', values: tcols.map((_c, j) => assigned.get(j) ?? ref(j)) });
        break;
      }
      case 'CMD_DELETE': actions.push({ matched, condition, kind: 'delete', values: null }); break;
      case 'CMD_NOTHING': actions.push({ matched, condition, kind: 'nothing', values: null }); break;
      case 'CMD_INSERT': {
        if (c.override !== undefined && c.override !== 'OVERRIDING_NOT_SET') throw notSupported('OVERRIDING in MERGE');
        actions.push({ matched, condition, kind: 'insert', values: insertValues(b, c, t.table.columns, t.rel.name, es) });
        break;
      }
      default: throw notSupported(`MERGE action ${String(c.commandType)}`);
    }
  }
  return {
    plan: {
      kind: 'ModifyRows', command: 'merge', table: t.table, name: `${t.rel.schema}.${t.rel.name}`, tableOid: t.rel.oid, target: t.target, input,
      rowId: { start, system: start + tcols.length, file: start + tcols.length + k, pos: start + tcols.length + k + 1 },
      actions, repeat: 'error', returning: null, columns: [{ name: 'count', type: INT8 }],
    },
    columns: [{ name: 'count', type: INT8, tableOid: 0, attnum: 0 }],
    correlated: false,
  };
}

/** PostgreSQL's MERGE reports a column assigned twice as a syntax error (42601), UPDATE as 42701 */
function mergeAssignments<T>(bind: () => T): T {
  try {
    return bind();
  } catch (e) {
    if (e instanceof GatewayError && e.code === SqlState.duplicate_column) throw pgError(SqlState.syntax_error, e.message, e.position === undefined ? {} : { position: e.position });
    throw e;
  }
}

/** INSERT [(cols)] VALUES (…) | INSERT DEFAULT VALUES of a WHEN NOT MATCHED clause: the whole new row */
function insertValues(b: Binder, c: Node, tcols: readonly ColumnDef[], relName: string, es: ExprScope): Expr[] {
  const names = (c.targetList as Node[] | undefined) ?? [];
  const values = (c.values as unknown[] | undefined) ?? [];
  const idx = insertColumns(names, tcols, relName);
  const explicit = idx.length > 0;
  if (!explicit) tcols.forEach((_c, i) => idx.push(i));
  if (values.length > idx.length) syntax('INSERT has more expressions than target columns', locOf(tagOf(values[idx.length])[1]));
  if (explicit && values.length < idx.length) syntax('INSERT has more target columns than expressions', locOf(tagOf(names[values.length])[1]));
  return tcols.map((col, j) => {
    const k = idx.indexOf(j);
    if (k < 0 || k >= values.length) return defaultFor(b, col);
    const [tag, node] = tagOf(values[k]);
    if (tag === 'SetToDefault') return defaultFor(b, col);
    return assign(b, bindExpr(b, values[k], { ...es, clause: 'VALUES' }), col, locOf(node));
  });
}
