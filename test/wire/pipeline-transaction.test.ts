/**
 * An extended-protocol pipeline outside BEGIN … COMMIT is one implicit transaction, from its first Execute up
 * to Sync: Sync commits it, or rolls it back when any message of the pipeline failed (pgJDBC's executeBatch
 * relies on this). BEGIN inside it makes it the explicit block; COMMIT / ROLLBACK inside it warn (25P01) and end
 * it; SAVEPOINT fails; a simple Query inside it ends it. Byte-level, with every answer and status byte checked;
 * `PG_COMPAT=1` runs the same file against a real PostgreSQL 15, which answers the same.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fe } from '../../src/wire/testing/test-buffers.ts';
import { startLakegate } from '../helpers/lakegate-server.ts';
import { sharedPgCluster } from '../helpers/pg-cluster.ts';
import { targetName } from '../helpers/test-target.ts';
import { errorFields, RawClient, types, type BackendMessage } from './raw-client.ts';

const onPg = targetName() === 'pg';
const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-pipeline-'));
let port = 0;
let closeTarget: () => Promise<void> = async () => {};
let raw: RawClient;
let other: pg.Client;

beforeAll(async () => {
  if (onPg) {
    const cluster = await sharedPgCluster();
    port = cluster.port;
  } else {
    const lg = await startLakegate({ config: { warehouse } });
    port = lg.port;
    closeTarget = () => lg.close();
  }
  const database = onPg ? 'postgres' : 'lakegate';
  other = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database });
  await other.connect();
  await other.query('DROP SCHEMA IF EXISTS pipe CASCADE');
  await other.query('CREATE SCHEMA pipe');
  await other.query('CREATE TABLE pipe.t (id int4 PRIMARY KEY, v text NOT NULL)');
  raw = await RawClient.ready(port, { user: 'postgres', database });
  raw.send(fe.parse('ins', 'INSERT INTO pipe.t VALUES ($1, $2)', [23, 25]), fe.parse('cnt', 'SELECT count(*) FROM pipe.t'), fe.sync());
  expect(types(await raw.until('Z'))).toBe('11Z');
}, 120_000);

afterAll(async () => {
  raw?.end();
  await other?.query('DROP SCHEMA IF EXISTS pipe CASCADE').catch(() => undefined);
  await other?.end();
  await closeTarget();
  rmSync(warehouse, { recursive: true, force: true });
});

beforeEach(async () => {
  await other.query('DELETE FROM pipe.t');
});

const ins = (id: string | null, v: string | null): Buffer[] => [fe.bind('', 'ins', [id, v]), fe.execute('')];
const cnt = (): Buffer[] => [fe.bind('', 'cnt'), fe.execute('')];
const stmt = (sql: string): Buffer[] => [fe.parse('', sql), fe.bind('', ''), fe.execute('')];

/** sends a pipeline, reads up to ReadyForQuery: message types, errors / notices as `S:C:M`, status, DataRow texts */
async function pipeline(...msgs: Buffer[]): Promise<{ types: string; notes: string[]; status: string; rows: string[] }> {
  raw.send(...msgs);
  const got = await raw.until('Z');
  return {
    types: types(got),
    notes: got.filter((m) => m.type === 'E' || m.type === 'N').map(note),
    status: got.at(-1)!.body.toString(),
    rows: got.filter((m) => m.type === 'D').map((m) => m.body.subarray(6).toString()),
  };
}

function note(m: BackendMessage): string {
  const f = errorFields(m);
  return `${f.S}:${f.C}:${f.M}`;
}

const committed = async (): Promise<number[]> => (await other.query<{ id: number }>('SELECT id FROM pipe.t ORDER BY id')).rows.map((r) => r.id);
const snapshots = async (): Promise<number> => Number((await other.query('SELECT count(*) AS n FROM pipe."t$snapshots"')).rows[0].n);

