/**
 * CREATE [TEMP] SEQUENCE, ALTER SEQUENCE (options, RESTART, OWNED BY), ALTER SEQUENCE … RENAME TO and
 * DROP SEQUENCE, with PostgreSQL's errors and notices. The objects themselves: sequence-objects.ts.
 * @see https://www.postgresql.org/docs/15/sql-createsequence.html
 * @see https://www.postgresql.org/docs/15/sql-altersequence.html
 */
import { pgError, undefinedTable } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { applySequenceOptions } from '../../catalog/sequences/sequence-options.ts';
import type { SequenceOwner, StoredSequence } from '../../catalog/sequences/sequence-store.ts';
import type { EngineSession } from '../engine-session.ts';
import { nodeBody, rangeVarName, stringList } from '../ast.ts';
import { parseSql } from '../../sql/index.ts';
import type { UtilityHandler } from './route-utility.ts';
import { creationSchema, lookupRelation, relationOrSkip } from './ddl.ts';
import { runAlterTable } from './alter-table-stmt.ts';
import { IcebergTableSource } from '../../iceberg/index.ts';
import { columnDefaultProperty } from '../../iceberg/write/new-table-metadata.ts';
import { parseSequenceOptions } from './sequence-options-ast.ts';
import { createSequenceObject, dropSequenceObject, ownedSequenceRelations, sequenceSourceOf, updateSequenceObject } from './sequence-objects.ts';

/** OWNED BY [schema.]table.column → the owner, checked as PostgreSQL does (process_owned_by) */
function resolveOwner(session: EngineSession, names: readonly string[], sequenceSchema: string): SequenceOwner {
  const column = names[names.length - 1]!;
  const tableNames = names.slice(0, -1);
  const table = lookupRelation(session, tableNames);
  if (table === undefined) throw undefinedTable(tableNames.join('.'));
  if (table.kind !== 'r' && table.kind !== 'p' && table.kind !== 'f' && table.kind !== 'v') {
    throw pgError(SqlState.wrong_object_type, `sequence cannot be owned by relation "${table.name}"`, { detail: 'This operation is not supported for this kind of relation.' });
  }
  if (table.schema !== sequenceSchema) throw pgError(SqlState.object_not_in_prerequisite_state, 'sequence must be in same schema as table it is linked to');
  if (!table.source.columns.some((c) => c.name === column)) {
    throw pgError(SqlState.undefined_column, `column "${column}" of relation "${table.name}" does not exist`);
  }
  return { table: table.name, column };
}

export const runCreateSequence: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const { name } = rangeVarName(body.sequence);
  const { schema, temp } = creationSchema(session, body.sequence);
  const parsed = parseSequenceOptions(body.options);
  if (parsed.changes.restart !== undefined) throw pgError(SqlState.syntax_error, 'option "restart" not recognized');
  const { options, state } = applySequenceOptions(undefined, parsed.changes);
  const owner = parsed.ownedBy === undefined || parsed.ownedBy === 'none' ? undefined : resolveOwner(session, parsed.ownedBy, schema);
  const seq: StoredSequence = { namespace: schema, name, options, state: state!, ...(owner === undefined ? {} : { ownedBy: owner }) };
  if (!(await createSequenceObject(session, temp, seq, body.if_not_exists === true))) {
    session.notice(`relation "${name}" already exists, skipping`, SqlState.duplicate_table);
  }
  return { kind: 'command', tag: 'CREATE SEQUENCE' };
};

/** the sequence an ALTER names, or undefined after the IF EXISTS notice */
function alteredSequence(session: EngineSession, rv: unknown, missingOk: boolean): RelationInfo | undefined {
  const rel = relationOrSkip(session, rv, missingOk);
  if (rel === undefined) return undefined;
  sequenceSourceOf(rel);
  return rel;
}

export const runAlterSequence: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const rel = alteredSequence(session, body.sequence, body.missing_ok === true);
  if (rel === undefined) return { kind: 'command', tag: 'ALTER SEQUENCE' };
  const parsed = parseSequenceOptions(body.options);
  const owner = parsed.ownedBy === undefined || parsed.ownedBy === 'none' ? undefined : resolveOwner(session, parsed.ownedBy, rel.schema);
  await updateSequenceObject(session, rel, (s) => {
    if (s.ownedBy?.identity !== undefined && parsed.ownedBy !== undefined) {
      throw pgError(SqlState.feature_not_supported, 'cannot change ownership of identity sequence', { detail: `Sequence "${s.name}" is linked to table "${s.ownedBy.table}".` });
    }
    const { options, state } = applySequenceOptions(s.options, parsed.changes, s.state);
    const { ownedBy: _old, ...rest } = s;
    const ownedBy = parsed.ownedBy === undefined ? s.ownedBy : owner;
    return { ...rest, options, state: state ?? s.state, ...(ownedBy === undefined ? {} : { ownedBy }) };
  });
  return { kind: 'command', tag: 'ALTER SEQUENCE' };
};

