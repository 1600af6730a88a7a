/**
 * Access privilege inquiry functions (has_table_privilege & co., pg_has_role) in all of PostgreSQL 15's
 * overloads, taken from its pg_proc. lakegate has no privilege system: every session user owns every object,
 * so they answer true; a named relation or schema that does not exist still raises PostgreSQL's error.
 * @see https://www.postgresql.org/docs/15/functions-info.html#FUNCTIONS-INFO-ACCESS-TABLE
 */
import { Oid } from '../../common/pgtypes/index.ts';
import type { EvalContext, RoutineDef } from '../../functions/registry-types.ts';
import { PG_PROC_OIDS } from '../data/pg-proc-oids.ts';
import { snapshotFor } from '../eval-snapshot.ts';
import { regclassIn, regnamespaceIn } from '../reg-names.ts';
import { scalar } from './define.ts';

const FAMILIES = [
  'has_table_privilege', 'has_schema_privilege', 'has_database_privilege', 'has_column_privilege',
  'has_function_privilege', 'has_any_column_privilege', 'has_sequence_privilege', 'has_type_privilege',
  'has_language_privilege', 'has_tablespace_privilege', 'has_foreign_data_wrapper_privilege',
  'has_server_privilege', 'pg_has_role',
];

/** index of the object argument: the first arg when there is no user argument (2 args, or 3 for columns) */
function objectArgIndex(name: string, argCount: number): number {
  const withoutUser = name === 'has_column_privilege' ? 3 : 2;
  return argCount === withoutUser ? 0 : 1;
}

function check(name: string, args: readonly number[]) {
  const objIndex = objectArgIndex(name, args.length);
  return (values: unknown[], ctx: EvalContext): boolean | null => {
    const obj = values[objIndex];
    if (args[objIndex] !== Oid.text) return true;
    const snap = snapshotFor(ctx);
    if (name === 'has_table_privilege' || name === 'has_column_privilege' || name === 'has_any_column_privilege' || name === 'has_sequence_privilege') {
      regclassIn(obj as string, snap);
    } else if (name === 'has_schema_privilege') {
      regnamespaceIn(obj as string, snap);
    }
    return true;
  };
}

function overloads(): RoutineDef[] {
  const out: RoutineDef[] = [];
  for (const key of Object.keys(PG_PROC_OIDS)) {
    const m = /^([a-z_]+)\(([\d,]*)\)$/.exec(key);
    if (m === null || !FAMILIES.includes(m[1]!)) continue;
    const name = m[1]!;
    const args = m[2] === '' ? [] : m[2]!.split(',').map(Number);
    out.push(scalar(name, args, Oid.bool, check(name, args)));
  }
  return out;
}

export const privilegeFunctions: readonly RoutineDef[] = overloads();
