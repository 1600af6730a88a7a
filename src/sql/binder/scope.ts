/**
 * Scope: the FROM-clause items visible while binding one query level, and name lookup through them
 * (PostgreSQL's ParseNamespaceItem list). `parent` is the enclosing query level, reached by correlated references.
 */
import type { SqlType } from '../../common/pgtypes/oids.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';

export interface ScopeColumn {
  readonly name: string;
  readonly type: SqlType;
  /** position in the row this scope's plan produces */
  readonly index: number;
  readonly tableOid: number;
  readonly attnum: number;
  /** merged away by JOIN USING/NATURAL: not visible unqualified, not in `*` */
  usingHidden?: boolean;
  /** dropped from `*` (e.g. hidden helper columns) */
  readonly starHidden?: boolean;
  /** field names of a record-typed column, when known (for `(col).field`) */
  readonly recordFields?: readonly { readonly name: string; readonly type: SqlType }[];
}

export interface RangeItem {
  /** alias or relation name; null for the unnamed merged-columns item of JOIN USING */
  readonly alias: string | null;
  /** schema of a base relation, for schema.table.column references */
  readonly schema?: string;
  readonly columns: ScopeColumn[];
  /** a join's alias hides the inner items' names for qualified lookup */
  qualifiedHidden?: boolean;
  /** OID of a base relation referenced without an alias (two such items may share a name: checkNameSpaceConflicts) */
  readonly unaliasedRelation?: number;
  /** OID of a base relation (any alias): its system column tableoid */
  readonly relationOid?: number;
}

/** system columns a base relation offers beyond its own (PostgreSQL's SystemAttributeByName); only tableoid here */
export const SYSTEM_COLUMNS: ReadonlySet<string> = new Set(['tableoid']);

export interface ResolvedColumn {
  readonly column: ScopeColumn;
  readonly item: RangeItem;
  readonly levelsUp: number;
}

export class Scope {
  readonly items: RangeItem[] = [];
  /** set when a lookup from this level (or below) reached a level above it */
  hasOuterRefs = false;
  /**
   * `markAlso`: a FROM-clause subquery or LATERAL item sees the enclosing query's parent directly (its own
   * level is evaluated inside the enclosing plan), so a reference passing through it also correlates `markAlso`.
   */
  constructor(readonly parent: Scope | null, readonly markAlso: Scope | null = null, readonly transparent = false) {}

  /**
   * A scope standing for `level` inside its own FROM clause: it has no items and is not a query level of its
   * own (lookups go straight to level.parent without counting), but references through it correlate `level`.
   */
  static passThrough(level: Scope): Scope {
    return new Scope(level.parent, level, true);
  }

  add(item: RangeItem): void {
    this.items.push(item);
  }

  /** columns in `*` order */
  starColumns(): ScopeColumn[] {
    return this.items.flatMap((it) => it.columns.filter((c) => !c.usingHidden && !c.starHidden));
  }

  findItem(name: string, schema?: string): RangeItem | undefined {
    const matches = this.items.filter((it) => !it.qualifiedHidden && it.alias === name && (schema === undefined || it.schema === schema));
    if (matches.length > 1) throw pgError(SqlState.ambiguous_alias, `table reference "${name}" is ambiguous`);
    return matches[0];
  }

  /** Resolves `a`, `t.a` or `s.t.a` here or in an enclosing level; undefined if nowhere. */
  resolve(fields: readonly string[], position?: number): ResolvedColumn | undefined {
    let scope: Scope | null = this;
    let levelsUp = 0;
    const visited: Scope[] = [];
    while (scope !== null) {
      const r = scope.resolveHere(fields, position);
      if (r !== undefined) {
        for (const s of visited) {
          s.hasOuterRefs = true;
          if (s.markAlso !== null) s.markAlso.hasOuterRefs = true;
        }
        return { ...r, levelsUp };
      }
      visited.push(scope);
      if (!scope.transparent) levelsUp++;
      scope = scope.parent;
    }
    return undefined;
  }

  resolveHere(fields: readonly string[], position?: number): { column: ScopeColumn; item: RangeItem } | undefined {
    const colName = fields[fields.length - 1]!;
    if (fields.length === 1) {
      let found: { column: ScopeColumn; item: RangeItem } | undefined;
      for (const item of this.items) {
        for (const c of item.columns) {
          if (c.name !== colName || c.usingHidden) continue;
          if (found !== undefined && found.column.index !== c.index) {
            throw pgError(SqlState.ambiguous_column, `column reference "${colName}" is ambiguous`, position === undefined ? {} : { position });
          }
          found = { column: c, item };
        }
      }
      return found;
    }
    const tableName = fields[fields.length - 2]!;
    const schema = fields.length >= 3 ? fields[fields.length - 3] : undefined;
    const item = this.findItem(tableName, schema);
    if (item === undefined) return undefined;
    const col = item.columns.filter((c) => c.name === colName);
    if (col.length === 0) {
      if (item.relationOid !== undefined && SYSTEM_COLUMNS.has(colName)) return undefined;
      throw pgError(SqlState.undefined_column, `column ${tableName}.${colName} does not exist`, position === undefined ? {} : { position });
    }
    if (col.length > 1) throw pgError(SqlState.ambiguous_column, `column reference "${colName}" is ambiguous`, position === undefined ? {} : { position });
    return { column: col[0]!, item };
  }

  /**
   * A system column (`tableoid`, `t.tableoid`) of a base relation visible here or in an enclosing level, when no
   * ordinary column has that name: the relation's OID. Unqualified, it is ambiguous between two relations.
   */
  systemColumn(fields: readonly string[], position?: number): { relationOid: number; name: string } | undefined {
    const colName = fields[fields.length - 1]!;
    if (!SYSTEM_COLUMNS.has(colName) || fields.length > 3) return undefined;
    const table = fields.length >= 2 ? fields[fields.length - 2] : undefined;
    const schema = fields.length === 3 ? fields[0] : undefined;
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      const hits = s.items.filter((it) => it.relationOid !== undefined && !it.qualifiedHidden
        && (table === undefined || (it.alias === table && (schema === undefined || it.schema === schema))));
      if (hits.length > 1) throw pgError(SqlState.ambiguous_column, `column reference "${colName}" is ambiguous`, position === undefined ? {} : { position });
      if (hits.length === 1) return { relationOid: hits[0]!.relationOid!, name: colName };
    }
    return undefined;
  }

  /** true if some level has a FROM item of that name (for "missing FROM-clause entry" vs undefined column) */
  hasItemNamed(name: string): boolean {
    for (let s: Scope | null = this; s !== null; s = s.parent) if (s.items.some((i) => i.alias === name)) return true;
    return false;
  }
}
