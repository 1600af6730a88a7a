/**
 * DDL on the session's catalog: CREATE/DROP SCHEMA, CREATE [TEMP] TABLE, CREATE TABLE AS / SELECT INTO,
 * CREATE VIEW, DROP TABLE/VIEW, TRUNCATE, COMMENT ON. Tables created here are MemoryTables: temp tables
 * for the session, and user tables in process memory until Iceberg storage backs them.
 */
import { notSupported, pgError, undefinedTable } from '../../common/errors.ts';
import { chooseIndexName } from './index-stmt.ts';
import { INDEXES_PROPERTY, type StoredIndex } from '../iceberg-tables.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { isWritable, type ColumnDef, type WritableTableSource } from '../../catalog/table-source.ts';
import { executePlan } from '../../exec/index.ts';
import { deparseSync } from './deparse.ts';
import type { UtilityHandler } from './route-utility.ts';
import type { StatementResult } from '../../wire/handler.ts';
import type { EngineSession } from '../engine-session.ts';
import { constText, nodeBody, nodeKind, rangeVarName, stringList, type AstNode } from '../ast.ts';
import { beginBlock, commitBlock, rollbackAll } from './transaction-stmt.ts';
import { MemoryTable } from '../memory-table.ts';
import { sqlTypeOf } from './type-name.ts';
import { ViewSource } from '../view-source.ts';
import { MetadataTableSource, checkTableProperty, isTablePropertyName, partitioningItems } from '../../iceberg/index.ts';
import { applyIcebergTypes, icebergTypesItems } from '../../iceberg/write/iceberg-types-option.ts';
import { PRIMARY_KEY_NAME_PROPERTY } from '../../iceberg/keys/unique-keys.ts';
import { noteOnCommit } from './on-commit.ts';
import { cookDefaultText } from './cook-default.ts';
import { resolveForeignKeys, type PendingForeignKey } from './foreign-keys.ts';
import { checkViewReplacement } from './view-replace.ts';
import { dropDependents, dropSubject, dropView, readsTemporary, schemaDependents, viewDependencies } from './view-dependencies.ts';
import { createColumnSequences, identitySequence, nameSequences, serialColumnType, type PlannedSequence } from './serial-columns.ts';
import { dropOwnedSequences, ownedSequenceRelations, updateSequenceObject } from './sequence-objects.ts';
import { applySequenceOptions } from '../../catalog/sequences/sequence-options.ts';

export const runCreateSchema: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const name = String(body.schemaname ?? '');
  if (name.startsWith('pg_')) {
    throw pgError(SqlState.reserved_name, `unacceptable schema name "${name}"`, { detail: 'The prefix "pg_" is reserved for system schemas.' });
  }
  const created = session.catalog.db.createSchema(name, session.info.user, body.if_not_exists === true);
  if (created === undefined) session.notice(`schema "${name}" already exists, skipping`, SqlState.duplicate_schema);
  // a schema is an Iceberg namespace, so it outlives the server and other engines see it
  const iceberg = session.iceberg;
  if (iceberg !== undefined && !(await iceberg.catalog.namespaceExists([name]))) await iceberg.catalog.createNamespace([name]);
  await iceberg?.refresh(true);
  session.server.catalogChanged();
  return { kind: 'command', tag: 'CREATE SCHEMA' };
};

/** the schema a new relation goes to: explicit, temp, or the first existing schema of search_path */
export function creationSchema(session: EngineSession, rv: unknown): { schema: string; temp: boolean } {
  const body = nodeKind(rv) === 'RangeVar' ? nodeBody(rv) : (rv as Record<string, unknown>);
  const { schema } = rangeVarName(rv);
  const temp = body.relpersistence === 't' || schema === 'pg_temp' || (schema !== undefined && schema === session.catalog.tempSchemaName);
  if (temp) return { schema: session.catalog.tempSchema().name, temp: true };
  if (schema !== undefined) {
    if (session.catalog.schemaByName(schema) === undefined) throw pgError(SqlState.invalid_schema_name, `schema "${schema}" does not exist`);
    if (schema === 'pg_catalog' || schema === 'information_schema') {
      throw pgError(SqlState.insufficient_privilege, `permission denied to create "${schema}.${rangeVarName(rv).name}"`, { detail: 'System catalog modifications are currently disallowed.' });
    }
    return { schema, temp: false };
  }
  const first = session.effectiveSearchPath().find((s) => s !== 'pg_catalog' && !s.startsWith('pg_temp') && session.catalog.db.schema(s) !== undefined);
  if (first === undefined) throw pgError(SqlState.invalid_schema_name, 'no schema has been selected to create in');
  return { schema: first, temp: false };
}

