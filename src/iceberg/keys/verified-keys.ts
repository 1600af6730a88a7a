/**
 * Whether a snapshot's rows are known to be unique on the table's PRIMARY KEY (its identifier fields).
 *
 * Iceberg's identifier fields are a declaration, not a constraint: Spark, Flink or PyIceberg may write rows with
 * equal "keys". lakegate enforces its primary keys on its own writes (key-check.ts), and the optimizer relies on
 * them (unique column sets: a GROUP BY over a key, a key join that keeps one side's rows unique), so it must only
 * rely on a key the data was checked against. The proof travels with the data, so that no other engine has to
 * know about it:
 *
 * - every snapshot lakegate commits to a keyed table carries `lakegate.keys-verified` = the key's field ids in its
 *   summary when its parent was verified for the same key (or the table was empty): lakegate checked the rows it
 *   added against the parent's, so induction holds;
 * - ALTER TABLE ADD PRIMARY KEY checks every row of the snapshot it read and records
 *   `lakegate.keys-verified-snapshot-id` = `<snapshot id>:<field ids>` as a table property.
 *
 * A snapshot another engine writes carries neither (its summary is its own, and the property names another
 * snapshot), and neither does anything after it until a key is added again: the key still shows in pg_constraint,
 * but plans stop relying on it. Naming the field ids keeps a key changed by another engine (Spark's SET IDENTIFIER
 * FIELDS) from inheriting the old key's proof.
 */
import type { Snapshot, TableMetadata } from '../spec/table-metadata.ts';

/** what the proof needs of a snapshot (a rebased one exists only as these two while its commit is built) */
export type SnapshotProofFields = Pick<Snapshot, 'snapshotId' | 'summary'>;
import type { Schema } from '../spec/schema.ts';

/** snapshot summary entry: the identifier field ids (comma-separated) the snapshot's rows were verified unique on */
export const KEYS_VERIFIED_SUMMARY = 'lakegate.keys-verified';
/** table property: `<snapshot id>:<field ids>` of the snapshot ALTER TABLE ADD PRIMARY KEY checked in full */
export const KEYS_VERIFIED_SNAPSHOT_PROPERTY = 'lakegate.keys-verified-snapshot-id';

function keyIds(schema: Schema): string {
  return schema.identifierFieldIds.join(',');
}

/** true when `snapshot`'s rows are known unique on `schema`'s identifier fields (an empty table trivially is) */
export function keysVerifiedAt(md: TableMetadata, schema: Schema, snapshot: SnapshotProofFields | null): boolean {
  if (schema.identifierFieldIds.length === 0) return false;
  if (snapshot === null) return true;
  const ids = keyIds(schema);
  return snapshot.summary[KEYS_VERIFIED_SUMMARY] === ids || md.properties[KEYS_VERIFIED_SNAPSHOT_PROPERTY] === `${snapshot.snapshotId}:${ids}`;
}

/**
 * The summary entry a lakegate commit of a new snapshot over `parent` carries: the proof when the parent had it
 * for the current key (the commit's own rows were checked against it), else nothing.
 */
export function verifiedKeysSummary(md: TableMetadata, schema: Schema, parent: SnapshotProofFields | null): Record<string, string> {
  return keysVerifiedAt(md, schema, parent) ? { [KEYS_VERIFIED_SUMMARY]: keyIds(schema) } : {};
}

/** the table property ALTER TABLE ADD PRIMARY KEY records after checking every row of `snapshot` */
export function verifiedSnapshotProperty(snapshot: SnapshotProofFields | null, identifierFieldIds: readonly number[]): Record<string, string> {
  return snapshot === null ? {} : { [KEYS_VERIFIED_SNAPSHOT_PROPERTY]: `${snapshot.snapshotId}:${identifierFieldIds.join(',')}` };
}
