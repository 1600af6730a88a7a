/**
 * COPY table|(query) TO STDOUT and COPY table FROM STDIN. Files and programs on the server are refused:
 * lakegate's users reach data through the wire only.
 * @see https://www.postgresql.org/docs/current/sql-copy.html
 */
import { notSupported, pgError, undefinedTable } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { Batch } from '../../common/batch.ts';
import { isWritable } from '../../catalog/table-source.ts';
import { executePlan } from '../../exec/index.ts';
import type { StatementResult } from '../../wire/handler.ts';
import type { UtilityHandler } from './route-utility.ts';
import type { EngineSession } from '../engine-session.ts';
import { nodeBody, rangeVarName, stringList } from '../ast.ts';
import { parseCopyOptions, type CopyOptions } from './copy-options.ts';
import { CopyOutEncoder, type CopyColumn } from './copy-out-encoder.ts';
import { decodeCopyInBinaryTyped } from './copy-binary-decoder.ts';
import { decodeCopyInTyped } from './copy-typed-decoder.ts';
import { decodeCopyInParallel, decodeWorkersEnabled, parallelDecodable } from './copy-parallel-decoder.ts';
import { TypedBatch, type TypedColumn } from '../../iceberg/write/typed-columns.ts';
import { lookupRelation } from './ddl.ts';
import { MemoryTable } from '../memory-table.ts';
import { withCopyKeyContext } from './copy-key-context.ts';
import { columnDefaultFills } from './column-default-fill.ts';

export const runCopy: UtilityHandler = async (session, stmt, params) => {
  const body = nodeBody(stmt.ast);
  if (body.filename !== undefined || body.is_program === true) {
    throw notSupported('COPY to or from a file or program on the server', { hint: 'Use COPY … TO STDOUT / FROM STDIN (psql: \\copy).' });
  }
  const options = parseCopyOptions(body.options);
  if (body.is_from === true) return copyFrom(session, body, options);
  return copyTo(session, body, options, params);
};

function copyTo(session: EngineSession, body: Record<string, unknown>, options: CopyOptions, params: readonly unknown[]): StatementResult {
  const attlist = stringList(body.attlist);
  let query: unknown = body.query;
  if (query === undefined) {
    const rv = rangeVarName(body.relation);
    const rel = lookupRelation(session, rv.schema === undefined ? [rv.name] : [rv.schema, rv.name]);
    if (rel === undefined) throw undefinedTable(rv.name);
    const targets = attlist.length > 0 ? attlist.map((c) => columnRef(c)) : [{ ResTarget: { val: { ColumnRef: { fields: [{ A_Star: {} }] } } } }];
    query = { SelectStmt: { targetList: targets, fromClause: [{ RangeVar: body.relation }], limitOption: 'LIMIT_OPTION_DEFAULT', op: 'SETOP_NONE' } };
  }
  const bound = session.bind(query, params.map(() => 0));
  const columns: CopyColumn[] = bound.columns.map((c) => ({ name: c.name, typeOid: c.type.oid }));
  const encoder = new CopyOutEncoder(columns, options, session.outputSettings(), (oid, v) => session.renderText(oid, v));
  let rows = 0;
  const batches = session.guard(executePlan(bound.plan, session.execContext(params)));
  async function* data(): AsyncIterable<Uint8Array> {
    const header = encoder.header();
    if (header !== null) yield header;
    for await (const batch of batches) {
      for (const row of encoder.rows(batch)) {
        rows++;
        yield row;
      }
    }
    const trailer = encoder.trailer();
    if (trailer !== null) yield trailer;
  }
  return {
    kind: 'copyOut',
    format: options.format === 'binary' ? 1 : 0,
    columnCount: columns.length,
    data: data(),
    tag: (n) => `COPY ${n}`,
    rowCount: () => rows,
  };
}

function columnRef(name: string): unknown {
  return { ResTarget: { val: { ColumnRef: { fields: [{ String: { sval: name } }] } } } };
}

function copyFrom(session: EngineSession, body: Record<string, unknown>, options: CopyOptions): StatementResult {
  const rv = rangeVarName(body.relation);
  const rel = lookupRelation(session, rv.schema === undefined ? [rv.name] : [rv.schema, rv.name]);
  if (rel === undefined) throw undefinedTable(rv.name);
  const source = rel.source;
  if (!isWritable(source)) throw pgError(SqlState.wrong_object_type, `cannot copy to ${rel.kind === 'v' ? 'view' : 'relation'} "${rel.name}"`);
  const attlist = stringList(body.attlist);
  const indexes = attlist.length === 0 ? source.columns.map((_, i) => i) : attlist.map((name) => {
    const i = source.columns.findIndex((c) => c.name === name);
    if (i < 0) throw pgError(SqlState.undefined_column, `column "${name}" of relation "${rel.name}" does not exist`);
    return i;
  });
  const target = { table: rel.name, columns: indexes.map((i) => ({ name: source.columns[i]!.name, type: source.columns[i]!.type })) };
  const settings = session.outputSettings();
  return {
    kind: 'copyIn',
    format: options.format === 'binary' ? 1 : 0,
    columnCount: indexes.length,
    consume: async (data) => {
      if (source instanceof MemoryTable) session.tx.noteWrite(source);
      const width = source.columns.length;
      const identity = indexes.length === width && indexes.every((ci, k) => ci === k);
      const fills = identity ? [] : columnDefaultFills(session, source.columns, indexes); // DEFAULTs of omitted columns (SEQ)
      async function* batches(): AsyncIterable<Batch> {
        // typed column buffers (copy-typed-decoder.ts, copy-binary-decoder.ts; text/csv of typed columns on the
        // decode workers when LAKEGATE_COPY_DECODE_WORKERS=on: copy-parallel-decoder.ts); columns missing from the
        // attlist get their DEFAULT (column-default-fill.ts) or NULL
        const decoded = options.format === 'binary'
          ? decodeCopyInBinaryTyped(data, target, settings)
          : decodeWorkersEnabled() && parallelDecodable(options, target)
            ? decodeCopyInParallel(data, options, target, settings)
            : decodeCopyInTyped(data, options, target, settings);
        for await (const b of decoded) {
          if (identity) {
            yield b;
            continue;
          }
          const columns: TypedColumn[] = Array.from({ length: width }, () => ({ kind: 'values', length: b.length, values: [] }));
          indexes.forEach((ci, k) => { columns[ci] = b.typed[k]!; });
          for (let ci = 0; ci < fills.length; ci++) if (fills[ci] != null) columns[ci] = await fills[ci]!(b.length);
          yield new TypedBatch(b.length, columns);
        }
      }
      try {
        // streamed: each batch goes to the table as it is decoded. A COPY is still all or nothing: an
        // Iceberg insert commits one snapshot at the end, a MemoryTable swaps its new contents at the end.
        const count = await source.insert(batches(), session.execContext([]).scan);
        return `COPY ${count}`;
      } catch (e) {
        session.failTransaction();
        throw withCopyKeyContext(e, rel.name, options);
      }
    },
  };
}
