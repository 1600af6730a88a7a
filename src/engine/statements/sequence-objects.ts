/**
 * Sequence objects on the session's catalog: which store a schema's sequences live in (TEMP: the session's
 * memory; an Iceberg namespace: the SQL catalog's `lakegate_sequences`; the `public` memory schema: the
 * database's memory), and creating, changing and dropping them as relations of kind 'S'. Used by the
 * sequence statements (sequence-stmt.ts) and by serial / identity columns (serial-columns.ts).
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { SequenceSource } from '../../catalog/sequences/sequence-source.ts';
import type { SequenceStore, StoredSequence } from '../../catalog/sequences/sequence-store.ts';
import { sessionSequences } from '../../catalog/sequences/session-sequences.ts';
import type { EngineSession } from '../engine-session.ts';

/** the store of a schema's sequences; 0A000 on an Iceberg namespace of a catalog that has none (REST) */
export async function sequenceStoreFor(session: EngineSession, schema: string, temp: boolean): Promise<SequenceStore> {
  if (temp) return session.catalog.tempSequences;
  const iceberg = session.iceberg;
  if (iceberg !== undefined && (await iceberg.catalog.namespaceExists([schema]))) {
    if (iceberg.sequences === undefined) {
      throw pgError(SqlState.feature_not_supported, `cannot create sequences in schema "${schema}"`, {
        detail: 'Sequences of Iceberg namespaces are kept in the embedded SQL catalog\'s database; this server\'s catalog is read-only or a REST catalog, which has no place for them.',
        hint: 'Create the sequence as TEMP, or use an integer column without a sequence default.',
      });
    }
    return iceberg.sequences;
  }
  return session.catalog.db.sequences;
}

/** CREATE SEQUENCE (and serial / identity columns): false when it exists and `ifNotExists` (the caller's NOTICE) */
export async function createSequenceObject(session: EngineSession, temp: boolean, seq: StoredSequence, ifNotExists: boolean): Promise<boolean> {
  const existing = session.catalog.findRelation(seq.namespace, seq.name);
  if (existing !== undefined) {
    if (ifNotExists) return false;
    throw pgError(SqlState.duplicate_table, `relation "${seq.name}" already exists`);
  }
  const store = await sequenceStoreFor(session, seq.namespace, temp);
  if (store.persistent) {
    if (!(await store.create(seq))) {
      if (ifNotExists) return false;
      throw pgError(SqlState.duplicate_table, `relation "${seq.name}" already exists`);
    }
    await session.iceberg!.refresh(true);
  } else {
    await store.create(seq);
    const db = session.catalog.db;
    const schemaInfo = temp ? session.catalog.tempSchema() : db.schema(seq.namespace)!;
    const info: RelationInfo = {
      oid: db.allocOid(), schema: seq.namespace, schemaOid: schemaInfo.oid, name: seq.name, kind: 'S', persistence: temp ? 't' : 'p',
      rowTypeOid: db.allocOid(), source: new SequenceSource(store, seq),
    };
    if (temp) session.catalog.addTempRelation(info);
    else {
      try {
        db.addRelation(info);
      } catch (e) {
        await store.drop(seq.namespace, seq.name);
        throw e;
      }
    }
  }
  session.server.catalogChanged();
  return true;
}

export function sequenceSourceOf(rel: RelationInfo): SequenceSource {
  if (!(rel.source instanceof SequenceSource)) throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a sequence`);
  return rel.source;
}

/** ALTER SEQUENCE, OWNED BY, RENAME: one read-modify-write in the sequence's store */
export async function updateSequenceObject(session: EngineSession, rel: RelationInfo, fn: (seq: StoredSequence) => StoredSequence): Promise<StoredSequence> {
  const source = sequenceSourceOf(rel);
  const renamed = { to: '' };
  const next = await source.store.update(source.namespace, source.name, (s) => {
    const n = fn(s);
    if (n.name !== s.name) {
      if (session.catalog.findRelation(n.namespace, n.name) !== undefined) throw pgError(SqlState.duplicate_table, `relation "${n.name}" already exists`);
      renamed.to = n.name;
    }
    return n;
  });
  source.latest = next;
  if (source.store.persistent) await session.iceberg!.refresh(true);
  else if (renamed.to !== '') {
    const moved: RelationInfo = { ...rel, name: renamed.to };
    if (rel.persistence === 't') {
      session.catalog.removeTempRelation(rel.name);
      session.catalog.addTempRelation(moved);
    } else {
      session.catalog.db.removeRelation(rel.schema, rel.name);
      session.catalog.db.replaceRelation(moved);
    }
  }
  sessionSequences(session.catalog).afterSetval(rel.oid, undefined);
  session.server.catalogChanged();
  return next;
}

/** DROP SEQUENCE, and the sequences a dropped table owned */
export async function dropSequenceObject(session: EngineSession, rel: RelationInfo): Promise<void> {
  const source = sequenceSourceOf(rel);
  await source.store.drop(source.namespace, source.name);
  if (source.store.persistent) await session.iceberg!.refresh(true);
  else if (rel.persistence === 't') session.catalog.removeTempRelation(rel.name);
  else session.catalog.db.removeRelation(rel.schema, rel.name);
  session.server.catalogChanged();
}

/** the sequences owned by columns of `table` (serial, identity, OWNED BY), optionally of one column */
export function ownedSequenceRelations(session: EngineSession, table: RelationInfo, column?: string): RelationInfo[] {
  return session.catalog.relations().filter((r) => r.kind === 'S' && r.schema === table.schema && r.source instanceof SequenceSource
    && r.source.latest.ownedBy?.table === table.name && (column === undefined || r.source.latest.ownedBy.column === column));
}

/** DROP TABLE: the sequences its columns own go with it (PostgreSQL's auto / internal dependencies) */
export async function dropOwnedSequences(session: EngineSession, table: RelationInfo): Promise<void> {
  for (const seq of ownedSequenceRelations(session, table)) await dropSequenceObject(session, seq);
}
