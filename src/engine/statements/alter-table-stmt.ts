/**
 * ALTER TABLE: ADD / DROP / RENAME COLUMN, ALTER COLUMN TYPE, SET / DROP NOT NULL, RENAME TO, SET SCHEMA,
 * ADD PRIMARY KEY / UNIQUE and DROP CONSTRAINT (alter-table-constraints.ts, after the statement's other changes).
 * Iceberg tables: the column changes of one statement are one metadata commit (a new current schema, see
 * iceberg/commit/schema-update.ts); RENAME TO / SET SCHEMA move the catalog pointer. MemoryTables (temp
 * tables, public tables without a warehouse) are rewritten in memory (alter-memory-table.ts).
 * The parser gives three statements: AlterTableStmt, RenameStmt (RENAME TO / RENAME COLUMN) and
 * AlterObjectSchemaStmt (SET SCHEMA).
 */
import { notSupported, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { IcebergTableSource, MetadataTableSource, checkTableProperty, isTablePropertyName, partitioningItems, type SchemaChange } from '../../iceberg/index.ts';
import { applyIcebergTypesToAdds, icebergTypesItems } from '../../iceberg/write/iceberg-types-option.ts';
import type { EngineSession } from '../engine-session.ts';
import { constText, nodeBody, nodeKind, quoteIdent, type AstNode } from '../ast.ts';
import { MemoryTable } from '../memory-table.ts';
import type { UtilityHandler } from './route-utility.ts';
import { relationOrSkip, tablePropertyOption } from './ddl.ts';
import { sqlTypeOf } from './type-name.ts';
import { cookDefaultText } from './cook-default.ts';
import { deparseSync } from './deparse.ts';
import { describeRelation, dropDependents, dropSubject, viewDependencies } from './view-dependencies.ts';
import { planViewRenames } from './view-rename.ts';
import { planViewColumnRenames } from './view-column-rename.ts';
import { checkNoNulls, dropMemoryColumn, finishMemoryAlter, memoryAlterState, valuesPerRow } from './alter-memory-table.ts';
import { isConstraintCommand, runConstraintCommand } from './alter-table-constraints.ts';
import { PRIMARY_KEY_NAME_PROPERTY } from '../../iceberg/keys/unique-keys.ts';

const TAG = { kind: 'command', tag: 'ALTER TABLE' } as const;

/** the relation an ALTER names, or undefined after the IF EXISTS notice */
function target(session: EngineSession, rv: unknown, missingOk: boolean): RelationInfo | undefined {
  const rel = relationOrSkip(session, rv, missingOk);
  if (rel === undefined) return undefined;
  if (rel.schema === 'pg_catalog' || rel.schema === 'information_schema') throw pgError(SqlState.insufficient_privilege, `permission denied: "${rel.name}" is a system catalog`);
  if (rel.source instanceof MetadataTableSource) throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a table`);
  return rel;
}

function isIceberg(session: EngineSession, rel: RelationInfo): boolean {
  if (session.iceberg?.isIcebergRelation(rel) !== true) return false;
  if (!session.iceberg.writable) throw pgError(SqlState.feature_not_supported, 'ALTER TABLE is not supported on read-only Iceberg tables');
  return true;
}

function requireTable(rel: RelationInfo, action: string): MemoryTable {
  if (rel.kind !== 'r' || !(rel.source instanceof MemoryTable)) {
    throw pgError(SqlState.wrong_object_type, `ALTER action ${action} cannot be performed on relation "${rel.name}"`, { detail: `This operation is not supported for ${rel.kind === 'v' ? 'views' : 'this kind of relation'}.` });
  }
  return rel.source;
}

function install(session: EngineSession, old: RelationInfo, next: RelationInfo): void {
  if (old.persistence === 't') {
    session.catalog.removeTempRelation(old.name);
    session.catalog.addTempRelation(next);
  } else {
    session.catalog.db.removeRelation(old.schema, old.name);
    session.catalog.db.addRelation(next);
  }
}

interface AddColumn { name: string; def: AstNode; notNull: boolean; rawDefault: unknown }

function addColumnOf(def: unknown): AddColumn {
  const el = nodeBody(def);
  let notNull = el.is_not_null === true;
  let rawDefault: unknown;
  for (const c of Array.isArray(el.constraints) ? el.constraints : []) {
    const con = nodeBody(c);
    if (con.contype === 'CONSTR_NOTNULL') notNull = true;
    else if (con.contype === 'CONSTR_NULL') notNull = false;
    else if (con.contype === 'CONSTR_DEFAULT') rawDefault = con.raw_expr;
    else throw notSupported(`ALTER TABLE … ADD COLUMN with a ${String(con.contype).replace('CONSTR_', '')} constraint`);
  }
  return { name: String(el.colname ?? ''), def: el, notNull, rawDefault };
}

/** AlterTableCmd → Iceberg schema change */
function icebergChange(cmd: AstNode): SchemaChange {
  const name = String(cmd.name ?? '');
  switch (cmd.subtype) {
    case 'AT_AddColumn': {
      const a = addColumnOf(cmd.def);
      const type = sqlTypeOf(a.def.typeName);
      const defaultExpr = a.rawDefault === undefined ? undefined : cookDefaultText(a.rawDefault, type) ?? deparseSync(a.rawDefault);
      return { kind: 'add', name: a.name, type, notNull: a.notNull, ifNotExists: cmd.missing_ok === true, ...(defaultExpr === undefined ? {} : { defaultExpr }) };
    }
    case 'AT_DropColumn':
      return { kind: 'drop', name, ifExists: cmd.missing_ok === true, cascade: cmd.behavior === 'DROP_CASCADE' };
    case 'AT_AlterColumnType': {
      const def = nodeBody(cmd.def);
      const using = def.raw_default;
      // USING c::t is the plain promotion; anything else would rewrite every data file
      if (using !== undefined && !(nodeKind(using) === 'TypeCast' && deparseSync(nodeBody(using).arg) === quoteIdent(name))) {
        throw pgError(SqlState.feature_not_supported, 'ALTER COLUMN … TYPE … USING is not supported on Iceberg tables', { detail: 'Iceberg changes a column type without rewriting data files.' });
      }
      return { kind: 'type', name, type: sqlTypeOf(def.typeName) };
    }
    case 'AT_SetNotNull': return { kind: 'nullability', name, notNull: true };
    case 'AT_DropNotNull': return { kind: 'nullability', name, notNull: false };
    default: throw notSupported(`ALTER TABLE ${String(cmd.subtype).replace('AT_', '')} on Iceberg tables`);
  }
}

/**
 * SET (partitioning = 'month(ts), bucket(8, id)') / RESET (partitioning): partition evolution (PostgreSQL's
 * grammar takes storage parameters here; Trino's SET PROPERTIES does not parse). An empty string or RESET
 * removes the partitioning. Other storage parameters: 0A000. undefined for other subcommands.
 */
function partitioningOf(cmd: AstNode): string[] | undefined {
  if (cmd.subtype !== 'AT_SetRelOptions' && cmd.subtype !== 'AT_ResetRelOptions') return undefined;
  const list = nodeBody(cmd.def).items;
  const defs = (Array.isArray(list) ? list : []).map((d) => nodeBody(d));
  let items: string[] | undefined;
  for (const d of defs) {
    const key = String(d.defname ?? '').toLowerCase();
    if (key === 'iceberg_types' && cmd.subtype === 'AT_SetRelOptions' && d.defnamespace === undefined) continue; // icebergTypesOf
    if (d.defnamespace !== undefined || isTablePropertyName(String(d.defname ?? ''))) continue; // propertiesOf
    if (key !== 'partitioning' || d.defnamespace !== undefined) throw notSupported(`ALTER TABLE … ${cmd.subtype === 'AT_SetRelOptions' ? 'SET' : 'RESET'} (${key}) on Iceberg tables`);
    if (cmd.subtype === 'AT_ResetRelOptions') { items = []; continue; }
    const value = constText(d.arg);
    if (value === null) throw pgError(SqlState.invalid_parameter_value, 'partitioning needs a value, e.g. partitioning = \'day(ts), bucket(16, id)\'');
    items = partitioningItems(value);
  }
  return items;
}

/** SET ("write.target-file-size-bytes" = '…') / RESET ("…"): table properties (table-properties.ts); undefined = remove */
function propertiesOf(cmd: AstNode, into: Map<string, string | undefined>): void {
  if (cmd.subtype !== 'AT_SetRelOptions' && cmd.subtype !== 'AT_ResetRelOptions') return;
  const list = nodeBody(cmd.def).items;
  for (const d of (Array.isArray(list) ? list : []).map((x) => nodeBody(x))) {
    const key = d.defnamespace === undefined ? String(d.defname ?? '') : `${String(d.defnamespace)}.${String(d.defname ?? '')}`;
    if (!isTablePropertyName(key)) continue;
    if (cmd.subtype === 'AT_ResetRelOptions') {
      checkTableProperty(key, undefined);
      into.set(key, undefined);
      continue;
    }
    const [k, v] = tablePropertyOption(d)!;
    checkTableProperty(k, v);
    into.set(k, v);
  }
}

/** SET (iceberg_types = 'x struct<a: int>' | '["x …", "y …"]'): Iceberg types of columns the statement adds */
function icebergTypesOf(cmd: AstNode): string[] {
  if (cmd.subtype !== 'AT_SetRelOptions') return [];
  const list = nodeBody(cmd.def).items;
  return (Array.isArray(list) ? list : []).map((d) => nodeBody(d)).flatMap((d) => {
    if (String(d.defname ?? '').toLowerCase() !== 'iceberg_types') return [];
    const value = constText(d.arg);
    if (value === null) throw pgError(SqlState.invalid_parameter_value, 'iceberg_types needs a value, e.g. iceberg_types = \'x struct<a: int>\'');
    return icebergTypesItems(value);
  });
}

/** one AlterTableCmd on a MemoryTable; returns the installed relation */
async function alterMemory(session: EngineSession, rel: RelationInfo, cmd: AstNode): Promise<RelationInfo> {
  const name = String(cmd.name ?? '');
  const state = memoryAlterState(rel, requireTable(rel, String(cmd.subtype) === 'AT_AddColumn' ? 'ADD COLUMN' : 'ALTER COLUMN'));
  const index = (col: string): number => {
    const i = state.columns.findIndex((c) => c.name === col);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${col}" of relation "${rel.name}" does not exist`);
    return i;
  };
  switch (cmd.subtype) {
    case 'AT_AddColumn': {
      const a = addColumnOf(cmd.def);
      if (state.columns.some((c) => c.name === a.name)) {
        if (cmd.missing_ok === true) { session.notice(`column "${a.name}" of relation "${rel.name}" already exists, skipping`, SqlState.duplicate_column); return rel; }
        throw pgError(SqlState.duplicate_column, `column "${a.name}" of relation "${rel.name}" already exists`);
      }
      const type = sqlTypeOf(a.def.typeName);
      const defaultExpr = a.rawDefault === undefined ? undefined : cookDefaultText(a.rawDefault, type) ?? deparseSync(a.rawDefault);
      const values = a.rawDefault === undefined ? state.lengths.map((n) => new Array<unknown>(n).fill(null)) : await valuesPerRow(session, state, deparseSync(a.rawDefault), type);
      state.columns.push({ name: a.name, type, nullable: !a.notNull, ...(defaultExpr === undefined ? {} : { defaultExpr }) });
      state.batches.forEach((cols, i) => cols.push(values[i]!));
      if (a.notNull) checkNoNulls(state, state.columns.length - 1, rel.name);
      break;
    }
    case 'AT_DropColumn': {
      const i = state.columns.findIndex((c) => c.name === name);
      if (i < 0) {
        if (cmd.missing_ok === true) { session.notice(`column "${name}" of relation "${rel.name}" does not exist, skipping`); return rel; }
        index(name);
      }
      dropMemoryColumn(state, i);
      break;
    }
    case 'AT_AlterColumnType': {
      const i = index(name);
      const def = nodeBody(cmd.def);
      const type = sqlTypeOf(def.typeName);
      const from = state.columns[i]!.type;
      // without USING PostgreSQL applies the assignment cast, and refuses when there is none
      if (def.raw_default === undefined && from.oid !== type.oid && !session.server.functions.canCoerce(from.oid, type.oid, 'a')) {
        const typeText = formatType(type.oid, type.typmod);
        throw pgError(SqlState.datatype_mismatch, `column "${name}" cannot be cast automatically to type ${typeText}`, { hint: `You might need to specify "USING ${name}::${typeText}".` });
      }
      const values = await valuesPerRow(session, state, def.raw_default === undefined ? quoteIdent(name) : deparseSync(def.raw_default), type);
      state.batches.forEach((cols, b) => { cols[i] = values[b]!; });
      const { defaultExpr: _d, ...col } = state.columns[i]!;
      state.columns[i] = { ...col, type };
      break;
    }
    case 'AT_SetNotNull': {
      const i = index(name);
      checkNoNulls(state, i, rel.name);
      state.columns[i] = { ...state.columns[i]!, nullable: false };
      break;
    }
    case 'AT_DropNotNull': {
      const i = index(name);
      if (rel.primaryKey?.includes(i) === true) throw pgError('42P16', `column "${name}" is in a primary key`);
      state.columns[i] = { ...state.columns[i]!, nullable: true };
      break;
    }
    default: throw notSupported(`ALTER TABLE ${String(cmd.subtype).replace('AT_', '')}`);
  }
  const next = finishMemoryAlter(state, rel.name).rel;
  install(session, rel, next);
  return next;
}