describe('an extended-protocol pipeline is one implicit transaction', () => {
  it('a NOT NULL violation in the third Execute leaves nothing of the first two', async () => {
    const r = await pipeline(...ins('1', 'a'), ...ins('2', 'b'), ...ins('3', null), fe.sync());
    expect(r).toMatchObject({ types: '2C2C2EZ', status: 'I' });
    expect(r.notes).toEqual(['ERROR:23502:null value in column "v" of relation "t" violates not-null constraint']);
    expect(await committed()).toEqual([]);
  });

  it('a duplicate key in the third Execute leaves nothing of the first two', async () => {
    const r = await pipeline(...ins('1', 'a'), ...ins('2', 'b'), ...ins('1', 'c'), fe.sync());
    expect(r).toMatchObject({ types: '2C2C2EZ', status: 'I' });
    expect(r.notes).toEqual(['ERROR:23505:duplicate key value violates unique constraint "t_pkey"']);
    expect(await committed()).toEqual([]);
  });

  it('a Bind that fails (a parameter that does not decode) rolls back the Executes before it', async () => {
    const r = await pipeline(...ins('1', 'a'), ...ins('x', 'b'), ...ins('3', 'c'), fe.sync());
    expect(r).toMatchObject({ types: '2CEZ', status: 'I' });
    expect(r.notes).toEqual(['ERROR:22P02:invalid input syntax for type integer: "x"']);
    expect(await committed()).toEqual([]);
  });

  it('valid writes commit at Sync; a read later in the pipeline sees them; the next pipeline runs', async () => {
    const before = onPg ? 0 : await snapshots();
    const r = await pipeline(...ins('1', 'a'), ...ins('2', 'b'), ...ins('3', 'c'), ...cnt(), fe.sync());
    expect(r).toMatchObject({ types: '2C2C2C2DCZ', status: 'I', notes: [], rows: ['3'] });
    expect(await committed()).toEqual([1, 2, 3]);
    // as in BEGIN … COMMIT: each staged statement is an Iceberg snapshot of its own, all three published at once
    // by one pointer move at Sync (PostgreSQL's users only see the rows)
    if (!onPg) expect(await snapshots()).toBe(before + 3);
    expect((await pipeline(...ins('4', 'd'), fe.sync())).types).toBe('2CZ');
    expect(await committed()).toEqual([1, 2, 3, 4]);
  });

  it('a write whose Sync comes in a later packet (Execute, Flush … Sync) still commits at that Sync', async () => {
    raw.send(...ins('1', 'a'), fe.flush());
    expect(types(await raw.until('C'))).toBe('2C');
    expect(await committed()).toEqual([]);
    raw.send(...ins('2', 'b'), fe.flush());
    expect(types(await raw.until('C'))).toBe('2C');
    expect((await pipeline(fe.sync())).types).toBe('Z');
    expect(await committed()).toEqual([1, 2]);
  });

  it('a pipeline whose table another session commits to before its Sync: both commit (no lost write, no 40001)', async () => {
    raw.send(...ins('1', 'a'), ...ins('2', 'b'), fe.flush());
    expect(types(await raw.until('C'))).toBe('2C');
    expect(types(await raw.until('C'))).toBe('2C');
    await other.query("INSERT INTO pipe.t VALUES (7, 'other')");
    const r = await pipeline(...ins('3', 'c'), fe.sync());
    expect(r).toMatchObject({ types: '2CZ', status: 'I', notes: [] });
    expect(await committed()).toEqual([1, 2, 3, 7]);
    if (!onPg) expect((await other.query('SELECT count(*) AS n FROM pipe."t$snapshots" s WHERE s.parent_id IS NULL')).rows[0].n).toBe('1');
  });

  it('an error after the pipeline ends in Sync leaves the committed pipeline alone', async () => {
    await pipeline(...ins('1', 'a'), fe.sync());
    const r = await pipeline(...stmt('SELECT 1/0'), fe.sync());
    expect(r.notes).toEqual(['ERROR:22012:division by zero']);
    expect(await committed()).toEqual([1]);
  });

  it('BEGIN inside the pipeline makes its implicit transaction the block: ROLLBACK undoes the write before BEGIN', async () => {
    const r = await pipeline(...ins('1', 'a'), ...stmt('BEGIN'), ...ins('2', 'b'), fe.sync());
    expect(r).toMatchObject({ types: '2C12C2CZ', status: 'T', notes: [] });
    expect(await committed()).toEqual([]);
    expect((await pipeline(fe.query('ROLLBACK'))).status).toBe('I');
    expect(await committed()).toEqual([]);
  });

  it('BEGIN inside the pipeline, then COMMIT in a later one, commits the writes before BEGIN too', async () => {
    expect((await pipeline(...ins('1', 'a'), ...stmt('BEGIN'), fe.sync())).status).toBe('T');
    expect((await pipeline(...ins('2', 'b'), ...stmt('COMMIT'), fe.sync())).status).toBe('I');
    expect(await committed()).toEqual([1, 2]);
  });

  it('COMMIT inside the pipeline warns 25P01 and commits what came before; a later error undoes only the rest', async () => {
    const r = await pipeline(...ins('1', 'a'), ...stmt('COMMIT'), ...ins('2', null), fe.sync());
    expect(r).toMatchObject({ types: '2C12NC2EZ', status: 'I' });
    expect(r.notes).toEqual([
      'WARNING:25P01:there is no transaction in progress',
      'ERROR:23502:null value in column "v" of relation "t" violates not-null constraint',
    ]);
    expect(await committed()).toEqual([1]);
  });

  it('ROLLBACK inside the pipeline warns 25P01 and undoes what came before; later writes commit at Sync', async () => {
    const r = await pipeline(...ins('1', 'a'), ...stmt('ROLLBACK'), ...ins('2', 'b'), fe.sync());
    expect(r).toMatchObject({ types: '2C12NC2CZ', status: 'I', notes: ['WARNING:25P01:there is no transaction in progress'] });
    expect(await committed()).toEqual([2]);
  });

  it('SAVEPOINT inside the pipeline is no block: 25P01, and the pipeline rolls back', async () => {
    const r = await pipeline(...ins('1', 'a'), ...stmt('SAVEPOINT s'), fe.sync());
    expect(r).toMatchObject({ types: '2C12EZ', status: 'I', notes: ['ERROR:25P01:SAVEPOINT can only be used in transaction blocks'] });
    expect(await committed()).toEqual([]);
  });

  it('a simple Query inside the pipeline joins its transaction and ends it: commit, or roll back on its error', async () => {
    const ok = await pipeline(...ins('1', 'a'), fe.query('SELECT count(*) FROM pipe.t'));
    expect(ok).toMatchObject({ types: '2CTDCZ', status: 'I', rows: ['1'] });
    expect(await committed()).toEqual([1]);
    expect((await pipeline(fe.sync())).types).toBe('Z');
    const failed = await pipeline(...ins('2', 'b'), fe.query('SELECT 1/0'));
    expect(failed).toMatchObject({ types: '2CEZ', status: 'I', notes: ['ERROR:22012:division by zero'] });
    expect((await pipeline(fe.sync())).types).toBe('Z');
    expect(await committed()).toEqual([1]);
  });

  it('after an error the rest up to Sync is skipped, a simple Query included', async () => {
    const r = await pipeline(...ins('1', 'a'), ...ins('2', null), fe.query('SELECT 1'), ...ins('3', 'c'), fe.sync());
    expect(r).toMatchObject({ types: '2C2EZ', status: 'I' });
    expect(await committed()).toEqual([]);
  });

  it('inside an explicit block a failing Bind fails the block (E), as any error', async () => {
    expect((await pipeline(fe.query('BEGIN'))).status).toBe('T');
    const r = await pipeline(...ins('x', 'b'), fe.sync());
    expect(r).toMatchObject({ types: 'EZ', status: 'E' });
    expect((await pipeline(fe.query('ROLLBACK'))).status).toBe('I');
  });

  it('Describe of an INSERT without RETURNING is NoData (pgJDBC then counts the rows it inserted)', async () => {
    const r = await pipeline(fe.bind('', 'ins', ['1', 'a']), fe.describe('P', ''), fe.execute(''), fe.sync());
    expect(r).toMatchObject({ types: '2nCZ', status: 'I' });
    expect(await committed()).toEqual([1]);
  });

  it.each([
    ['int4', 23, [0, 0, 1], 'ERROR:08P01:insufficient data left in message'],
    ['int4', 23, [0, 0, 0, 0, 1], 'ERROR:22P03:incorrect binary data format in bind parameter 1'],
    ['int8', 20, [0, 0, 1], 'ERROR:08P01:insufficient data left in message'],
    ['int2', 21, [0, 0, 1], 'ERROR:22P03:incorrect binary data format in bind parameter 1'],
  ])('a binary %s parameter (type %i) of the bytes %j: as PostgreSQL (recv reading past the value 08P01, bytes left over 22P03)', async (type, oid, bytes, error) => {
    const r = await pipeline(fe.parse('', `SELECT $1::${type}`, [oid]), fe.bind('', '', [Buffer.from(bytes)], [1]), fe.execute(''), fe.sync());
    expect(r).toMatchObject({ types: '1EZ', status: 'I', notes: [error] });
  });

  it('read-only pipelines stay outside any transaction', async () => {
    const r = await pipeline(...cnt(), ...cnt(), fe.sync());
    expect(r).toMatchObject({ types: '2DC2DCZ', status: 'I', rows: ['0', '0'] });
  });
});