export function registerRelation(session: EngineSession, schema: string, temp: boolean, name: string, kind: 'r' | 'v' | 'S', source: RelationInfo['source'], extra: Partial<RelationInfo> = {}): RelationInfo {
  const schemaInfo = temp ? session.catalog.tempSchema() : session.catalog.db.schema(schema)!;
  const existing = session.catalog.findRelation(schema, name);
  if (existing !== undefined) throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
  const info: RelationInfo = {
    oid: session.catalog.db.allocOid(),
    schema,
    schemaOid: schemaInfo.oid,
    name,
    kind,
    persistence: temp ? 't' : 'p',
    rowTypeOid: session.catalog.db.allocOid(),
    source,
    ...extra,
  };
  // a memory table reads its keys from this entry at each write (memory-table-keys.ts)
  if (source instanceof MemoryTable) source.relOid = info.oid;
  if (temp) session.catalog.addTempRelation(info);
  else session.catalog.db.addRelation(info);
  session.server.catalogChanged();
  return info;
}

/** CREATE TABLE in a schema that is an Iceberg namespace of a writable warehouse makes an Iceberg table */
async function isIcebergSchema(session: EngineSession, schema: string, temp: boolean): Promise<boolean> {
  const iceberg = session.iceberg;
  return !temp && iceberg !== undefined && iceberg.writable && (await iceberg.catalog.namespaceExists([schema]));
}

export const runCreateTable: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const rv = body.relation;
  const { name } = rangeVarName(rv);
  const { schema, temp } = creationSchema(session, rv);
  if (session.catalog.findRelation(schema, name) !== undefined) {
    if (body.if_not_exists === true) {
      session.notice(`relation "${name}" already exists, skipping`, SqlState.duplicate_table);
      return { kind: 'command', tag: 'CREATE TABLE' };
    }
    throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
  }
  const columns: ColumnDef[] = [];
  const primaryKeyNames: string[] = [];
  /** CONSTRAINT name PRIMARY KEY; null: none declared yet (a second one is 42P16) */
  let pkConstraint: { name: string | undefined } | null = null;
  const declarePrimaryKey = (con: AstNode): void => {
    if (pkConstraint !== null) throw pgError('42P16', `multiple primary keys for table "${name}" are not allowed`);
    pkConstraint = { name: typeof con.conname === 'string' ? con.conname : undefined };
  };
  const uniqueKeys: UniqueConstraint[] = [];
  const foreignKeys: PendingForeignKey[] = [];
  const planned: PlannedSequence[] = [];
  for (const element of Array.isArray(body.tableElts) ? body.tableElts : []) {
    const kind = nodeKind(element);
    const el = nodeBody(element);
    if (kind === 'ColumnDef') {
      const colname = String(el.colname ?? '');
      if (columns.some((c) => c.name === colname)) throw pgError(SqlState.duplicate_column, `column "${colname}" specified more than once`);
      let nullable = el.is_not_null !== true;
      let defaultExpr: string | undefined;
      // serial types: an integer column with an owned sequence (serial-columns.ts)
      const serial = serialColumnType(el.typeName);
      const type = serial?.type ?? sqlTypeOf(el.typeName);
      let sequence: PlannedSequence | undefined = serial === undefined ? undefined : { column: colname, dataType: serial.dataType, changes: {} };
      for (const c of Array.isArray(el.constraints) ? el.constraints : []) {
        const con = nodeBody(c);
        const contype = String(con.contype ?? '');
        if (contype === 'CONSTR_NOTNULL') nullable = false;
        else if (contype === 'CONSTR_PRIMARY') {
          declarePrimaryKey(con);
          nullable = false;
          primaryKeyNames.push(colname);
        } else if (contype === 'CONSTR_DEFAULT') {
          if (serial !== undefined) throw pgError(SqlState.syntax_error, `multiple default values specified for column "${colname}" of table "${name}"`);
          if (sequence !== undefined) throw pgError(SqlState.syntax_error, `both default and identity specified for column "${colname}" of table "${name}"`);
          defaultExpr = cookDefaultText(con.raw_expr, type) ?? deparseSync(con.raw_expr);
        } else if (contype === 'CONSTR_IDENTITY') {
          if (sequence !== undefined) throw pgError(SqlState.syntax_error, `multiple identity specifications for column "${colname}" of table "${name}"`);
          if (defaultExpr !== undefined) throw pgError(SqlState.syntax_error, `both default and identity specified for column "${colname}" of table "${name}"`);
          sequence = identitySequence(colname, type, con);
        } else if (contype === 'CONSTR_FOREIGN') foreignKeys.push({ constraint: con, column: colname });
        else if (contype === 'CONSTR_UNIQUE') uniqueKeys.push(uniqueConstraint(con, [colname]));
      }
      if (sequence !== undefined) {
        nullable = false;
        planned.push(sequence);
      }
      columns.push({ name: colname, type, nullable, ...(defaultExpr === undefined ? {} : { defaultExpr }) });
    } else if (kind === 'Constraint' && el.contype === 'CONSTR_PRIMARY') {
      declarePrimaryKey(el);
      primaryKeyNames.push(...stringList(el.keys));
    } else if (kind === 'Constraint' && el.contype === 'CONSTR_FOREIGN') {
      foreignKeys.push({ constraint: el });
    } else if (kind === 'Constraint' && el.contype === 'CONSTR_UNIQUE') {
      uniqueKeys.push(uniqueConstraint(el, stringList(el.keys)));
    }
  }
  const pk = primaryKeyNames.map((n) => {
    const i = columns.findIndex((c) => c.name === n);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${n}" named in key does not exist`);
    columns[i] = { ...columns[i]!, nullable: false };
    return i;
  });
  if (body.oncommit !== undefined && body.oncommit !== 'ONCOMMIT_NOOP' && !temp) {
    throw pgError('42P16', 'ON COMMIT can only be used on temporary tables');
  }
  // serial and identity columns: their sequences first (OWNED BY the columns), dropped again if the table fails
  const named = nameSequences(session, schema, temp, name, planned);
  for (const n of named) {
    const i = columns.findIndex((c) => c.name === n.plan.column);
    columns[i] = { ...columns[i]!, defaultExpr: n.defaultExpr };
  }
  const undoSequences = named.length === 0 ? null : await createColumnSequences(session, schema, temp, name, named);
  try {
    // PostgreSQL names the key `<table>_pkey` (ChooseConstraintName) and keeps the name through renames
    const pkName = pk.length === 0 ? undefined : (pkConstraint as { name: string | undefined } | null)?.name ?? `${name}_pkey`.slice(0, 63);
    return await createTableWithColumns(session, body, schema, temp, name, columns, pk, foreignKeys, uniqueIndexes(session, schema, name, columns, uniqueKeys, pkName), pkName);
  } catch (e) {
    await undoSequences?.();
    throw e;
  }
};