export const runAlterTable: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  if (body.objtype !== 'OBJECT_TABLE') throw notSupported(`ALTER ${String(body.objtype).replace('OBJECT_', '')}`);
  let rel = target(session, body.relation, body.missing_ok === true);
  if (rel === undefined) return TAG;
  const all = (Array.isArray(body.cmds) ? body.cmds : []).map((c) => nodeBody(c));
  const cmds = all.filter((c) => !isConstraintCommand(c));
  await checkViewDependencies(session, rel, cmds);
  if (cmds.length === 0) {
    // only ADD / DROP CONSTRAINT
  } else if (isIceberg(session, rel)) {
    // every subcommand of the statement goes into one new schema (and partition spec), one commit
    let partitioning: string[] | undefined;
    const icebergTypes: string[] = [];
    const properties = new Map<string, string | undefined>();
    const columnCmds = cmds.filter((cmd) => {
      propertiesOf(cmd, properties);
      const p = partitioningOf(cmd);
      if (p !== undefined) partitioning = p;
      icebergTypes.push(...icebergTypesOf(cmd));
      return cmd.subtype !== 'AT_SetRelOptions' && cmd.subtype !== 'AT_ResetRelOptions';
    });
    const changes = applyIcebergTypesToAdds(columnCmds.map(icebergChange), icebergTypes);
    const notices = await session.iceberg!.alterSchema(rel.schema, rel.name, changes, partitioning, properties);
    for (const n of notices) session.notice(n);
  } else {
    for (const cmd of cmds) rel = await alterMemory(session, rel, cmd);
  }
  for (const cmd of all) {
    if (!isConstraintCommand(cmd)) continue;
    if (cmds.length > 0) rel = session.catalog.findRelation(rel.schema, rel.name) ?? rel;
    const before = rel;
    rel = await runConstraintCommand(session, rel, cmd, (next) => install(session, before, next));
  }
  session.server.catalogChanged();
  return TAG;
};

