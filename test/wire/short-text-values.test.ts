/**
 * Text values, column names and command tags around BufferWriter's short-ASCII copy (SHORT_ASCII = 16 UTF-16
 * units: copied unit by unit; longer or non-ASCII: Buffer#write) reach a real client as PostgreSQL 15 sends them
 * (checked with psql against PostgreSQL 15: the same bytes), in the simple and the extended protocol.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

let server: LakegateServer;
let client: pg.Client;

beforeAll(async () => {
  server = await startLakegate();
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
}, 60_000);
afterAll(async () => {
  await client?.end();
  await server?.close();
});

const SQL = `SELECT '' AS a, 'x' AS b, 'sixteen chars ok' AS c, 'seventeen chars!!' AS d, 'héllo' AS e, '日本' AS f,
  '😀' AS g, 'ok' || chr(127) AS h, 1 AS "é"`;
const ROW = { a: '', b: 'x', c: 'sixteen chars ok', d: 'seventeen chars!!', e: 'héllo', f: '日本', g: '😀', h: 'ok\u007f', é: 1 };

describe('short text over the wire', () => {
  it('simple protocol: values, a non-ASCII column name and the tag', async () => {
    const r = await client.query(SQL);
    expect(r.rows).toEqual([ROW]);
    expect(r.fields.map((f) => f.name)).toEqual(Object.keys(ROW));
    expect(r.command).toBe('SELECT');
  });

  it('extended protocol: parameters echoed as text, at and past the 16-unit boundary', async () => {
    const values = ['', 'p', '0123456789abcdef', '0123456789abcdefg', 'ñ', 'x'.repeat(15) + 'é', 'a\u0080'];
    for (const v of values) {
      const r = await client.query({ text: 'SELECT $1::text AS v, length($1::text) AS n', values: [v] });
      expect(r.rows).toEqual([{ v, n: [...v].length }]);
    }
  });
});
