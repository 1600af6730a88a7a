/**
 * Empty queries: a simple Query or a Parse whose text holds no statement — nothing, whitespace, comments,
 * semicolons — is answered EmptyQueryResponse ('I'), never a syntax error, as PostgreSQL does
 * (exec_simple_query / exec_execute_message with an empty parse tree list). Byte-level, so that the
 * message sequence is checked; `PG_COMPAT=1` runs the same file against a real PostgreSQL.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-SIMPLE-QUERY
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import { startTarget, type TestTarget } from '../helpers/test-target.ts';
import { errorFields, RawClient, types } from './raw-client.ts';

let target: TestTarget;
let raw: RawClient;

beforeAll(async () => {
  target = await startTarget();
  raw = await RawClient.ready(target.port, { user: 'postgres', database: target.name === 'pg' ? 'postgres' : 'lakegate' });
}, 60_000);
afterAll(async () => {
  raw?.end();
  await target?.close();
});

const EMPTY_TEXTS = ['', '   ', '\n\t  \r\n', '-- only a comment', '/* block */', ' ;', ';;', '/* a */ ; -- b\n'];

describe('empty queries', () => {
  it.each(EMPTY_TEXTS)('simple Query %j → EmptyQueryResponse, ReadyForQuery', async (sql) => {
    raw.send(fe.query(sql));
    const msgs = await raw.until('Z');
    expect(types(msgs)).toBe('IZ');
    expect(msgs[1]!.body.toString()).toBe('I');
  });

  it.each(EMPTY_TEXTS)('Parse %j: ParseComplete, NoData on Describe, EmptyQueryResponse on Execute', async (sql) => {
    raw.send(fe.parse('', sql), fe.describe('S', ''), fe.bind('', ''), fe.describe('P', ''), fe.execute(''), fe.sync());
    const msgs = await raw.until('Z');
    // ParseComplete, ParameterDescription, NoData, BindComplete, NoData, EmptyQueryResponse, ReadyForQuery
    expect(types(msgs)).toBe('1tn2nIZ');
  });

  it('an empty named statement runs again and again', async () => {
    raw.send(fe.parse('empty_stmt', '  -- nothing'), fe.sync());
    expect(types(await raw.until('Z'))).toBe('1Z');
    for (let i = 0; i < 2; i++) {
      raw.send(fe.bind('', 'empty_stmt'), fe.execute(''), fe.sync());
      expect(types(await raw.until('Z'))).toBe('2IZ');
    }
    raw.send(fe.close('S', 'empty_stmt'), fe.sync());
    expect(types(await raw.until('Z'))).toBe('3Z');
  });

  it('inside a transaction block the status stays T; in a failed block an empty query is no error', async () => {
    raw.send(fe.query('BEGIN'));
    await raw.until('Z');
    raw.send(fe.query('   '));
    const inBlock = await raw.until('Z');
    expect(types(inBlock)).toBe('IZ');
    expect(inBlock[1]!.body.toString()).toBe('T');
    raw.send(fe.query('SELECT 1/0'));
    const failed = await raw.until('Z');
    expect(errorFields(failed[0]!).C).toBe('22012');
    raw.send(fe.query('-- still nothing'));
    const afterError = await raw.until('Z');
    expect(types(afterError)).toBe('IZ');
    expect(afterError[1]!.body.toString()).toBe('E');
    raw.send(fe.query('ROLLBACK'));
    expect((await raw.until('Z')).at(-1)!.body.toString()).toBe('I');
  });

  it('text that is not whitespace to PostgreSQL (a no-break space) is still a syntax error', async () => {
    raw.send(fe.query('\u00a0'));
    const msgs = await raw.until('Z');
    expect(types(msgs)).toBe('EZ');
    expect(errorFields(msgs[0]!)).toMatchObject({ C: '42601' });
    expect(errorFields(msgs[0]!).M).toMatch(/^syntax error at or near/);
  });

  it('an empty statement among others is skipped: one result per statement', async () => {
    raw.send(fe.query('SELECT 1; ; SELECT 2;'));
    const msgs = await raw.until('Z');
    expect(types(msgs)).toBe('TDCTDCZ');
  });
});
