/**
 * PostgreSQL's CONTEXT line on a COPY FROM row that violates a unique key: `COPY t, line N`. The key checks
 * (iceberg/keys/key-check.ts at commit, memory-table-keys.ts) note which new row they refused
 * (violating-row.ts); rows reach them in input order, so for text format the line is that row's number plus the
 * HEADER line, and for binary the tuple's number, as PostgreSQL counts them. CSV is left without the line: a
 * quoted field may hold newlines, which PostgreSQL counts, and the decoded rows no longer say where they were.
 */
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { violatingRow } from '../../iceberg/keys/violating-row.ts';
import type { CopyOptions } from './copy-options.ts';

/** `error` with `COPY <table>, line N` when it is a key violation of a known row; else `error` itself */
export function withCopyKeyContext(error: unknown, table: string, options: Pick<CopyOptions, 'format' | 'header'>): unknown {
  if (!GatewayError.is(error) || error.code !== SqlState.unique_violation || error.where !== undefined || options.format === 'csv') return error;
  const row = violatingRow(error);
  if (row === undefined) return error;
  const line = row + 1 + (options.format === 'text' && options.header ? 1 : 0);
  return new GatewayError(error.code, error.message, {
    ...(error.detail === undefined ? {} : { detail: error.detail }),
    ...(error.schema === undefined ? {} : { schema: error.schema }),
    ...(error.table === undefined ? {} : { table: error.table }),
    ...(error.constraint === undefined ? {} : { constraint: error.constraint }),
    where: `COPY ${table}, line ${line}`,
  });
}
