import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../../test/helpers/lakegate-server.ts';

/** pg hands binary columns over as UTF-8 decoded strings: exact for the bytes below 0x80 the test sends */
const rawBinary = { getTypeParser: () => (v: string) => Buffer.from(v, 'utf8').toString('hex') };

let server: LakegateServer;
beforeAll(async () => {
  server = await startLakegate();
});
afterAll(async () => {
  await server.close();
});

async function withClient<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: server.url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

describe('inet / cidr over the wire (pg driver)', () => {
  it('sends the binary format pgJDBC and psycopg read: family, bits, is_cidr, length, bytes', async () => {
    const r = await withClient((c) => c.query({
      text: "select '10.1.2.3/24'::inet, '10/8'::cidr, '::1/64'::inet, ARRAY['10.1.2.3'::inet, '10.0.0.2']",
      binary: true, rowMode: 'array', queryMode: 'extended', types: rawBinary,
    } as pg.QueryConfig));
    expect(r.fields.map((f) => f.dataTypeID)).toEqual([869, 650, 869, 1041]);
    // the bytes of inet_send / cidr_send / array_send on PostgreSQL 15
    expect(r.rows[0]).toEqual([
      '021800040a010203', '020801040a000000', '0340001000000000000000000000000000000001',
      '000000010000000000000365000000020000000100000008022000040a01020300000008022000040a000002',
    ]);
  });

  it('reads text parameters as inet and answers in text (pg keeps inet as a string)', async () => {
    const r = await withClient((c) => c.query(
      'select $1::inet as a, $2::cidr as n, $1::inet << $2::cidr as inside, host($1::inet) as h, $1::inet::text as t',
      ['10.1.2.3', '10/8'],
    ));
    expect(r.rows).toEqual([{ a: '10.1.2.3', n: '10.0.0.0/8', inside: true, h: '10.1.2.3', t: '10.1.2.3/32' }]);
  });

  it('types inet_client_addr() and pg_stat_activity.client_addr as inet, compared as addresses', async () => {
    const r = await withClient((c) => c.query(
      "select inet_client_addr()::text as t, client_addr <<= '127.0.0.0/8' as local, client_addr = inet_client_addr() as same from pg_stat_activity where pid = pg_backend_pid()",
    ));
    expect(r.rows).toEqual([{ t: '127.0.0.1/32', local: true, same: true }]);
  });
});
