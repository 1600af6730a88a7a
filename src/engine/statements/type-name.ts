/**
 * TypeName (parse tree) → SqlType with PostgreSQL's typmod encoding, for DDL and PREPARE.
 * varchar(n)/bpchar(n) → n + 4, numeric(p,s) → ((p << 16) | s) + 4, time/timestamp/interval(p) → p.
 */
import { unknownTypeError } from '../../common/pgtypes/unknown-type-error.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { typeByName } from '../../common/pgtypes/index.ts';
import { constText, nodeBody, nodeKind, stringList } from '../ast.ts';

export function sqlTypeOf(typeName: unknown): SqlType {
  // ColumnDef.typeName is a bare TypeName object; elsewhere it comes wrapped as {TypeName: …}
  const body = nodeKind(typeName) === 'TypeName' ? nodeBody(typeName) : (typeName as Record<string, unknown>);
  const names = stringList(body.names);
  const bare = names[names.length - 1] ?? '';
  if (bare === 'serial' || bare === 'bigserial' || bare === 'smallserial') {
    throw pgError(SqlState.feature_not_supported, `${bare} columns are not supported`, { hint: 'Use an integer column without a sequence default.' });
  }
  // unquoted char / character arrive as pg_catalog.bpchar: a bare `char` was written "char" (the one-byte type)
  const info = typeByName(bare === 'char' && (names.length === 1 || names[0] === 'pg_catalog') ? '"char"' : bare);
  if (info === undefined) {
    throw unknownTypeError(names, typeof body.location === 'number' ? body.location + 1 : undefined);
  }
  const mods = Array.isArray(body.typmods) ? body.typmods.map((m) => Number(constText(m))) : [];
  const typmod = typmodOf(info.oid, mods, bare);
  const isArray = Array.isArray(body.arrayBounds) && body.arrayBounds.length > 0;
  return { oid: isArray ? info.typarray : info.oid, typmod };
}

export function typmodOf(oid: number, mods: readonly number[], name = ''): number {
  switch (oid) {
    case Oid.varchar:
      return mods.length > 0 ? mods[0]! + 4 : -1;
    case Oid.bpchar:
      // a bare "char"/"character" means character(1); the internal name bpchar has no length
      return mods.length > 0 ? mods[0]! + 4 : name === 'bpchar' ? -1 : 5;
    case Oid.numeric: {
      if (mods.length === 0) return -1;
      const p = mods[0]!;
      const s = mods[1] ?? 0;
      if (p < 1 || p > 1000) throw pgError(SqlState.invalid_parameter_value, `NUMERIC precision ${p} must be between 1 and 1000`);
      if (s > p || s < 0) throw pgError(SqlState.invalid_parameter_value, `NUMERIC scale ${s} must be between 0 and precision ${p}`);
      return ((p << 16) | s) + 4;
    }
    case Oid.time:
    case Oid.timetz:
    case Oid.timestamp:
    case Oid.timestamptz:
      return mods.length > 0 ? Math.min(mods[0]!, 6) : -1;
    case Oid.interval:
      return mods.length > 1 ? mods[1]! : -1;
    case Oid.bit:
    case Oid.varbit:
      return mods.length > 0 ? mods[0]! : oid === Oid.bit ? 1 : -1;
    default:
      return -1;
  }
}
