/**
 * serial / bigserial / smallserial (serial2/4/8) and GENERATED … AS IDENTITY columns of CREATE TABLE, as
 * PostgreSQL's transformColumnDefinition does them: an integer column, NOT NULL, whose sequence
 * `<table>_<column>_seq` is OWNED BY it; a serial column's DEFAULT is `nextval('<seq>'::regclass)`. An
 * identity column keeps the same nextval default internally (inserts fill it; the catalog shows it as an
 * identity, not a default) and its sequence remembers ALWAYS / BY DEFAULT (SequenceOwner.identity).
 * @see https://www.postgresql.org/docs/15/datatype-numeric.html#DATATYPE-SERIAL
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { applySequenceOptions, type SequenceDataType, type SequenceOptionChanges } from '../../catalog/sequences/sequence-options.ts';
import type { StoredSequence } from '../../catalog/sequences/sequence-store.ts';
import { quoteIdent } from '../../pgcatalog/index.ts';
import type { EngineSession } from '../engine-session.ts';
import { nodeBody, nodeKind, stringList } from '../ast.ts';
import { parseSequenceOptions } from './sequence-options-ast.ts';
import { createSequenceObject, dropSequenceObject } from './sequence-objects.ts';

const SERIAL_TYPES: Readonly<Record<string, SequenceDataType>> = {
  serial: 'integer', serial4: 'integer', bigserial: 'bigint', serial8: 'bigint', smallserial: 'smallint', serial2: 'smallint',
};
const TYPE_OF: Readonly<Record<SequenceDataType, SqlType>> = {
  smallint: { oid: Oid.int2, typmod: -1 }, integer: { oid: Oid.int4, typmod: -1 }, bigint: { oid: Oid.int8, typmod: -1 },
};
const DATA_TYPE_OF: Readonly<Record<number, SequenceDataType>> = { [Oid.int2]: 'smallint', [Oid.int4]: 'integer', [Oid.int8]: 'bigint' };

/** a column's sequence, planned while CREATE TABLE reads its columns */
export interface PlannedSequence {
  readonly column: string;
  readonly dataType: SequenceDataType;
  readonly changes: SequenceOptionChanges;
  readonly identity?: 'a' | 'd';
  readonly name?: readonly string[];
}

/** the column type of a serial type name (unqualified serial, serial4, bigserial, …), else undefined */
export function serialColumnType(typeName: unknown): { type: SqlType; dataType: SequenceDataType } | undefined {
  const body = nodeKind(typeName) === 'TypeName' ? nodeBody(typeName) : (typeName as Record<string, unknown>);
  const names = stringList(body.names);
  const dataType = names.length === 1 ? SERIAL_TYPES[names[0]!] : undefined;
  if (dataType === undefined || (Array.isArray(body.arrayBounds) && body.arrayBounds.length > 0)) return undefined;
  return { type: TYPE_OF[dataType], dataType };
}

/** GENERATED ALWAYS | BY DEFAULT AS IDENTITY [(options)] on a column of `type` */
export function identitySequence(column: string, type: SqlType, constraint: Record<string, unknown>): PlannedSequence {
  const dataType = DATA_TYPE_OF[type.oid];
  if (dataType === undefined) throw pgError(SqlState.invalid_parameter_value, 'identity column type must be smallint, integer, or bigint');
  const parsed = parseSequenceOptions(constraint.options);
  if (parsed.ownedBy !== undefined) throw pgError(SqlState.syntax_error, 'option "owned_by" not recognized');
  return {
    column, dataType, changes: { ...parsed.changes, dataType }, identity: constraint.generated_when === 'a' ? 'a' : 'd',
    ...(parsed.sequenceName === undefined ? {} : { name: parsed.sequenceName }),
  };
}

/** makeObjectName: `name1_name2_label`, the longer part cut until it fits NAMEDATALEN - 1 bytes */
function makeObjectName(name1: string, name2: string, label: string): string {
  let a = name1;
  let b = name2;
  const bytes = (s: string): number => Buffer.byteLength(s);
  while (bytes(a) + bytes(b) + bytes(label) + 2 > 63) {
    if (bytes(a) >= bytes(b)) a = a.slice(0, -1);
    else b = b.slice(0, -1);
  }
  return `${a}_${b}_${label}`;
}

/** the DEFAULT text PostgreSQL shows for the sequence: regclass output, qualified outside public / pg_temp */
export function nextvalDefault(schema: string, name: string, temp: boolean): string {
  const shown = temp || schema === 'public' ? quoteIdent(name) : `${quoteIdent(schema)}.${quoteIdent(name)}`;
  return `nextval('${shown.replace(/'/g, "''")}'::regclass)`;
}

/** names the planned sequences (ChooseRelationName: `t_id_seq`, else `t_id_seq1`, …), and the DEFAULT of each column */
export function nameSequences(session: EngineSession, schema: string, temp: boolean, table: string, planned: readonly PlannedSequence[]): { name: string; defaultExpr: string; plan: PlannedSequence }[] {
  const taken = new Set<string>();
  return planned.map((plan) => {
    let name: string;
    if (plan.name !== undefined) {
      name = plan.name[plan.name.length - 1]!;
      if (session.catalog.findRelation(schema, name) !== undefined || taken.has(name)) throw pgError(SqlState.duplicate_table, `relation "${name}" already exists`);
    } else {
      for (let pass = 0; ; pass++) {
        name = makeObjectName(table, plan.column, pass === 0 ? 'seq' : `seq${pass}`);
        if (session.catalog.findRelation(schema, name) === undefined && !taken.has(name)) break;
      }
    }
    taken.add(name);
    return { name, defaultExpr: nextvalDefault(schema, name, temp), plan };
  });
}

/** creates the named sequences OWNED BY their columns; returns an undo for a CREATE TABLE that then fails */
export async function createColumnSequences(session: EngineSession, schema: string, temp: boolean, table: string, named: ReturnType<typeof nameSequences>): Promise<() => Promise<void>> {
  const created: string[] = [];
  const undo = async (): Promise<void> => {
    for (const name of created) {
      const rel = session.catalog.findRelation(schema, name);
      if (rel !== undefined) await dropSequenceObject(session, rel);
    }
  };
  try {
    for (const { name, plan } of named) {
      const { options, state } = applySequenceOptions(undefined, { ...plan.changes, dataType: plan.dataType });
      const seq: StoredSequence = {
        namespace: schema, name, options, state: state!,
        ownedBy: { table, column: plan.column, ...(plan.identity === undefined ? {} : { identity: plan.identity }) },
      };
      await createSequenceObject(session, temp, seq, false);
      created.push(name);
    }
  } catch (e) {
    await undo();
    throw e;
  }
  return undo;
}
