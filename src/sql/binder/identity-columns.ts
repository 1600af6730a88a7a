/**
 * Identity columns in INSERT (PostgreSQL's rewriteTargetListIU): a value given for a GENERATED ALWAYS column
 * is 428C9 unless OVERRIDING SYSTEM VALUE; OVERRIDING USER VALUE makes any identity column take its
 * default instead. A column is an identity when the sequence its nextval DEFAULT uses is owned by it as one
 * (SequenceOwner.identity).
 * @see https://www.postgresql.org/docs/15/sql-insert.html
 */
import { pgError } from '../../common/errors.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { SequenceSource } from '../../catalog/sequences/sequence-source.ts';
import type { Binder } from './binder.ts';

/** 'a' / 'd' for an identity column of `rel`, else '' */
export function columnIdentity(b: Binder, rel: RelationInfo, col: ColumnDef): '' | 'a' | 'd' {
  if (col.defaultExpr === undefined || !col.defaultExpr.startsWith('nextval(')) return '';
  for (const r of b.ctx.catalog.relations()) {
    if (r.kind !== 'S' || r.schema !== rel.schema || !(r.source instanceof SequenceSource)) continue;
    const owner = r.source.latest.ownedBy;
    if (owner?.table === rel.name && owner.column === col.name) return owner.identity ?? '';
  }
  return '';
}

/** a value given for `col`: 'value' keeps it, 'default' replaces it by the column's default; 428C9 for ALWAYS */
export function identityValue(b: Binder, rel: RelationInfo, col: ColumnDef, override: unknown): 'value' | 'default' {
  const identity = columnIdentity(b, rel, col);
  if (identity === '') return 'value';
  if (override === 'OVERRIDING_USER_VALUE') return 'default';
  if (identity === 'a' && override !== 'OVERRIDING_SYSTEM_VALUE') {
    throw pgError('428C9', `cannot insert a non-DEFAULT value into column "${col.name}"`, {
      detail: `Column "${col.name}" is an identity column defined as GENERATED ALWAYS.`,
      hint: 'Use OVERRIDING SYSTEM VALUE to override.',
    });
  }
  return 'value';
}