async function createTableWithColumns(session: EngineSession, body: Record<string, unknown>, schema: string, temp: boolean, name: string, columns: ColumnDef[], pk: number[], foreignKeys: PendingForeignKey[], uniques: readonly StoredIndex[], pkName: string | undefined): ReturnType<UtilityHandler> {
  if (await isIcebergSchema(session, schema, temp)) {
    const { partitioning, formatVersion, icebergTypes, properties } = icebergTableOptions(body.options);
    // a primary key becomes the Iceberg identifier fields (required), enforced at commit (iceberg/keys/).
    // a primary key becomes the Iceberg identifier fields (required); uniqueness is not enforced.
    // Foreign keys (metadata only, as for memory tables) are kept by name in a table property.
    const fks = resolveForeignKeys(session, schema, name, columns, foreignKeys).map((fk) => {
      const ref = session.catalog.relationByOid(fk.refRelationOid)!;
      return { name: fk.name, columns: fk.columns.map((i) => columns[i]!.name), refSchema: ref.schema, refTable: ref.name, refColumns: fk.refColumns.map((i) => ref.source.columns[i]!.name) };
    });
    // UNIQUE constraints: unique indexes in the table property CREATE UNIQUE INDEX writes (enforced: iceberg/keys/)
    const withIndexes = {
      ...properties,
      ...(uniques.length === 0 ? {} : { [INDEXES_PROPERTY]: JSON.stringify(uniques) }),
      ...(pkName === undefined ? {} : { [PRIMARY_KEY_NAME_PROPERTY]: pkName }),
    };
    await session.iceberg!.createTable(schema, name, applyIcebergTypes(columns, icebergTypes), pk, fks, partitioning, formatVersion, withIndexes);
    session.server.catalogChanged();
    return { kind: 'command', tag: 'CREATE TABLE' };
  }
  const fks = resolveForeignKeys(session, schema, name, columns, foreignKeys);
  const table = new MemoryTable(columns, name);
  const rel = registerRelation(session, schema, temp, name, 'r', table, {
    ...(pk.length > 0 && { primaryKey: pk }),
    ...(pkName !== undefined && { primaryKeyName: pkName }),
    ...(fks.length > 0 && { foreignKeys: fks }),
    ...(uniques.length > 0 && {
      indexes: uniques.map((u) => ({ oid: session.catalog.db.allocOid(), name: u.name, columns: u.columns.map((c) => columns.findIndex((d) => d.name === c)), unique: true, constraint: true })),
    }),
  });
  await noteOnCommit(session, rel, body.oncommit);
  return { kind: 'command', tag: 'CREATE TABLE' };
}