/** ALTER SEQUENCE … RENAME TO (RenameStmt with renameType OBJECT_SEQUENCE) */
export const runRenameSequence: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const rel = alteredSequence(session, body.relation, body.missing_ok === true);
  if (rel === undefined) return { kind: 'command', tag: 'ALTER SEQUENCE' };
  const to = String(body.newname ?? '');
  await updateSequenceObject(session, rel, (s) => ({ ...s, name: to }));
  return { kind: 'command', tag: 'ALTER SEQUENCE' };
};

/** the columns whose DEFAULT calls nextval on `seq` (serial columns and the like), in the sequence's schema */
function defaultsUsing(session: EngineSession, seq: RelationInfo): { table: RelationInfo; column: string }[] {
  const needles = [`nextval('${seq.name}'::regclass)`, `nextval('${seq.schema}.${seq.name}'::regclass)`];
  const out: { table: RelationInfo; column: string }[] = [];
  for (const r of session.catalog.relations()) {
    if (r.kind !== 'r') continue;
    for (const c of r.source.columns) if (c.defaultExpr !== undefined && needles.includes(c.defaultExpr)) out.push({ table: r, column: c.name });
  }
  return out;
}

export const runDropSequence: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const cascade = body.behavior === 'DROP_CASCADE';
  const targets: RelationInfo[] = [];
  for (const o of Array.isArray(body.objects) ? body.objects : []) {
    const names = stringList(nodeBody(o).items);
    const rel = lookupRelation(session, names);
    if (rel === undefined) {
      if (body.missing_ok === true) {
        session.notice(`sequence "${names.join('.')}" does not exist, skipping`);
        continue;
      }
      throw pgError(SqlState.undefined_table, `sequence "${names.join('.')}" does not exist`);
    }
    if (rel.kind !== 'S') {
      const word = rel.kind === 'v' ? 'VIEW' : 'TABLE';
      throw pgError(SqlState.wrong_object_type, `"${rel.name}" is not a sequence`, { hint: `Use DROP ${word} to remove a ${word.toLowerCase()}.` });
    }
    const identity = sequenceSourceOf(rel).latest.ownedBy;
    if (identity?.identity !== undefined) {
      throw pgError(SqlState.dependent_objects_still_exist, `cannot drop sequence ${rel.name} because column ${identity.column} of table ${identity.table} requires it`, {
        hint: `You can drop column ${identity.column} of table ${identity.table} instead.`,
      });
    }
    if (!targets.some((t) => t.oid === rel.oid)) targets.push(rel);
  }
  for (const rel of targets) {
    const users = defaultsUsing(session, rel);
    const lines = users.map((u) => `default value for column ${u.column} of table ${u.table.name} depends on sequence ${rel.name}`);
    if (users.length > 0 && !cascade) {
      throw pgError(SqlState.dependent_objects_still_exist, `cannot drop sequence ${rel.name} because other objects depend on it`, {
        detail: lines.join('\n'), hint: 'Use DROP ... CASCADE to drop the dependent objects too.',
      });
    }
    const dropped = lines.map((l) => `drop cascades to ${l.slice(0, l.indexOf(' depends on '))}`);
    if (dropped.length === 1) session.notice(dropped[0]!);
    else if (dropped.length > 1) session.onNotice?.(pgError(SqlState.successful_completion, `drop cascades to ${dropped.length} other objects`, { severity: 'NOTICE', detail: dropped.join('\n') }));
    for (const u of users) await dropColumnDefault(session, u.table, u.column);
    await dropSequenceObject(session, rel);
  }
  return { kind: 'command', tag: 'DROP SEQUENCE' };
};