describe('SET LOCAL, DECLARE and snapshots inside a pipeline', () => {
  const show = (): Buffer[] => stmt('SHOW application_name');
  const setLocal = (): Buffer[] => stmt("SET LOCAL application_name = 'piped'");
  const warned = 'WARNING:25P01:SET LOCAL can only be used in transaction blocks';

  it.each([
    ['after the first writing Execute', [...ins('1', 'a'), ...setLocal(), ...show()], '2C12NC12DCZ', ['piped'], [1]],
    ['in a read-only pipeline', [...cnt(), ...setLocal(), ...show()], '2DC12NC12DCZ', ['0', 'piped'], []],
    ['first, before a write', [...setLocal(), ...show(), ...ins('1', 'a')], '12NC12DC2CZ', ['piped'], [1]],
  ])('SET LOCAL %s warns 25P01 and lasts until Sync, with no ParameterStatus for the undone value', async (_, msgs, types_, rows, ids) => {
    const r = await pipeline(...msgs, fe.sync());
    expect(r).toMatchObject({ types: types_, status: 'I', notes: [warned], rows });
    expect(await committed()).toEqual(ids);
    expect(await pipeline(...show(), fe.sync())).toMatchObject({ types: '12DCZ', rows: [''] });
  });

  it('SET LOCAL then BEGIN: the value lasts until the block ends', async () => {
    const r = await pipeline(...setLocal(), ...stmt('BEGIN'), ...show(), fe.sync());
    expect(r).toMatchObject({ types: '12NC12C12DCSZ', status: 'T', rows: ['piped'] });
    const end = await pipeline(fe.query('COMMIT'));
    expect(end.types).toBe('CSZ');
    expect(await pipeline(...show(), fe.sync())).toMatchObject({ rows: [''] });
  });

  it.each([
    ['after a writing Execute', [...ins('1', 'a'), ...stmt('DECLARE c CURSOR FOR SELECT id FROM pipe.t')], '2C12EZ'],
    ['in a read-only pipeline', [...cnt(), ...stmt('DECLARE c CURSOR FOR SELECT 1')], '2DC12EZ'],
    ['first', stmt('DECLARE c CURSOR FOR SELECT 1'), '12EZ'],
  ])('DECLARE without HOLD %s is 25P01 and the pipeline rolls back', async (_, msgs, types_) => {
    const r = await pipeline(...msgs, ...stmt('FETCH ALL FROM c'), fe.sync());
    expect(r).toMatchObject({ types: types_, status: 'I', notes: ['ERROR:25P01:DECLARE CURSOR can only be used in transaction blocks'] });
    expect(await committed()).toEqual([]);
    expect((await pipeline(...stmt('FETCH ALL FROM c'), fe.sync())).notes).toEqual(['ERROR:34000:cursor "c" does not exist']);
  });

  it('DECLARE WITH HOLD after a write outlives the pipeline and reads its committed row', async () => {
    expect(await pipeline(...ins('1', 'a'), ...stmt('DECLARE h CURSOR WITH HOLD FOR SELECT id FROM pipe.t'), fe.sync())).toMatchObject({ types: '2C12CZ', notes: [] });
    expect(await pipeline(...stmt('FETCH ALL FROM h'), ...stmt('CLOSE h'), fe.sync())).toMatchObject({ types: '12DC12CZ', rows: ['1'] });
  });

  it('a read-only pipeline reads each statement with a fresh snapshot (READ COMMITTED): a commit between two reads is seen', async () => {
    raw.send(...cnt(), fe.flush());
    expect(types(await raw.until('C'))).toBe('2DC');
    await other.query("INSERT INTO pipe.t VALUES (7, 'x')");
    expect(await pipeline(...cnt(), fe.sync())).toMatchObject({ types: '2DCZ', rows: ['1'] });
  });
});