/** a UNIQUE constraint of CREATE TABLE: its columns, and its name when given (CONSTRAINT name UNIQUE …) */
interface UniqueConstraint {
  readonly name: string | undefined;
  readonly columns: readonly string[];
}

function uniqueConstraint(con: AstNode, columns: readonly string[]): UniqueConstraint {
  if (Array.isArray(con.including) && con.including.length > 0) throw notSupported('INCLUDE columns in UNIQUE constraints');
  if (con.nulls_not_distinct === true) throw notSupported('UNIQUE NULLS NOT DISTINCT');
  return { name: typeof con.conname === 'string' ? con.conname : undefined, columns };
}

/** UNIQUE constraints as unique indexes named as PostgreSQL names their indexes (`<table>_<cols>_key`) */
function uniqueIndexes(session: EngineSession, schema: string, table: string, columns: readonly ColumnDef[], uniques: readonly UniqueConstraint[], pkName: string | undefined): StoredIndex[] {
  const taken = new Set<string>(pkName === undefined ? [] : [pkName]);
  return uniques.map((u) => {
    for (const c of u.columns) {
      if (!columns.some((d) => d.name === c)) throw pgError(SqlState.undefined_column, `column "${c}" named in key does not exist`);
    }
    const name = u.name ?? chooseIndexName(session, { schema, name: table }, u.columns, 'key', taken);
    if (taken.has(name)) throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
    taken.add(name);
    return { name, columns: u.columns, unique: true, constraint: true };
  });
}

async function createFromQuery(session: EngineSession, into: Record<string, unknown>, query: unknown, params: readonly unknown[], skipData: boolean, ifNotExists: boolean): Promise<number | null> {
  const rv = into.rel;
  const { name } = rangeVarName(rv);
  const { schema, temp } = creationSchema(session, rv);
  if (session.catalog.findRelation(schema, name) !== undefined) {
    if (ifNotExists) {
      session.notice(`relation "${name}" already exists, skipping`, SqlState.duplicate_table);
      return null;
    }
    throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
  }
  const bound = session.bind(query, params.map(() => 0));
  const names = stringList(into.colNames);
  if (names.length > bound.columns.length) throw pgError(SqlState.syntax_error, 'too many column names were specified');
  const columns: ColumnDef[] = bound.columns.map((c, i) => ({ name: names[i] ?? c.name, type: c.type, nullable: true }));
  if (await isIcebergSchema(session, schema, temp)) {
    // WITH (partitioning / format_version / iceberg_types) as on CREATE TABLE
    const { partitioning, formatVersion, icebergTypes, properties } = icebergTableOptions(into.options);
    await session.iceberg!.createTable(schema, name, applyIcebergTypes(columns, icebergTypes), [], [], partitioning, formatVersion, properties);
    const rel = session.catalog.findRelation(schema, name);
    if (skipData || rel === undefined || !isWritable(rel.source)) return 0;
    return rel.source.insert(executePlan(bound.plan, session.execContext(params)), session.execContext(params).scan);
  }
  const table = new MemoryTable(columns, name);
  let count = 0;
  if (!skipData) count = await table.insert(executePlan(bound.plan, session.execContext(params)));
  registerRelation(session, schema, temp, name, 'r', table);
  return count;
}

export const runCreateTableAs: UtilityHandler = async (session, stmt, params) => {
  const body = nodeBody(stmt.ast);
  const into = nodeBody({ IntoClause: (body.into as Record<string, unknown>).IntoClause ?? body.into });
  if (body.objtype === 'OBJECT_MATVIEW') throw pgError(SqlState.feature_not_supported, 'CREATE MATERIALIZED VIEW is not supported');
  const count = await createFromQuery(session, into, body.query, params, into.skipData === true, body.if_not_exists === true);
  return { kind: 'command', tag: count === null ? 'CREATE TABLE AS' : `SELECT ${count}` };
};

