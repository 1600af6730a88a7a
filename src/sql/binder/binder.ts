/**
 * Binder: resolves names and types of one statement and builds its LogicalPlan (PostgreSQL's analyze.c).
 * One Binder per statement; it carries the CTEs in view and the parameter types being inferred.
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { LogicalPlan } from '../logical/plan.ts';
import type { PlanColumn } from '../logical/plan-column.ts';
import type { BindContext } from './bind-context.ts';
import type { CoerceEnv } from './coerce.ts';
import type { Scope } from './scope.ts';
import { bindSimpleSelect } from './bind-select.ts';
import { bindSetOp, bindValues } from './bind-set-op.ts';
import { bindWith } from './bind-cte.ts';
import { bindSortAndLimitOver } from './bind-order.ts';

type Node = Record<string, unknown>;

/** A bound query block: plan plus output columns with their origin (for RowDescription). */
export interface OutColumn extends PlanColumn {
  readonly tableOid: number;
  readonly attnum: number;
  /** field names of a record-typed column, when known (for `(col).field` one level up) */
  readonly recordFields?: readonly PlanColumn[];
}

export interface QueryResult {
  readonly plan: LogicalPlan;
  readonly columns: readonly OutColumn[];
  /** references a column of an enclosing query level */
  readonly correlated: boolean;
}

export interface ExprScope {
  readonly scope: Scope;
  /** clause name for error messages: `aggregate functions are not allowed in WHERE` */
  readonly clause: string;
  readonly allowAgg: boolean;
  readonly allowWindow: boolean;
  readonly allowSrf: boolean;
  /** inside an aggregate's arguments */
  readonly inAgg?: boolean;
  /** named windows of the WINDOW clause */
  readonly windows?: ReadonlyMap<string, Node>;
}

export interface CteEntry {
  readonly name: string;
  readonly columns: readonly OutColumn[];
  /** the bound CTE, or null while its own recursive term is being bound */
  plan: LogicalPlan | null;
  /** WorkTableScan id while binding the recursive term */
  readonly workTableId?: number;
  /** its body references an enclosing query level */
  correlated?: boolean;
}

export interface SelectOptions {
  /** turn unknown-typed outputs into text (false for INSERT … SELECT and set-operation leaves) */
  readonly resolveUnknowns?: boolean;
}

export class Binder {
  readonly env: CoerceEnv;
  readonly ctes: Map<string, CteEntry>[] = [];
  #nextId = 1;

  /** the statement's parse tree as JSON text, made on first use (mentions) */
  #rootText: string | undefined;

  /** `root`: the whole statement, for mentions() */
  constructor(readonly ctx: BindContext, private readonly root?: unknown) {
    this.env = { functions: ctx.functions, paramTypes: ctx.paramTypes };
  }

  /** whether the statement contains `name` as an identifier or string anywhere (system columns are added only then) */
  mentions(name: string): boolean {
    this.#rootText ??= this.root === undefined ? '' : JSON.stringify(this.root, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    return this.#rootText.includes(JSON.stringify(name));
  }

  nextId(): number {
    return this.#nextId++;
  }

  findCte(name: string): CteEntry | undefined {
    for (let i = this.ctes.length - 1; i >= 0; i--) {
      const e = this.ctes[i]!.get(name);
      if (e !== undefined) return e;
    }
    return undefined;
  }

  /** Binds a SelectStmt (given as `{SelectStmt: …}` or the bare node) whose enclosing level is `parent`. */
  bindSelect(node: Node, parent: Scope | null, opts: SelectOptions = {}): QueryResult {
    const stmt = (node.SelectStmt ?? node) as Node;
    if (stmt.intoClause !== undefined) throw notSupported('SELECT INTO');
    const pushed = stmt.withClause !== undefined;
    const ctes = pushed ? bindWith(this, stmt.withClause as Node, parent) : null;
    if (ctes !== null) this.ctes.push(ctes);
    try {
      let r: QueryResult;
      if (stmt.op !== undefined && stmt.op !== 'SETOP_NONE') {
        r = bindSetOp(this, stmt, parent, opts);
        r = bindSortAndLimitOver(this, r, stmt, parent);
      } else if (stmt.valuesLists !== undefined) {
        r = bindValues(this, stmt.valuesLists as Node[], parent, opts);
        r = bindSortAndLimitOver(this, r, stmt, parent);
      } else {
        r = bindSimpleSelect(this, stmt, parent, opts);
      }
      // a CTE body correlated to an enclosing level makes the whole query block correlated
      return ctes !== null && [...ctes.values()].some((c) => c.correlated) ? { ...r, correlated: true } : r;
    } finally {
      if (pushed) this.ctes.pop();
    }
  }
}

export function columnsOf(cols: readonly { name: string; type: SqlType }[]): PlanColumn[] {
  return cols.map((c) => ({ name: c.name, type: c.type }));
}

export function checkNoLocking(stmt: Node): void {
  if (stmt.lockingClause !== undefined) return; // FOR UPDATE/SHARE: a no-op on read-only snapshots
}

export function syntax(message: string, position?: number): never {
  throw pgError(SqlState.syntax_error, message, position === undefined ? {} : { position });
}
