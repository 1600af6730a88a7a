/** Entry point of the binder: one parsed statement → BoundQuery (plan + result columns + parameter types). */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { BindContext, BoundQuery } from './bind-context.ts';
import { Binder, type QueryResult } from './binder.ts';
import { bindInsert } from './bind-insert.ts';
import { bindModify } from './bind-modify.ts';
import { bindMerge } from './bind-merge.ts';
import { tagOf } from './bind-expr.ts';

type Node = Record<string, unknown>;

const STATEMENT_NAMES: Record<string, string> = { MergeStmt: 'MERGE' };

/** SelectStmt (incl. VALUES, set operations, WITH), InsertStmt, UpdateStmt, DeleteStmt (RETURNING optional), MergeStmt. */
export function bindQuery(ast: unknown, ctx: BindContext): BoundQuery {
  const b = new Binder(ctx, ast);
  const [tag, n] = tagOf(ast);
  let r: QueryResult;
  switch (tag) {
    case 'SelectStmt': r = b.bindSelect(n as Node, null); break;
    case 'InsertStmt': r = bindInsert(b, n as Node); break;
    case 'UpdateStmt': r = bindModify(b, n as Node, 'update'); break;
    case 'DeleteStmt': r = bindModify(b, n as Node, 'delete'); break;
    case 'MergeStmt': r = bindMerge(b, n as Node); break;
    default: throw notSupported(STATEMENT_NAMES[tag] ?? `statement ${tag}`);
  }
  ctx.paramTypes.forEach((t, i) => {
    if (t.oid === 0) throw pgError(SqlState.indeterminate_datatype, `could not determine data type of parameter $${i + 1}`);
  });
  return {
    columns: r.columns.map((c) => ({ name: c.name, type: c.type, tableOid: c.tableOid, attnum: c.attnum })),
    paramTypes: ctx.paramTypes,
    plan: r.plan,
  };
}