/** SELECT … INTO [TEMP] t FROM … */
export const runSelectInto: UtilityHandler = async (session, stmt, params) => {
  const body = nodeBody(stmt.ast);
  const into = nodeBody({ IntoClause: (body.intoClause as Record<string, unknown>).IntoClause ?? body.intoClause });
  const query = { SelectStmt: { ...body, intoClause: undefined } };
  const count = await createFromQuery(session, into, query, params, false, false);
  return { kind: 'command', tag: `SELECT ${count ?? 0}` };
};

export const runCreateView: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const rv = body.view;
  const { name, schema: explicitSchema } = rangeVarName(rv);
  let { schema, temp } = creationSchema(session, rv);
  const bound = session.bind(body.query, []);
  if (!temp && readsTemporary(session, bound.plan)) {
    // PostgreSQL: a view over a temporary relation is temporary itself (it could not outlive the session)
    session.notice(`view "${name}" will be a temporary view`);
    if (explicitSchema !== undefined) throw pgError('42P16', 'cannot create temporary relation in non-temporary schema');
    ({ schema, temp } = { schema: session.catalog.tempSchema().name, temp: true });
  }
  const aliases = stringList(body.aliases);
  const columns: ColumnDef[] = bound.columns.map((c, i) => ({ name: aliases[i] ?? c.name, type: c.type, nullable: true }));
  const definition = deparseSync(body.query);
  const existing = session.catalog.findRelation(schema, name);
  if (existing !== undefined && body.replace === true) checkViewReplacement(existing, columns);
  const iceberg = session.iceberg;
  if (!temp && iceberg !== undefined && iceberg.storesViews && (await iceberg.catalog.namespaceExists([schema]))) {
    // an Iceberg namespace keeps the view in the catalog: it outlives the server and every process sees it
    const replace = body.replace === true && existing !== undefined && iceberg.isIcebergView(existing);
    if (existing !== undefined && !replace) {
      throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`, existing.kind === 'v' || body.replace !== true ? {} : { hint: `"${name}" is not a view.` });
    }
    const comment = existing?.comment;
    await iceberg.createView(schema, name, {
      sql: definition, columns, namespace: [schema], searchPath: session.effectiveSearchPath(), ...(comment === undefined ? {} : { comment }),
    }, replace);
    session.server.catalogChanged();
    return { kind: 'command', tag: 'CREATE VIEW' };
  }
  const source = new ViewSource(columns, body.query, session.effectiveSearchPath(), session.server.functions);
  if (existing !== undefined) {
    if (body.replace !== true || existing.kind !== 'v') throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
    const replaced: RelationInfo = { ...existing, source, viewDefinition: ` ${definition};` };
    if (temp) session.catalog.addTempRelation(replaced);
    else session.catalog.db.replaceRelation(replaced);
    session.server.catalogChanged();
    return { kind: 'command', tag: 'CREATE VIEW' };
  }
  registerRelation(session, schema, temp, name, 'v', source, { viewDefinition: ` ${definition};` });
  return { kind: 'command', tag: 'CREATE VIEW' };
};

/**
 * the relation an ALTER names (`rv`: a RangeVar), or undefined after PostgreSQL's IF EXISTS notice;
 * 42P01 names it as written (`relation "s.t" does not exist`)
 */
export function relationOrSkip(session: EngineSession, rv: unknown, missingOk: boolean): RelationInfo | undefined {
  const { schema, name } = rangeVarName(rv);
  const rel = lookupRelation(session, schema === undefined ? [name] : [schema, name]);
  if (rel !== undefined) return rel;
  if (!missingOk) throw undefinedTable(schema === undefined ? name : `${schema}.${name}`);
  session.notice(`relation "${name}" does not exist, skipping`);
  return undefined;
}

/** finds a relation by (possibly qualified) name the way DROP and TRUNCATE do */
export function lookupRelation(session: EngineSession, names: readonly string[]): RelationInfo | undefined {
  if (names.length >= 2) return session.catalog.findRelation(names[names.length - 2]!, names[names.length - 1]!);
  const name = names[0] ?? '';
  for (const schema of session.effectiveSearchPath()) {
    const r = session.catalog.findRelation(schema, name);
    if (r !== undefined) return r;
  }
  return undefined;
}

const DROP_KIND: Readonly<Record<string, { word: string; relkind: string; tag: string }>> = {
  OBJECT_TABLE: { word: 'table', relkind: 'r', tag: 'DROP TABLE' },
  OBJECT_VIEW: { word: 'view', relkind: 'v', tag: 'DROP VIEW' },
};

export const runDrop: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const removeType = String(body.removeType ?? '');
  const missingOk = body.missing_ok === true;
  const objects = Array.isArray(body.objects) ? body.objects : [];
  if (removeType === 'OBJECT_SCHEMA') {
    for (const o of objects) {
      const name = constText(o) ?? '';
      if (name === 'pg_catalog' || name === 'information_schema' || name.startsWith('pg_')) {
        throw pgError(SqlState.dependent_objects_still_exist, `cannot drop schema ${name} because it is required by the database system`);
      }
      const cascade = body.behavior === 'DROP_CASCADE';
      const iceberg = session.iceberg;
      // the refresh after dropping the namespace may already have taken the schema out of the mirror
      let droppedNamespace = false;
      if (iceberg !== undefined && (await iceberg.catalog.namespaceExists([name]))) {
        const tables = await iceberg.catalog.listTables([name]);
        const views = (await iceberg.catalog.listViews?.([name])) ?? [];
        // its sequences (lakegate_sequences rows) go too; a table's own serial / identity sequences go with the table
        const sequences = (await iceberg.sequences?.list() ?? []).filter((s) => s.namespace === name);
        const objects = [
          ...tables.map((t) => `table ${name}.${t.name}`), ...views.map((v) => `view ${name}.${v.name}`),
          ...sequences.filter((s) => s.ownedBy === undefined).map((s) => `sequence ${name}.${s.name}`),
        ].sort();
        // views in other schemas reading its tables or views go with it (CASCADE) or keep it (2BP01)
        const { lines, outside } = schemaDependents(session, name, objects);
        if (objects.length > 0 && !cascade) {
          throw pgError(SqlState.dependent_objects_still_exist, `cannot drop schema ${name} because other objects depend on it`, {
            detail: lines.join('\n'),
            hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
          });
        }
        if (objects.length > 0) {
          const dropped = lines.map((l) => `drop cascades to ${l.slice(0, l.indexOf(' depends on '))}`);
          session.onNotice?.(dropped.length === 1
            ? pgError(SqlState.successful_completion, dropped[0]!, { severity: 'NOTICE' })
            : pgError(SqlState.successful_completion, `drop cascades to ${dropped.length} other objects`, { severity: 'NOTICE', detail: dropped.join('\n') }));
        }
        for (const { view } of [...outside].reverse()) await dropView(session, view);
        for (const v of views) await iceberg.catalog.dropView?.(v);
        for (const t of tables) await iceberg.catalog.dropTable(t);
        for (const s of sequences) await iceberg.sequences?.drop(name, s.name);
        await iceberg.catalog.dropNamespace([name]);
        droppedNamespace = true;
        await iceberg.refresh(true);
      }
      if (!session.catalog.db.dropSchema(name, missingOk || droppedNamespace, cascade) && !droppedNamespace) {
        session.notice(`schema "${name}" does not exist, skipping`);
      }
    }
    session.server.catalogChanged();
    return { kind: 'command', tag: 'DROP SCHEMA' };
  }
  const spec = DROP_KIND[removeType];
  if (spec === undefined) throw pgError(SqlState.feature_not_supported, `DROP ${removeType.replace('OBJECT_', '')} is not supported`);
  const targets: RelationInfo[] = [];
  for (const o of objects) {
    const names = stringList(nodeBody(o).items);
    const display = names.join('.');
    const rel = lookupRelation(session, names);
    if (rel === undefined) {
      if (missingOk) {
        session.notice(`${spec.word} "${display}" does not exist, skipping`);
        continue;
      }
      throw pgError(SqlState.undefined_table, `${spec.word} "${display}" does not exist`);
    }
    if (rel.schema === 'pg_catalog' || rel.schema === 'information_schema') {
      throw pgError(SqlState.insufficient_privilege, `permission denied: "${rel.name}" is a system catalog`);
    }
    if (rel.source instanceof MetadataTableSource) {
      throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a table`, { detail: 'Iceberg metadata tables are read-only views of the table\'s metadata.' });
    }
    if (rel.kind !== spec.relkind) {
      throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a ${spec.word}`, { hint: `Use DROP ${rel.kind === 'v' ? 'VIEW' : 'TABLE'} to remove a ${rel.kind === 'v' ? 'view' : 'table'}.` });
    }
    if (!targets.some((t) => t.oid === rel.oid)) targets.push(rel);
  }
  // views reading what is dropped: 2BP01 before anything is dropped (RESTRICT), or dropped first (CASCADE)
  await dropDependents(session, dropSubject(session, targets), viewDependencies(session, targets), body.behavior === 'DROP_CASCADE');
  for (const rel of targets) {
    if (rel.kind === 'r') await dropOwnedSequences(session, rel);
    if (rel.persistence === 't') session.catalog.removeTempRelation(rel.name);
    else if (session.iceberg?.isIcebergView(rel) === true) await session.iceberg.dropView(rel.schema, rel.name);
    else if (session.iceberg?.isIcebergRelation(rel) === true) {
      // DROP TABLE removes the catalog pointer; the files stay (CALL system.drop_table(…, purge => true) deletes them)
      await session.iceberg.catalog.dropTable({ namespace: [rel.schema], name: rel.name });
      await session.iceberg.refresh(true);
    } else session.catalog.db.removeRelation(rel.schema, rel.name);
  }
  session.server.catalogChanged();
  return { kind: 'command', tag: spec.tag };
};

/**
 * TRUNCATE [TABLE] [ONLY] a, b [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT]: every name is
 * resolved before anything is emptied (one unknown name changes nothing). Memory and temp tables empty in
 * place; an Iceberg table gets one metadata-only `delete` snapshot dropping all its files (staged inside
 * BEGIN … COMMIT like other writes; earlier snapshots keep the rows for time travel). RESTART IDENTITY
 * restarts the sequences the tables' columns own (serial, identity), as PostgreSQL does.
 */
export const runTruncate: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const relations = Array.isArray(body.relations) ? body.relations : [];
  // several tables outside a block: one block of their own, so that all of them empty or none (as in PostgreSQL)
  if (relations.length < 2 || session.tx.inBlock) return truncateTables(session, body);
  beginBlock(session);
  try {
    const result = await truncateTables(session, body);
    await commitBlock(session);
    return result;
  } catch (e) {
    if (session.tx.inBlock) await rollbackAll(session);
    throw e;
  }
};

async function truncateTables(session: EngineSession, body: AstNode): Promise<StatementResult> {
  const targets: { rel: RelationInfo; source: WritableTableSource & { truncate(): Promise<void> } }[] = [];
  for (const rv of Array.isArray(body.relations) ? body.relations : []) {
    const { schema, name } = rangeVarName(rv);
    const rel = lookupRelation(session, schema === undefined ? [name] : [schema, name]);
    if (rel === undefined) throw undefinedTable(name);
    const source = rel.source;
    if (rel.kind !== 'r' || !isWritable(source) || source.truncate === undefined) throw pgError(SqlState.wrong_object_type, `"${name}" is not a table`);
    if (!targets.some((t) => t.rel.oid === rel.oid)) targets.push({ rel, source: source as typeof source & { truncate(): Promise<void> } });
  }
  for (const { source } of targets) {
    if (source instanceof MemoryTable) session.tx.noteWrite(source);
    await source.truncate();
  }
  if (body.restart_seqs === true) {
    for (const { rel } of targets) {
      for (const seq of ownedSequenceRelations(session, rel)) {
        await updateSequenceObject(session, seq, (s) => {
          const { options, state } = applySequenceOptions(s.options, { restart: null }, s.state);
          return { ...s, options, state: state ?? s.state };
        });
      }
    }
  }
  return { kind: 'command', tag: 'TRUNCATE TABLE' };
}

export const runComment: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const objtype = String(body.objtype ?? '');
  const comment = typeof body.comment === 'string' ? body.comment : undefined;
  const names = nodeKind(body.object) === 'List' ? stringList(nodeBody(body.object).items) : [constText(body.object) ?? ''];
  if (objtype === 'OBJECT_TABLE' || objtype === 'OBJECT_VIEW') {
    const rel = lookupRelation(session, names);
    if (rel === undefined) throw undefinedTable(names.join('.'));
    const updated: RelationInfo = { ...rel, ...(comment === undefined ? { comment: undefined } : { comment }) };
    // Iceberg tables keep it in the `comment` table property (Spark's and Trino's convention)
    if (session.iceberg?.writable === true && session.iceberg.isIcebergRelation(rel)) await session.iceberg.commentOnTable(rel.schema, rel.name, comment);
    else if (session.iceberg?.isIcebergView(rel) === true) await session.iceberg.commentOnView(rel.schema, rel.name, comment);
    else if (rel.persistence === 't') session.catalog.addTempRelation(updated);
    else session.catalog.db.replaceRelation(updated);
  } else if (objtype === 'OBJECT_COLUMN') {
    const column = names[names.length - 1]!;
    const rel = lookupRelation(session, names.slice(0, -1));
    if (rel === undefined) throw undefinedTable(names.slice(0, -1).join('.'));
    if (session.iceberg?.writable === true && session.iceberg.isIcebergRelation(rel)) {
      if (!rel.source.columns.some((c) => c.name === column)) throw pgError(SqlState.undefined_column, `column "${column}" of relation "${rel.name}" does not exist`);
      await session.iceberg.commentOnColumn(rel.schema, rel.name, column, comment); // the field's doc
      session.server.catalogChanged();
      return { kind: 'command', tag: 'COMMENT' };
    }
    if (!(rel.source instanceof MemoryTable)) throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a table`);
    const table = rel.source;
    const i = table.columns.findIndex((c) => c.name === column);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${column}" of relation "${rel.name}" does not exist`);
    table.columns = table.columns.map((c, j) => (j === i ? { ...c, ...(comment === undefined ? { comment: undefined } : { comment }) } : c));
  } else {
    throw pgError(SqlState.feature_not_supported, `COMMENT ON ${objtype.replace('OBJECT_', '')} is not supported`);
  }
  session.server.catalogChanged();
  return { kind: 'command', tag: 'COMMENT' };
};

