/**
 * COPY FROM STDIN into an Iceberg table with one malformed row (issue #3 item 11): PostgreSQL's error and
 * CONTEXT (`COPY t, line N, column c: "value"`), and nothing of that COPY committed — no new snapshot, no
 * rows — for the text, csv (HEADER counts as line 1) and binary formats. Binary follows PostgreSQL: a field
 * whose length does not fit its type is 22P03, a tuple with the wrong field count 22P04.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { int4, startWireFixture, type WireFixture } from '../helpers/wire-fixture.ts';

async function copyIn(c: pg.Client, sql: string, data: Buffer | string): Promise<void> {
  await pipeline(Readable.from([Buffer.from(data)]), c.query(copyStreams.from(sql)));
}

/** PGCOPY binary: header, tuples of (int4 id, text name) with optional raw overrides, trailer */
function binaryCopy(rows: readonly (readonly (Buffer | null)[])[]): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const r of rows) {
    const n = Buffer.alloc(2);
    n.writeInt16BE(r.length);
    parts.push(n);
    for (const f of r) {
      const len = Buffer.alloc(4);
      len.writeInt32BE(f === null ? -1 : f.length);
      parts.push(len);
      if (f !== null) parts.push(f);
    }
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe('COPY with a malformed row into an Iceberg table', () => {
  let fixture: WireFixture;
  let client: pg.Client;

  beforeAll(async () => {
    fixture = await startWireFixture('lake', ['CREATE TABLE lake.t (id int4, name text)', `INSERT INTO lake.t VALUES (0, 'zero')`]);
    client = fixture.client;
  }, 60_000);
  afterAll(() => fixture?.close());

  const state = async (): Promise<unknown> => ({
    rows: (await client.query('SELECT count(*)::int AS n FROM lake.t')).rows[0].n,
    snapshots: (await client.query(`SELECT count(*)::int AS n FROM lake."t$snapshots"`)).rows[0].n,
  });
  const failure = async (sql: string, data: Buffer | string): Promise<Record<string, unknown>> => {
    const e = (await copyIn(client, sql, data).then(() => null, (err: unknown) => err)) as Record<string, unknown> | null;
    expect(e, 'COPY should fail').not.toBeNull();
    return { code: e!['code'], message: e!['message'], where: e!['where'] };
  };

  it('text: 22P02 with CONTEXT naming the line and column, nothing committed', async () => {
    const before = await state();
    expect(await failure('COPY lake.t FROM STDIN', '1\tone\n2\ttwo\nabc\tthree\n4\tfour\n')).toEqual({
      code: '22P02', message: 'invalid input syntax for type integer: "abc"', where: 'COPY t, line 3, column id: "abc"',
    });
    expect(await state()).toEqual(before);
    // the session goes on: a good COPY commits one snapshot
    await copyIn(client, 'COPY lake.t FROM STDIN', '1\tone\n');
    expect(await state()).toEqual({ rows: 2, snapshots: 2 });
  });

  it('csv with HEADER: the header is line 1', async () => {
    const before = await state();
    expect(await failure('COPY lake.t FROM STDIN (FORMAT csv, HEADER)', 'id,name\n5,five\n6x,six\n')).toEqual({
      code: '22P02', message: 'invalid input syntax for type integer: "6x"', where: 'COPY t, line 3, column id: "6x"',
    });
    expect(await state()).toEqual(before);
  });

  it('binary: a malformed field (22P03) or tuple (22P04) names the line; nothing committed', async () => {
    const before = await state();
    const ok = [int4(7), Buffer.from('seven')];
    const badField = await failure('COPY lake.t FROM STDIN (FORMAT binary)', binaryCopy([ok, ok, [Buffer.from([1, 2, 3]), Buffer.from('x')]]));
    expect(badField).toMatchObject({ code: '22P03', where: expect.stringMatching(/^COPY t, line 3, column id/) });
    const badTuple = await failure('COPY lake.t FROM STDIN (FORMAT binary)', binaryCopy([ok, [int4(8)]]));
    expect(badTuple).toMatchObject({ code: '22P04', where: expect.stringMatching(/^COPY t, line 2/) });
    expect(await state()).toEqual(before);
    await copyIn(client, 'COPY lake.t FROM STDIN (FORMAT binary)', binaryCopy([ok, [int4(9), null]]));
    expect((await client.query('SELECT id, name FROM lake.t WHERE id >= 7 ORDER BY id')).rows).toEqual([{ id: 7, name: 'seven' }, { id: 9, name: null }]);
  });
});
