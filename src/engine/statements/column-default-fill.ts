/**
 * ColumnDefaultFill: the values of columns a COPY FROM leaves out of its column list — their DEFAULT, evaluated
 * per row, or NULL without one. A serial / identity column (`nextval('s'::regclass)` of an int2/int4/int8
 * column) is filled straight into a typed column from the session's sequence blocks (session-sequences.ts);
 * any other DEFAULT runs `SELECT CAST((<default>) AS <type>) FROM generate_series(1, $1)` once per batch.
 */
import { pgError } from '../../common/errors.ts';
import { formatType } from '../../common/pgtypes/format-type.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { ColumnDef } from '../../catalog/table-source.ts';
import { SequenceSource } from '../../catalog/sequences/sequence-source.ts';
import { sessionSequences } from '../../catalog/sequences/session-sequences.ts';
import { executePlan } from '../../exec/index.ts';
import type { TypedColumn } from '../../iceberg/write/typed-columns.ts';
import { parseSql } from '../../sql/index.ts';
import type { EngineSession } from '../engine-session.ts';

export type DefaultFill = (rows: number) => Promise<TypedColumn>;

const NEXTVAL = /^nextval\('((?:[^']|'')+)'::regclass\)$/;
const INT_RANGE: Readonly<Record<number, readonly [bigint, bigint, string]>> = {
  [Oid.int2]: [-32768n, 32767n, 'smallint'], [Oid.int4]: [-2147483648n, 2147483647n, 'integer'], [Oid.int8]: [-(2n ** 63n), 2n ** 63n - 1n, 'bigint'],
};

/** per table column: a fill for the missing columns that have a DEFAULT, else null (NULL values) */
export function columnDefaultFills(session: EngineSession, columns: readonly ColumnDef[], present: readonly number[]): (DefaultFill | null)[] {
  return columns.map((c, i) => {
    if (present.includes(i) || c.defaultExpr === undefined) return null;
    return sequenceFill(session, c) ?? expressionFill(session, c);
  });
}

/** `nextval('[schema.]s'::regclass)` into an integer column: values from the sequence, typed */
function sequenceFill(session: EngineSession, c: ColumnDef): DefaultFill | null {
  const m = NEXTVAL.exec(c.defaultExpr ?? '');
  const range = INT_RANGE[c.type.oid];
  if (m === null || range === undefined) return null;
  const name = m[1]!.replace(/''/g, "'");
  const dot = name.indexOf('.');
  const rel = dot < 0
    ? session.effectiveSearchPath().map((s) => session.catalog.findRelation(s, name)).find((r) => r !== undefined)
    : session.catalog.findRelation(name.slice(0, dot), name.slice(dot + 1));
  if (rel === undefined || !(rel.source instanceof SequenceSource) || name.includes('"')) return null;
  const source = rel.source;
  const sequences = sessionSequences(session.catalog);
  const statement = session.execContext([]).statementTimestamp;
  const [lo, hi, typeName] = range;
  return async (rows) => {
    const big = c.type.oid === Oid.int8;
    const values = big ? new BigInt64Array(rows) : new Int32Array(rows);
    for (let i = 0; i < rows; i++) {
      const got = sequences.nextval(rel.oid, source, statement);
      const v = typeof got === 'bigint' ? got : await got;
      if (v < lo || v > hi) throw pgError('22003', `${typeName} out of range`);
      if (big) (values as BigInt64Array)[i] = v;
      else (values as Int32Array)[i] = Number(v);
    }
    return big
      ? { kind: 'int64', length: rows, nullCount: 0, validity: null, values: values as BigInt64Array }
      : { kind: 'int32', domain: 'int', length: rows, nullCount: 0, validity: null, values: values as Int32Array };
  };
}

function expressionFill(session: EngineSession, c: ColumnDef): DefaultFill {
  const sql = `SELECT CAST((${c.defaultExpr}) AS ${formatType(c.type.oid, c.type.typmod)}) FROM generate_series(1::int8, $1::int8)`;
  const bound = session.bind(parseSql(sql)[0]!.ast, [Oid.int8]);
  return async (rows) => {
    const out: unknown[] = [];
    for await (const b of executePlan(bound.plan, session.execContext([BigInt(rows)]))) {
      const col = b.columns[0]!;
      for (let i = 0; i < b.length; i++) out.push(col[i]);
    }
    return { kind: 'values', length: rows, values: out };
  };
}
