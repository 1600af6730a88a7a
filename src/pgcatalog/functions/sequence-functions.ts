/**
 * Sequence manipulation functions: nextval, currval, setval, lastval, and pg_get_serial_sequence. The
 * sequence is a relation of kind 'S' whose source is a SequenceSource; the per-session state (currval,
 * lastval, cached values) is SessionSequences, keyed by the session's CatalogView.
 * @see https://www.postgresql.org/docs/15/functions-sequence.html
 */
import { pgError } from '../../common/errors.ts';
import { Oid } from '../../common/pgtypes/index.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { checkSetval } from '../../catalog/sequences/sequence-options.ts';
import { SequenceSource } from '../../catalog/sequences/sequence-source.ts';
import { sessionSequences } from '../../catalog/sequences/session-sequences.ts';
import type { EvalContext, RoutineDef } from '../../functions/registry-types.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import { quoteIdent } from '../catalog-snapshot.ts';
import { snapshotFor } from '../eval-snapshot.ts';
import { regclassIn } from '../reg-names.ts';
import { scalar } from './define.ts';

/** the sequence behind a regclass argument, or PostgreSQL's errors */
function sequenceOf(ctx: EvalContext, oid: number): { rel: RelationInfo; source: SequenceSource } {
  const rel = snapshotFor(ctx).relationByOid(oid);
  if (rel === undefined) throw pgError('42P01', `could not open relation with OID ${oid}`);
  if (!(rel.source instanceof SequenceSource)) throw pgError('42809', `"${rel.name}" is not a sequence`);
  return { rel, source: rel.source };
}

function nextval(ctx: EvalContext, oid: number): bigint | Promise<bigint> {
  const { source } = sequenceOf(ctx, oid);
  return sessionSequences(ctx.catalog).nextval(oid, source, ctx.statementTimestamp);
}

async function setval(ctx: EvalContext, oid: number, value: bigint, isCalled: boolean): Promise<bigint> {
  const { rel, source } = sequenceOf(ctx, oid);
  checkSetval(rel.name, source.latest.options, value);
  source.latest = await source.store.update(source.namespace, source.name, (s) => {
    checkSetval(rel.name, s.options, value);
    return { ...s, state: { lastValue: value, isCalled } };
  });
  sessionSequences(ctx.catalog).afterSetval(oid, isCalled ? value : undefined);
  return value;
}

/** the sequences owned by a column (serial, identity, OWNED BY), in the column's schema */
export function ownedSequences(snap: CatalogSnapshot, table: RelationInfo, column: string): RelationInfo[] {
  return snap.relations.filter((r) => r.kind === 'S' && r.schema === table.schema && r.source instanceof SequenceSource
    && r.source.latest.ownedBy?.table === table.name && r.source.latest.ownedBy.column === column);
}

function serialSequence(ctx: EvalContext, tableName: string, column: string): string | null {
  const snap = snapshotFor(ctx);
  const oid = regclassIn(tableName, snap)!;
  const table = snap.relationByOid(oid);
  if (table === undefined) return null;
  if (!snap.columnsOf(table).some((c) => c.name === column)) {
    throw pgError('42703', `column "${column}" of relation "${table.name}" does not exist`);
  }
  const seq = ownedSequences(snap, table, column)[0];
  return seq === undefined ? null : `${quoteIdent(seq.schema)}.${quoteIdent(seq.name)}`;
}

export const sequenceFunctions: readonly RoutineDef[] = [
  { ...scalar('nextval', [Oid.regclass], Oid.int8, ([oid], ctx) => nextval(ctx, oid as number), { volatility: 'v' }), oid: 1574 },
  {
    ...scalar('currval', [Oid.regclass], Oid.int8, ([oid], ctx) => {
      const { rel } = sequenceOf(ctx, oid as number);
      return sessionSequences(ctx.catalog).currval(oid as number, rel.name);
    }, { volatility: 'v' }),
    oid: 1575,
  },
  {
    ...scalar('lastval', [], Oid.int8, (_a, ctx) => {
      const s = sessionSequences(ctx.catalog);
      const oid = s.lastvalOid();
      const rel = snapshotFor(ctx).relationByOid(oid);
      if (rel === undefined) throw pgError('55000', 'lastval is not yet defined in this session');
      return s.currval(oid, rel.name);
    }, { volatility: 'v' }),
    oid: 2559,
  },
  { ...scalar('setval', [Oid.regclass, Oid.int8], Oid.int8, ([oid, v], ctx) => setval(ctx, oid as number, v as bigint, true), { volatility: 'v' }), oid: 1576 },
  {
    ...scalar('setval', [Oid.regclass, Oid.int8, Oid.bool], Oid.int8, ([oid, v, called], ctx) => setval(ctx, oid as number, v as bigint, called as boolean), { volatility: 'v' }),
    oid: 1765,
  },
  { ...scalar('pg_get_serial_sequence', [Oid.text, Oid.text], Oid.text, ([t, c], ctx) => serialSequence(ctx, t as string, c as string)), oid: 1665 },
];