/** ALTER COLUMN … DROP DEFAULT; on an Iceberg table the `lakegate.column-default.<field-id>` property goes */
async function dropColumnDefault(session: EngineSession, table: RelationInfo, column: string): Promise<void> {
  const iceberg = session.iceberg;
  if (iceberg !== undefined && iceberg.isIcebergRelation(table) && table.source instanceof IcebergTableSource) {
    const field = table.source.schema.fields.find((f) => f.name === column);
    if (field !== undefined) await iceberg.alterSchema(table.schema, table.name, [], undefined, new Map([[columnDefaultProperty(field.id), undefined]]));
    return;
  }
  const sql = `ALTER TABLE ${quote(table.schema)}.${quote(table.name)} ALTER COLUMN ${quote(column)} DROP DEFAULT`;
  await runAlterTable(session, parseSql(sql)[0]!, []);
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** ALTER TABLE … RENAME [COLUMN]: owned sequences follow the table's (or column's) new name */
export async function followRename(session: EngineSession, schema: string, table: string, column: string | undefined, to: { table: string; column?: string }): Promise<void> {
  const rel = session.catalog.findRelation(schema, to.table);
  if (rel === undefined) return;
  const owned = session.catalog.relations().filter((r) => r.kind === 'S' && r.schema === schema && sequenceSourceOf(r).latest.ownedBy?.table === table
    && (column === undefined || sequenceSourceOf(r).latest.ownedBy?.column === column));
  for (const seq of owned) {
    await updateSequenceObject(session, seq, (s) => ({ ...s, ownedBy: { ...s.ownedBy!, table: to.table, ...(to.column === undefined ? {} : { column: to.column }) } }));
  }
}

/**
 * ALTER TABLE … RENAME TO / RENAME COLUMN (alter-table-stmt.ts's runRename), then the sequences the table's
 * columns own follow the new name (PostgreSQL links them by OID, lakegate by name)
 */
export function runRenameFollowingSequences(runRename: UtilityHandler): UtilityHandler {
  return async (session, stmt, params) => {
    const body = nodeBody(stmt.ast);
    const type = body.renameType;
    if ((type !== 'OBJECT_TABLE' && type !== 'OBJECT_COLUMN') || body.relation === undefined) return runRename(session, stmt, params);
    const { schema, name } = rangeVarName(body.relation);
    const rel = lookupRelation(session, schema === undefined ? [name] : [schema, name]);
    const result = await runRename(session, stmt, params);
    if (rel === undefined || rel.kind !== 'r') return result;
    const to = String(body.newname ?? '');
    if (type === 'OBJECT_TABLE') await followRename(session, rel.schema, rel.name, undefined, { table: to });
    else await followRename(session, rel.schema, rel.name, String(body.subname ?? ''), { table: rel.name, column: to });
    return result;
  };
}

/**
 * ALTER TABLE … ALTER COLUMN … { RESTART [WITH n] | SET sequence_option | SET GENERATED { ALWAYS | BY DEFAULT } }
 * (AT_SetIdentity): the column's identity sequence changes; 55000 when the column is not an identity
 */
export const runAlterIdentity: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const table = relationOrSkip(session, body.relation, body.missing_ok === true);
  if (table === undefined) return { kind: 'command', tag: 'ALTER TABLE' };
  for (const c of Array.isArray(body.cmds) ? body.cmds : []) {
    const cmd = nodeBody(c);
    const column = String(cmd.name ?? '');
    if (!table.source.columns.some((col) => col.name === column)) {
      throw pgError(SqlState.undefined_column, `column "${column}" of relation "${table.name}" does not exist`);
    }
    const seq = ownedSequenceRelations(session, table, column).find((r) => sequenceSourceOf(r).latest.ownedBy?.identity !== undefined);
    if (seq === undefined) throw pgError(SqlState.object_not_in_prerequisite_state, `column "${column}" of relation "${table.name}" is not an identity column`);
    const items = Array.isArray(nodeBody(cmd.def).items) ? (nodeBody(cmd.def).items as unknown[]) : [];
    const generated = items.map((o) => nodeBody(o)).find((d) => d.defname === 'generated');
    const parsed = parseSequenceOptions(items.filter((o) => nodeBody(o).defname !== 'generated'));
    const when = generated === undefined ? undefined : Number(nodeBody(generated.arg).ival) === 'a'.charCodeAt(0) ? 'a' as const : 'd' as const;
    await updateSequenceObject(session, seq, (s) => {
      const { options, state } = applySequenceOptions(s.options, parsed.changes, s.state);
      return { ...s, options, state: state ?? s.state, ...(when === undefined ? {} : { ownedBy: { ...s.ownedBy!, identity: when } }) };
    });
  }
  return { kind: 'command', tag: 'ALTER TABLE' };
};
