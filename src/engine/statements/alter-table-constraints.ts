/**
 * ALTER TABLE t ADD [CONSTRAINT name] PRIMARY KEY (…) / UNIQUE (…) and ALTER TABLE t DROP CONSTRAINT [IF EXISTS]
 * name, as PostgreSQL 15: the key's index is built over the existing rows first (23505 `could not create unique
 * index`, unique-index-build.ts; a PRIMARY KEY column holding NULL is 23502) and nothing changes when it fails.
 * A PRIMARY KEY becomes the Iceberg identifier fields (columns made required, which Iceberg allows only while
 * the table has no data file unless they are NOT NULL already) and its name the table property
 * `lakegate.primary-key-name`; a UNIQUE constraint is a unique index marked as a constraint (IndexInfo.constraint:
 * pg_constraint contype 'u'). DROP CONSTRAINT of a primary key leaves its columns NOT NULL, as PostgreSQL 15 does.
 * @see https://www.postgresql.org/docs/15/sql-altertable.html
 */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { PRIMARY_KEY_NAME_PROPERTY } from '../../iceberg/keys/unique-keys.ts';
import { verifiedSnapshotProperty } from '../../iceberg/keys/verified-keys.ts';
import { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import type { EngineSession } from '../engine-session.ts';
import { nodeBody, stringList, type AstNode } from '../ast.ts';
import { MemoryTable } from '../memory-table.ts';
import { chooseIndexName, indexNamed, storeRelation } from './index-stmt.ts';
import { checkUniqueIndexBuild } from './unique-index-build.ts';
import { checkNoNulls, finishMemoryAlter, memoryAlterState } from './alter-memory-table.ts';

/** whether an AlterTableCmd is one this file runs */
export function isConstraintCommand(cmd: AstNode): boolean {
  if (cmd.subtype === 'AT_DropConstraint') return true;
  if (cmd.subtype !== 'AT_AddConstraint') return false;
  const contype = nodeBody(cmd.def).contype;
  return contype === 'CONSTR_PRIMARY' || contype === 'CONSTR_UNIQUE';
}

function primaryKeyNameOf(rel: RelationInfo): string | undefined {
  return rel.primaryKey === undefined || rel.primaryKey.length === 0 ? undefined : rel.primaryKeyName ?? `${rel.name}_pkey`.slice(0, 63);
}

/** runs one ADD / DROP CONSTRAINT on `rel`; returns the relation as the catalog now has it */
export async function runConstraintCommand(session: EngineSession, rel: RelationInfo, cmd: AstNode, replace: (next: RelationInfo) => void): Promise<RelationInfo> {
  if (cmd.subtype === 'AT_DropConstraint') return dropConstraint(session, rel, String(cmd.name ?? ''), cmd.missing_ok === true, replace);
  const con = nodeBody(cmd.def);
  if (Array.isArray(con.including) && con.including.length > 0) throw notSupported('INCLUDE columns in UNIQUE constraints');
  if (con.nulls_not_distinct === true) throw notSupported('UNIQUE NULLS NOT DISTINCT');
  if (typeof con.indexname === 'string') throw notSupported('ADD CONSTRAINT … USING INDEX');
  const primary = con.contype === 'CONSTR_PRIMARY';
  const names = stringList(con.keys);
  const columns = names.map((n) => {
    const i = rel.source.columns.findIndex((c) => c.name === n);
    if (i < 0) throw pgError(SqlState.undefined_column, primary ? `column "${n}" of relation "${rel.name}" does not exist` : `column "${n}" named in key does not exist`);
    return i;
  });
  if (primary && primaryKeyNameOf(rel) !== undefined) throw pgError('42P16', `multiple primary keys for table "${rel.name}" are not allowed`);
  const explicit = typeof con.conname === 'string' ? con.conname : undefined;
  const name = explicit ?? (primary ? choosePrimaryKeyName(session, rel) : chooseIndexName(session, rel, names, 'key'));
  if (session.catalog.findRelation(rel.schema, name) !== undefined || indexNamed(session, rel.schema, name) !== undefined || primaryKeyNamed(session, rel.schema, name)) {
    throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
  }
  if (primary) return addPrimaryKey(session, rel, columns, name, replace);
  await checkUniqueIndexBuild(session, rel, columns, name);
  const next: RelationInfo = { ...rel, indexes: [...(rel.indexes ?? []), { oid: session.catalog.db.allocOid(), name, columns, unique: true, constraint: true }] };
  await storeRelation(session, next);
  return session.catalog.findRelation(rel.schema, rel.name) ?? next;
}

/** ChooseConstraintName(table, NULL, "pkey"): `<table>_pkey`, then `_pkey1`, … when the name is taken */
function choosePrimaryKeyName(session: EngineSession, rel: RelationInfo): string {
  for (let pass = 0; ; pass++) {
    const label = pass === 0 ? 'pkey' : `pkey${pass}`;
    const candidate = `${rel.name.slice(0, 63 - label.length - 1)}_${label}`;
    if (session.catalog.findRelation(rel.schema, candidate) === undefined && indexNamed(session, rel.schema, candidate) === undefined) return candidate;
  }
}

function primaryKeyNamed(session: EngineSession, schema: string, name: string): boolean {
  return session.catalog.relations().some((r) => r.schema === schema && primaryKeyNameOf(r) === name);
}

async function addPrimaryKey(session: EngineSession, rel: RelationInfo, columns: readonly number[], name: string, replace: (next: RelationInfo) => void): Promise<RelationInfo> {
  const names = columns.map((i) => rel.source.columns[i]!.name);
  if (session.iceberg?.isIcebergRelation(rel) === true) {
    await checkUniqueIndexBuild(session, rel, columns, name);
    // the check read every row of the source's snapshot: plans may rely on the key while that snapshot is current
    const src = rel.source instanceof IcebergTableSource ? rel.source : null;
    const proof = src === null ? {} : verifiedSnapshotProperty(src.snapshot, columns.map((i) => src.schema.fields[i]!.id));
    await session.iceberg.alterSchema(rel.schema, rel.name, [{ kind: 'identifier-fields', names }], undefined, new Map([[PRIMARY_KEY_NAME_PROPERTY, name], ...Object.entries(proof)]));
    return session.catalog.findRelation(rel.schema, rel.name) ?? rel;
  }
  if (!(rel.source instanceof MemoryTable)) throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a table`);
  const state = memoryAlterState(rel, rel.source);
  for (const i of columns) checkNoNulls(state, i, rel.name);
  await checkUniqueIndexBuild(session, rel, columns, name);
  for (const i of columns) state.columns[i] = { ...state.columns[i]!, nullable: false };
  const next: RelationInfo = { ...finishMemoryAlter(state, rel.name).rel, primaryKey: columns, primaryKeyName: name };
  replace(next);
  return next;
}

async function dropConstraint(session: EngineSession, rel: RelationInfo, name: string, missingOk: boolean, replace: (next: RelationInfo) => void): Promise<RelationInfo> {
  if (primaryKeyNameOf(rel) === name) {
    if (session.iceberg?.isIcebergRelation(rel) === true) {
      await session.iceberg.alterSchema(rel.schema, rel.name, [{ kind: 'identifier-fields', names: [] }], undefined, new Map([[PRIMARY_KEY_NAME_PROPERTY, undefined]]));
      return session.catalog.findRelation(rel.schema, rel.name) ?? rel;
    }
    const { primaryKey: _pk, primaryKeyName: _name, ...rest } = rel;
    replace(rest);
    return rest;
  }
  const index = rel.indexes?.find((ix) => ix.name === name && ix.constraint === true);
  if (index !== undefined) {
    const next: RelationInfo = { ...rel, indexes: rel.indexes!.filter((ix) => ix !== index) };
    await storeRelation(session, next);
    return session.catalog.findRelation(rel.schema, rel.name) ?? next;
  }
  const fk = rel.foreignKeys?.find((f) => f.name === name);
  if (fk !== undefined) throw notSupported('ALTER TABLE … DROP CONSTRAINT of a foreign key');
  if (missingOk) {
    session.notice(`constraint "${name}" of relation "${rel.name}" does not exist, skipping`);
    return rel;
  }
  throw pgError(SqlState.undefined_object, `constraint "${name}" of relation "${rel.name}" does not exist`);
}
