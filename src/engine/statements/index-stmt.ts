/**
 * CREATE INDEX / DROP INDEX, as metadata: lakegate's tables (Iceberg files, memory tables) have no index
 * structures, so an index changes no query plan; a UNIQUE index is enforced (Iceberg tables at commit,
 * iceberg/keys/; memory tables at each write, memory-table-keys.ts), and is built only over rows without a
 * duplicate key (unique-index-build.ts). The index is recorded in
 * the table's RelationInfo so pg_class, pg_index, pg_indexes, pg_get_indexdef and psql's \d show it, which
 * migration tools and ORMs that create indexes expect. Expression, partial and INCLUDE indexes are 0A000.
 * @see https://www.postgresql.org/docs/15/sql-createindex.html
 */
import { notSupported, pgError, undefinedTable } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { IndexInfo, RelationInfo } from '../../catalog/catalog-view.ts';
import type { EngineSession } from '../engine-session.ts';
import type { UtilityHandler } from './route-utility.ts';
import { nodeBody, rangeVarName, stringList } from '../ast.ts';
import { lookupRelation } from './ddl.ts';
import { checkUniqueIndexBuild } from './unique-index-build.ts';

const NAMEDATALEN = 64;

export const runCreateIndex: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const { schema, name: tableName } = rangeVarName(body.relation);
  const rel = lookupRelation(session, schema === undefined ? [tableName] : [schema, tableName]);
  if (rel === undefined) throw undefinedTable(schema === undefined ? tableName : `${schema}.${tableName}`);
  if (rel.kind !== 'r') {
    throw pgError(SqlState.wrong_object_type, `cannot create index on relation "${rel.name}"`, { detail: `This operation is not supported for ${rel.kind === 'v' ? 'views' : 'this relation kind'}.` });
  }
  const method = String(body.accessMethod ?? 'btree');
  if (method !== 'btree' && method !== 'hash' && method !== 'gin' && method !== 'gist' && method !== 'brin' && method !== 'spgist') {
    throw pgError(SqlState.undefined_object, `access method "${method}" does not exist`);
  }
  if (method !== 'btree') throw notSupported(`index access method ${method}`);
  if (body.whereClause !== undefined) throw notSupported('partial indexes');
  if (Array.isArray(body.indexIncludingParams) && body.indexIncludingParams.length > 0) throw notSupported('INCLUDE columns in indexes');
  const columns: number[] = [];
  const names: string[] = [];
  for (const p of Array.isArray(body.indexParams) ? body.indexParams : []) {
    const el = nodeBody(p);
    if (typeof el.name !== 'string') throw notSupported('index expressions');
    const i = rel.source.columns.findIndex((c) => c.name === el.name);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${el.name}" does not exist`);
    columns.push(i);
    names.push(el.name);
  }
  const explicit = typeof body.idxname === 'string' ? body.idxname : undefined;
  const name = explicit ?? chooseIndexName(session, rel, names);
  if (session.catalog.findRelation(rel.schema, name) !== undefined || indexNamed(session, rel.schema, name) !== undefined) {
    if (body.if_not_exists === true) {
      session.notice(`relation "${name}" already exists, skipping`, SqlState.duplicate_table);
      return { kind: 'command', tag: 'CREATE INDEX' };
    }
    throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
  }
  if (body.unique === true) await checkUniqueIndexBuild(session, rel, columns, name);
  const index: IndexInfo = { oid: session.catalog.db.allocOid(), name, columns, unique: body.unique === true };
  await storeRelation(session, { ...rel, indexes: [...(rel.indexes ?? []), index] });
  return { kind: 'command', tag: 'CREATE INDEX' };
};