/**
 * Views reading a column that DROP COLUMN removes: 2BP01, or with CASCADE dropped first; one whose type
 * ALTER COLUMN TYPE changes: 0A000, as PostgreSQL (the view's rule would need rewriting).
 */
async function checkViewDependencies(session: EngineSession, rel: RelationInfo, cmds: readonly AstNode[]): Promise<void> {
  for (const cmd of cmds) {
    const column = String(cmd.name ?? '');
    if (!rel.source.columns.some((c) => c.name === column)) continue; // a missing column is reported by the change itself
    if (cmd.subtype === 'AT_DropColumn') {
      await dropDependents(session, dropSubject(session, [rel], column), viewDependencies(session, [rel], column), cmd.behavior === 'DROP_CASCADE');
    } else if (cmd.subtype === 'AT_AlterColumnType') {
      const [first] = viewDependencies(session, [rel], column);
      if (first !== undefined) {
        throw pgError(SqlState.feature_not_supported, 'cannot alter type of a column used by a view or rule', { detail: `rule _RETURN on ${describeRelation(session, first.view)} depends on column "${column}"` });
      }
    }
  }
}

/** ALTER TABLE … RENAME TO / RENAME COLUMN … TO … */
export const runRename: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const renameType = String(body.renameType ?? '');
  if (renameType !== 'OBJECT_TABLE' && renameType !== 'OBJECT_COLUMN' && renameType !== 'OBJECT_VIEW') throw notSupported(`ALTER ${renameType.replace('OBJECT_', '')} … RENAME`);
  const rel = target(session, body.relation, body.missing_ok === true);
  if (rel === undefined) return TAG;
  if (renameType === 'OBJECT_VIEW' && rel.kind !== 'v') throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a view`, { hint: 'Use ALTER TABLE instead.' });
  const newName = String(body.newname ?? '');
  if (renameType === 'OBJECT_COLUMN') {
    const from = String(body.subname ?? '');
    // views reading the column follow it, as in PostgreSQL (planned against the catalog as it is)
    const followColumn = rel.source.columns.some((c) => c.name === from) && !rel.source.columns.some((c) => c.name === newName)
      ? planViewColumnRenames(session, rel, from, newName, `rename column ${from} of ${describeRelation(session, rel)}`)
      : undefined;
    if (isIceberg(session, rel)) {
      await session.iceberg!.alterSchema(rel.schema, rel.name, [{ kind: 'rename', from, to: newName }]);
    } else {
      const table = requireTable(rel, 'RENAME COLUMN');
      const i = table.columns.findIndex((c) => c.name === from);
      if (i < 0) throw pgError(SqlState.undefined_column, `column "${from}" does not exist`);
      if (table.columns.some((c) => c.name === newName)) throw pgError(SqlState.duplicate_column, `column "${newName}" of relation "${rel.name}" already exists`);
      const state = memoryAlterState(rel, table);
      state.columns[i] = { ...state.columns[i]!, name: newName };
      install(session, rel, finishMemoryAlter(state, rel.name).rel);
    }
    await followColumn?.();
    session.server.catalogChanged();
    return { kind: 'command', tag: 'ALTER TABLE' };
  }
  if (session.catalog.findRelation(rel.schema, newName) !== undefined) throw pgError(SqlState.duplicate_table, `relation "${newName}" already exists`);
  const followRename = planViewRenames(session, rel, rel.schema, newName); // views reading it follow, as in PostgreSQL
  if (isIceberg(session, rel)) {
    // the primary key keeps the name it was given (older tables: `<old name>_pkey`), as PostgreSQL's constraint does
    if (rel.primaryKey !== undefined && rel.primaryKey.length > 0 && rel.source instanceof IcebergTableSource && rel.source.metadata.properties[PRIMARY_KEY_NAME_PROPERTY] === undefined) {
      await session.iceberg!.alterSchema(rel.schema, rel.name, [], undefined, new Map([[PRIMARY_KEY_NAME_PROPERTY, `${rel.name}_pkey`.slice(0, 63)]]));
    }
    await session.iceberg!.renameTable(rel.schema, rel.name, rel.schema, newName);
  }
  else if (session.iceberg?.isIcebergView(rel) === true) await session.iceberg.renameView(rel.schema, rel.name, rel.schema, newName);
  else {
    if (rel.source instanceof MemoryTable) rel.source.name = newName;
    install(session, rel, { ...rel, name: newName });
  }
  await followRename();
  session.server.catalogChanged();
  return renameType === 'OBJECT_VIEW' ? { kind: 'command', tag: 'ALTER VIEW' } : TAG;
};

/** ALTER TABLE … SET SCHEMA s */
export const runAlterObjectSchema: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  if (body.objectType !== 'OBJECT_TABLE') throw notSupported(`ALTER ${String(body.objectType).replace('OBJECT_', '')} … SET SCHEMA`);
  const rel = target(session, body.relation, body.missing_ok === true);
  if (rel === undefined) return TAG;
  const schema = String(body.newschema ?? '');
  const info = session.catalog.db.schema(schema);
  if (info === undefined) throw pgError(SqlState.invalid_schema_name, `schema "${schema}" does not exist`);
  if (rel.persistence === 't' || schema.startsWith('pg_temp')) throw pgError(SqlState.feature_not_supported, 'cannot move objects into or out of temporary schemas');
  if (schema === 'pg_catalog' || schema === 'information_schema') throw pgError(SqlState.insufficient_privilege, `permission denied to create "${schema}.${rel.name}"`);
  if (schema === rel.schema) return TAG;
  if (session.catalog.findRelation(schema, rel.name) !== undefined) throw pgError(SqlState.duplicate_table, `relation "${rel.name}" already exists in schema "${schema}"`);
  const followMove = planViewRenames(session, rel, schema, rel.name);
  const targetIsIceberg = session.iceberg !== undefined && (await session.iceberg.catalog.namespaceExists([schema]));
  if (isIceberg(session, rel)) {
    if (!targetIsIceberg) throw pgError(SqlState.feature_not_supported, `cannot move Iceberg table "${rel.name}" to schema "${schema}", which is not an Iceberg namespace`);
    await session.iceberg!.renameTable(rel.schema, rel.name, schema, rel.name);
  } else {
    if (targetIsIceberg && session.iceberg?.writable === true) throw pgError(SqlState.feature_not_supported, `cannot move in-memory table "${rel.name}" to the Iceberg namespace "${schema}"`, { hint: 'Use CREATE TABLE … AS SELECT to copy it.' });
    session.catalog.db.removeRelation(rel.schema, rel.name);
    session.catalog.db.addRelation({ ...rel, schema, schemaOid: info.oid });
  }
  await followMove();
  session.server.catalogChanged();
  return TAG;
};
