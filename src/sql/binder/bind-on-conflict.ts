/**
 * INSERT … ON CONFLICT [(cols) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET … [WHERE …] (PostgreSQL's
 * transformOnConflictClause + infer_arbiter_indexes) → ModifyRows over `proposed rows LEFT JOIN target ON
 * <arbiter key equal>`. Arbiters are the table's PRIMARY KEY (Iceberg identifier fields, constraint
 * `<table>_pkey`) and its unique indexes (CREATE UNIQUE INDEX, kept as metadata); ON CONSTRAINT names the
 * primary key (lakegate keeps no UNIQUE constraints). A proposed row joined to a target row conflicts: DO
 * NOTHING skips it, DO UPDATE updates that row (`excluded` = the proposed row); rows proposed twice conflict
 * with each other too (ModifyRows.conflictKeys). The join's runtime key filter reaches the target's row delta
 * scan, so only the target rows of the proposed keys are read (iceberg/commit/row-delta.ts); the keys of the rows
 * written are enforced at commit (iceberg/keys/key-check.ts: 23505).
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Expr } from '../logical/expr.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import type { ModifyAction } from '../logical/modify-rows.ts';
import { BOOL, coerceToBoolean } from './coerce.ts';
import { bindExpr, locOf, makeOp, tagOf } from './bind-expr.ts';
import { bindModifyTarget, bindReturning } from './bind-modify-join.ts';
import { bindAssignments } from './bind-modify.ts';
import { Scope } from './scope.ts';
import { syntax, type Binder, type ExprScope, type QueryResult } from './binder.ts';

type Node = Record<string, unknown>;

function pos(p: number | undefined): { position?: number } {
  return p === undefined ? {} : { position: p };
}

/** `input`: the proposed rows, whole table rows (as bindInsert builds them); null = no arbiter, a plain INSERT */
export function bindOnConflict(b: Binder, n: Node, input: LogicalPlan): QueryResult | null {
  const clause = n.onConflictClause as Node;
  const update = clause.action === 'ONCONFLICT_UPDATE';
  const width = input.columns.length;
  const t = bindModifyTarget(b, n.relation as Node, 'insert into', width);
  const tcols = t.table.columns;
  const arbiters = arbitersOf(t.rel.name, t.rel.primaryKey, t.rel.indexes, clause, tcols.map((c) => c.name), update);
  if (arbiters.length === 0) return null;
  const ref = (i: number): Expr => ({ kind: 'ColumnRef', index: i, levelsUp: 0, type: tcols[i % width]!.type, name: tcols[i % width]!.name });
  const keyEqual = arbiters.map((cols) => cols.map((c) => makeOp(b, '=', ref(c), ref(width + c), undefined)));
  const ands = keyEqual.map((eqs): Expr => (eqs.length === 1 ? eqs[0]! : { kind: 'BoolOp', op: 'and', args: eqs, type: BOOL }));
  const on: Expr = ands.length === 1 ? ands[0]! : { kind: 'BoolOp', op: 'or', args: ands, type: BOOL };
  const plan: LogicalPlan = { kind: 'Join', joinType: 'left', left: input, right: t.scan, condition: on, lateral: false, columns: [...input.columns, ...t.scan.columns] };

  const insert: ModifyAction = { matched: false, condition: null, kind: 'insert', values: tcols.map((_c, j) => ref(j)) };
  let matched: ModifyAction = { matched: true, condition: null, kind: 'nothing', values: null };
  if (update) {
    // SET and WHERE see the target (by its name or alias) and `excluded`, the proposed row
    const scope = new Scope(null);
    scope.add(t.item);
    scope.add({ alias: 'excluded', columns: tcols.map((c, i) => ({ name: c.name, type: c.type, index: i, tableOid: t.rel.oid, attnum: i + 1 })) });
    const es: ExprScope = { scope, clause: 'UPDATE', allowAgg: false, allowWindow: false, allowSrf: false };
    const assigned = bindAssignments(b, clause.targetList as Node[], tcols, [...tcols, ...t.target.system], t.rel.name, es);
    const where = clause.whereClause === undefined ? null : coerceToBoolean(b.env, bindExpr(b, clause.whereClause, { ...es, clause: 'WHERE' }), 'WHERE', locOf(tagOf(clause.whereClause)[1]));
    matched = { matched: true, condition: where, kind: 'update', values: tcols.map((_c, j) => assigned.get(j) ?? ref(width + j)) };
  }
  const retScope = new Scope(null);
  retScope.add(t.item);
  const ret = bindReturning(b, n.returningList as Node[] | undefined, retScope);
  const k = t.target.system.length;
  return {
    plan: {
      kind: 'ModifyRows', command: 'insert', table: t.table, name: `${t.rel.schema}.${t.rel.name}`, tableOid: t.rel.oid, target: t.target, input: plan,
      rowId: { start: width, system: width + tcols.length, file: width + tcols.length + k, pos: width + tcols.length + k + 1 },
      actions: [matched, insert], repeat: update ? 'error' : 'skip',
      conflictKeys: arbiters.map((cols) => cols.map((c) => ({ index: c, oid: tcols[c]!.type.oid }))), onInsertedConflict: update ? 'error' : 'nothing',
      returning: ret.returning, columns: ret.columns.map((c) => ({ name: c.name, type: c.type })),
    },
    columns: ret.columns,
    correlated: false,
  };
}

/** the arbiter keys (column positions) the clause selects: infer_arbiter_indexes over the PK and unique indexes */
function arbitersOf(
  rel: string, primaryKey: readonly number[] | undefined, indexes: readonly { name: string; columns: readonly number[]; unique: boolean }[] | undefined,
  clause: Node, names: readonly string[], update: boolean,
): (readonly number[])[] {
  const pk = primaryKey !== undefined && primaryKey.length > 0 ? [{ name: `${rel}_pkey`.slice(0, 63), columns: primaryKey }] : [];
  const unique = [...pk, ...(indexes ?? []).filter((ix) => ix.unique)];
  const infer = clause.infer as Node | undefined;
  if (infer === undefined) {
    if (update) {
      throw pgError(SqlState.syntax_error, 'ON CONFLICT DO UPDATE requires inference specification or constraint name', { ...pos(locOf(clause)), hint: 'For example, ON CONFLICT (column_name).' });
    }
    return unique.map((ix) => ix.columns);
  }
  if (infer.conname !== undefined) {
    const name = String(infer.conname);
    const c = pk.find((ix) => ix.name === name);
    if (c === undefined) throw pgError(SqlState.undefined_object, `constraint "${name}" for table "${rel}" does not exist`);
    return [c.columns];
  }
  const wanted = new Set<number>();
  for (const e of (infer.indexElems as Node[] | undefined) ?? []) {
    const el = e.IndexElem as Node;
    if (el.name === undefined) syntax('ON CONFLICT with an expression index is not supported');
    const i = names.indexOf(String(el.name));
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${String(el.name)}" does not exist`, pos(locOf(infer)));
    wanted.add(i);
  }
  const match = unique.filter((ix) => ix.columns.length === wanted.size && ix.columns.every((c) => wanted.has(c)));
  if (match.length === 0) throw pgError(SqlState.invalid_column_reference, 'there is no unique or exclusion constraint matching the ON CONFLICT specification');
  return [match[0]!.columns];
}
