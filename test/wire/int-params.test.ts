/**
 * int4 / int2 Bind parameters, which extended-query.ts reads straight from the bytes when they are plain digits:
 * every other spelling goes through int4in / int2in, so the answers and errors are PostgreSQL's either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { errorFields, RawClient } from './raw-client.ts';
import { fe } from '../../src/wire/testing/test-buffers.ts';

let server: LakegateServer;
let raw: RawClient;

beforeAll(async () => {
  server = await startLakegate();
  raw = await RawClient.ready(server.port, { user: 'postgres' });
  raw.send(fe.parse('i4', 'SELECT $1::int4::text', [23]), fe.parse('i2', 'SELECT $1::int2::text', [21]), fe.sync());
  await raw.until('Z');
}, 60_000);
afterAll(async () => {
  raw?.end();
  await server?.close();
});

/** the first column of the one DataRow, or the error's SQLSTATE and message */
async function run(statement: string, value: Uint8Array | string, format = 0): Promise<string> {
  raw.send(fe.bind('', statement, [value], [format]), fe.execute('', 0), fe.sync());
  const msgs = await raw.until('Z');
  const err = msgs.find((m) => m.type === 'E');
  if (err) {
    const f = errorFields(err);
    return `${f.C}: ${f.M}`;
  }
  const row = msgs.find((m) => m.type === 'D')!;
  return row.body.subarray(6, 6 + row.body.readInt32BE(2)).toString('utf8');
}

const int32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

describe('integer Bind parameters', () => {
  it('text int4: digits, signs, spaces, bounds and errors as int4in', async () => {
    expect(await run('i4', '42')).toBe('42');
    expect(await run('i4', '007')).toBe('7');
    expect(await run('i4', '-0')).toBe('0');
    expect(await run('i4', '-123456789')).toBe('-123456789');
    expect(await run('i4', '+5')).toBe('5');
    expect(await run('i4', ' 12 ')).toBe('12');
    expect(await run('i4', '2147483647')).toBe('2147483647');
    expect(await run('i4', '-2147483648')).toBe('-2147483648');
    expect(await run('i4', '2147483648')).toBe('22003: value "2147483648" is out of range for type integer');
    expect(await run('i4', 'abc')).toBe('22P02: invalid input syntax for type integer: "abc"');
    expect(await run('i4', '-')).toBe('22P02: invalid input syntax for type integer: "-"');
    expect(await run('i4', '')).toBe('22P02: invalid input syntax for type integer: ""');
  });

  it('text int2: in range, out of range', async () => {
    expect(await run('i2', '9999')).toBe('9999');
    expect(await run('i2', '-32768')).toBe('-32768');
    expect(await run('i2', '32768')).toBe('22003: value "32768" is out of range for type smallint');
  });

  it('binary int4: four big-endian bytes, negative values', async () => {
    expect(await run('i4', int32(1259), 1)).toBe('1259');
    expect(await run('i4', int32(-1), 1)).toBe('-1');
    expect(await run('i4', int32(-2147483648), 1)).toBe('-2147483648');
  });
});