/**
 * `WITH (…)` on an Iceberg table: Trino's `partitioning = ARRAY['day(ts)', 'bucket(16, id)', …]` (or the
 * same as one comma-separated string) → partitioning items, and Trino's `format_version = 2 | 3`
 * (default 2; v1 is 0A000), and `iceberg_types = ARRAY['attrs struct<a: int>', …]` (nested column types,
 * iceberg/write/iceberg-types-option.ts); any other option stays 0A000.
 */
function icebergTableOptions(options: unknown): { partitioning: string[]; formatVersion?: 2 | 3; icebergTypes: string[]; properties: Record<string, string> } {
  const properties: Record<string, string> = {};
  let items: string[] = [];
  let icebergTypes: string[] = [];
  let formatVersion: 2 | 3 | undefined;
  for (const o of Array.isArray(options) ? options : []) {
    const d = nodeBody(o);
    const arg = d.arg === undefined ? undefined : nodeBody(d.arg);
    const name = String(d.defname ?? '').toLowerCase();
    const property = tablePropertyOption(d);
    if (property !== null) {
      checkTableProperty(property[0], property[1]);
      properties[property[0]] = property[1];
    } else if (name === 'partitioning' && typeof arg?.sval === 'string') items = partitioningItems(arg.sval);
    else if (name === 'iceberg_types' && typeof arg?.sval === 'string') icebergTypes = icebergTypesItems(arg.sval);
    else if (name === 'format_version') {
      const v = Number(arg?.ival ?? arg?.sval ?? NaN);
      if (v === 1) throw pgError(SqlState.feature_not_supported, 'creating Iceberg format version 1 tables is not supported');
      if (v !== 2 && v !== 3) throw pgError(SqlState.invalid_parameter_value, `invalid value for Iceberg option "format_version": "${String(arg?.ival ?? arg?.sval ?? '')}"`, { hint: 'Valid values are 2 and 3.' });
      formatVersion = v;
    } else throw pgError(SqlState.feature_not_supported, `CREATE TABLE … WITH option "${String(d.defname ?? '')}" is not supported on Iceberg tables`);
  }
  return { partitioning: items, icebergTypes, properties, ...(formatVersion === undefined ? {} : { formatVersion }) };
}

/**
 * `"write.target-file-size-bytes" = '134217728'` (or unquoted `write.x = 1`, which PostgreSQL's grammar splits
 * into namespace and name): a table property and its value as text, or null for lakegate's own options
 */
export function tablePropertyOption(d: Record<string, unknown>): [string, string] | null {
  const key = d.defnamespace === undefined ? String(d.defname ?? '') : `${String(d.defnamespace)}.${String(d.defname ?? '')}`;
  if (!isTablePropertyName(key)) return null;
  const value = d.arg === undefined ? null : constText(d.arg);
  if (value === null) throw pgError(SqlState.invalid_parameter_value, `Iceberg table property "${key}" needs a value`);
  return [key, value];
}