/** DROP INDEX [IF EXISTS] name [, ...] (called by runDrop for OBJECT_INDEX) */
export const runDropIndex: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  for (const o of Array.isArray(body.objects) ? body.objects : []) {
    const names = stringList(nodeBody(o).items);
    const name = names[names.length - 1] ?? '';
    const schemas = names.length > 1 ? [names[names.length - 2]!] : session.effectiveSearchPath();
    let found: { rel: RelationInfo; index: IndexInfo } | undefined;
    for (const s of schemas) {
      found = indexNamed(session, s === 'pg_temp' ? session.catalog.tempSchemaName : s, name);
      if (found !== undefined) break;
    }
    // the index of a PRIMARY KEY / UNIQUE constraint goes with its constraint (findDependentObjects)
    const owner = found?.index.constraint === true ? found.rel : primaryKeyNamed(session, schemas, name);
    if (owner !== undefined) {
      throw pgError(SqlState.dependent_objects_still_exist, `cannot drop index ${name} because constraint ${name} on table ${owner.name} requires it`, {
        hint: `You can drop constraint ${name} on table ${owner.name} instead.`,
      });
    }
    if (found === undefined) {
      const rel = lookupRelation(session, names);
      if (rel !== undefined) throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not an index`, { hint: `Use DROP ${rel.kind === 'v' ? 'VIEW' : 'TABLE'} to remove a ${rel.kind === 'v' ? 'view' : 'table'}.` });
      if (body.missing_ok === true) {
        session.notice(`index "${names.join('.')}" does not exist, skipping`);
        continue;
      }
      throw pgError(SqlState.undefined_object, `index "${names.join('.')}" does not exist`);
    }
    const { rel, index } = found;
    await storeRelation(session, { ...rel, indexes: (rel.indexes ?? []).filter((x) => x.oid !== index.oid) });
  }
  return { kind: 'command', tag: 'DROP INDEX' };
};

/** the table of the primary key named `name` in one of `schemas` */
function primaryKeyNamed(session: EngineSession, schemas: readonly string[], name: string): RelationInfo | undefined {
  for (const s of schemas) {
    const schema = s === 'pg_temp' ? session.catalog.tempSchemaName : s;
    for (const rel of session.catalog.relations()) {
      if (rel.schema === schema && rel.primaryKey !== undefined && rel.primaryKey.length > 0 && (rel.primaryKeyName ?? `${rel.name}_pkey`.slice(0, 63)) === name) return rel;
    }
  }
  return undefined;
}

export function indexNamed(session: EngineSession, schema: string, name: string): { rel: RelationInfo; index: IndexInfo } | undefined {
  for (const rel of session.catalog.relations()) {
    if (rel.schema !== schema) continue;
    const index = rel.indexes?.find((x) => x.name === name);
    if (index !== undefined) return { rel, index };
  }
  return undefined;
}

/** Iceberg tables keep their index list in a table property (so it survives restarts); others in memory */
export async function storeRelation(session: EngineSession, updated: RelationInfo): Promise<void> {
  const iceberg = session.iceberg;
  if (iceberg !== undefined && iceberg.isIcebergRelation(updated)) {
    const names = updated.source.columns.map((c) => c.name);
    await iceberg.setIndexes(updated.schema, updated.name, (updated.indexes ?? []).map((ix) => ({ name: ix.name, columns: ix.columns.map((i) => names[i]!), unique: ix.unique, ...(ix.constraint === true ? { constraint: true } : {}) })));
    session.server.catalogChanged();
    return;
  }
  if (updated.persistence === 't') session.catalog.addTempRelation(updated);
  else session.catalog.db.replaceRelation(updated);
  session.server.catalogChanged();
}

/**
 * ChooseIndexName / ChooseRelationName: <table>_<col>_<col>_idx (a UNIQUE constraint's: `_key`), then _idx1,
 * _idx2 ... if taken (63 bytes max); `taken` adds names not in the catalog yet (constraints of one CREATE TABLE)
 */
export function chooseIndexName(session: EngineSession, rel: Pick<RelationInfo, 'schema' | 'name'>, columns: readonly string[], base = 'idx', taken: ReadonlySet<string> = new Set()): string {
  const addition = columns.join('_').slice(0, NAMEDATALEN - 1);
  for (let pass = 0; ; pass++) {
    const label = pass === 0 ? base : `${base}${pass}`;
    const max = NAMEDATALEN - 1 - label.length - 2;
    // makeObjectName shortens the longer of the two parts first
    let t = rel.name;
    let a = addition;
    while (t.length + a.length > max) {
      if (t.length > a.length) t = t.slice(0, -1);
      else a = a.slice(0, -1);
    }
    const candidate = a === '' ? `${t}_${label}` : `${t}_${a}_${label}`;
    if (!taken.has(candidate) && session.catalog.findRelation(rel.schema, candidate) === undefined && indexNamed(session, rel.schema, candidate) === undefined) return candidate;
  }
}
