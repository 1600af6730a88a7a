/**
 * money, bit(n) and bit varying(n) columns of Iceberg tables. Iceberg has none of these types: lakegate stores money
 * as `long` (PostgreSQL's own int64 count of cents) and bit strings as `string` ('0' / '1'), and keeps the declared
 * type in the `lakegate.column-type.<id>` table property (write/new-table-metadata.ts), so that the table reads back
 * as declared — after a restart too — while other engines (icebird here) read the cents and the bit text.
 * Answers checked against PostgreSQL 15 on a TEMP table with the same rows.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { icebergRead } from 'icebird';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFetch } from '../helpers/local-fetch.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

describe('money / bit / varbit columns in Iceberg tables', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-moneybit-'));
  let server: LakegateServer;
  let client: pg.Client;
  const realFetch = globalThis.fetch;

  const connect = async (): Promise<void> => {
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
  };
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const copyIn = async (sql: string, data: string): Promise<void> => {
    await pipeline(Readable.from([Buffer.from(data)]), client.query(copyStreams.from(sql)));
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    await connect();
    await client.query('CREATE SCHEMA lake');
    await client.query('CREATE TABLE lake.t (id int8, m money, a bit(3), v varbit(5), c bit varying)');
    await client.query(`INSERT INTO lake.t VALUES (1, '$1,234.56', B'101', B'11', B'1'), (2, -3, '011', '10110', ''),
      (3, NULL, NULL, NULL, NULL), (4, '92233720368547758.07', 5::bit(3), B'1', X'A')`);
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('reads the rows back with the declared types', async () => {
    expect(await rows('SELECT * FROM lake.t ORDER BY id')).toEqual([
      ['1', '$1,234.56', '101', '11', '1'],
      ['2', '-$3.00', '011', '10110', ''],
      ['3', 'NULL', 'NULL', 'NULL', 'NULL'],
      ['4', '$92,233,720,368,547,758.07', '101', '1', '1010'],
    ]);
    expect(await rows(`SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'lake.t'::regclass AND attnum > 0 ORDER BY attnum`))
      .toEqual([['bigint'], ['money'], ['bit(3)'], ['bit varying(5)'], ['bit varying']]);
  });

  it('applies the column typmods and the money range on INSERT (PostgreSQL SQLSTATEs)', async () => {
    await expect(client.query(`INSERT INTO lake.t (id, a) VALUES (9, B'11')`)).rejects.toMatchObject({ code: '22026', message: 'bit string length 2 does not match type bit(3)' });
    await expect(client.query(`INSERT INTO lake.t (id, v) VALUES (9, B'111111')`)).rejects.toMatchObject({ code: '22001', message: 'bit string too long for type bit varying(5)' });
    await expect(client.query(`INSERT INTO lake.t (id, m) VALUES (9, 1.5::float8)`)).rejects.toMatchObject({ code: '42804' });
    await expect(client.query('SELECT sum(m) FROM lake.t')).rejects.toMatchObject({ code: '22003', message: 'money out of range' });
    expect(await rows('SELECT count(*) FROM lake.t')).toEqual([['4']]);
    // arrays of them would read back with int8 / text elements: refused, naming the type
    await expect(client.query('CREATE TABLE lake.arr (m money[])')).rejects.toMatchObject({ code: '0A000', message: 'Iceberg tables do not support type money[]' });
    await expect(client.query('CREATE TABLE lake.arr (b bit(3)[])')).rejects.toMatchObject({ code: '0A000', message: 'Iceberg tables do not support type bit(3)[]' });
  });

  it('filters, groups and aggregates on the stored values as PostgreSQL does', async () => {
    expect(await rows(`SELECT id FROM lake.t WHERE m > '0' ORDER BY id`)).toEqual([['1'], ['4']]);
    expect(await rows(`SELECT id FROM lake.t WHERE a = B'101' ORDER BY id`)).toEqual([['1'], ['4']]);
    expect(await rows(`SELECT id FROM lake.t WHERE v >= B'11' ORDER BY id`)).toEqual([['1']]);
    expect(await rows(`SELECT a, count(*), min(m), max(m) FROM lake.t GROUP BY a ORDER BY a`)).toEqual([
      ['011', '1', '-$3.00', '-$3.00'], ['101', '2', '$1,234.56', '$92,233,720,368,547,758.07'], ['NULL', '1', 'NULL', 'NULL'],
    ]);
    expect(await rows(`SELECT bit_or(a), bit_xor(a), sum(m) FILTER (WHERE id < 4), cash_words(min(m)) FROM lake.t`))
      .toEqual([['111', '011', '$1,231.56', 'Minus three dollars and zero cents']]);
  });

  it('takes COPY FROM text with money and bit text, and UPDATE / DELETE', async () => {
    await client.query('CREATE TABLE lake.c (id int8, m money, a bit(3), v varbit(5))');
    let data = '';
    for (let i = 0; i < 3000; i++) data += `${i}\t${i % 7 === 0 ? `-${i}.5` : `$${i}.${String(i % 100).padStart(2, '0')}`}\t${(i % 8).toString(2).padStart(3, '0')}\t${i % 5 === 0 ? '\\N' : (i % 32).toString(2)}\n`;
    await copyIn('COPY lake.c FROM STDIN', data);
    // PostgreSQL 15 on the same rows (TEMP table, same COPY text)
    expect(await rows(`SELECT sum(m), bit_xor(a), count(v), count(*) FILTER (WHERE v = B'11111') FROM lake.c`))
      .toEqual([['$3,214,274.08', '000', '2400', '74']]);
    await expect(copyIn('COPY lake.c FROM STDIN', '1\t$1\t11\t1\n')).rejects.toMatchObject({ code: '22026' });
    await expect(copyIn('COPY lake.c FROM STDIN', '1\tabc\t111\t1\n')).rejects.toMatchObject({ code: '22P02' });
    await client.query(`UPDATE lake.c SET m = m * 2, a = ~a WHERE id = 1`);
    await client.query(`DELETE FROM lake.c WHERE a = B'000'`);
    expect(await rows('SELECT id, m, a, v FROM lake.c WHERE id < 3 ORDER BY id')).toEqual([['1', '$2.02', '110', '1'], ['2', '$2.02', '010', '10']]);
    expect(await rows('SELECT count(*) FROM lake.c')).toEqual([['2625']]);
  });

  it('takes binary COPY (cash_send / bit_send bytes) with the receive functions\' length checks', async () => {
    await client.query('CREATE TABLE lake.b (m money, a bit(3))');
    const field = (bytes: number[]): number[] => [0, 0, 0, bytes.length, ...bytes];
    const tuple = (...fields: number[][]): number[] => [0, fields.length, ...fields.flatMap(field)];
    const header = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];
    const money150 = [0, 0, 0, 0, 0, 0, 0, 150];
    const copyBinary = (...tuples: number[][]): Promise<void> =>
      pipeline(Readable.from([Buffer.from([...header, ...tuples.flat(), 0xff, 0xff])]), client.query(copyStreams.from('COPY lake.b FROM STDIN (FORMAT binary)')));
    await copyBinary(tuple(money150, [0, 0, 0, 3, 0xa0]));
    await expect(copyBinary(tuple(money150, [0, 0, 0, 2, 0xc0]))).rejects.toMatchObject({ code: '22026', message: 'bit string length 2 does not match type bit(3)' });
    expect(await rows('SELECT m, a FROM lake.b')).toEqual([['$1.50', '101']]);
  });

  it('refuses ALTER … TYPE from money to bigint (the cents would change value) as PostgreSQL does', async () => {
    await client.query('CREATE TABLE lake.a (m money, b bit(2), v varbit(3))');
    await expect(client.query('ALTER TABLE lake.a ALTER COLUMN m TYPE bigint')).rejects.toMatchObject({
      code: '42804', message: 'column "m" cannot be cast automatically to type bigint',
    });
    await client.query('ALTER TABLE lake.a ALTER COLUMN v TYPE varbit(8), ADD COLUMN m2 money, ADD COLUMN b2 bit(4)');
    expect(await rows(`SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'lake.a'::regclass AND attnum > 0 ORDER BY attnum`))
      .toEqual([['money'], ['bit(2)'], ['bit varying(8)'], ['money'], ['bit(4)']]);
    // bit(n) rows all have n bits: another length is PostgreSQL's 22026 (lake.c has rows); bit(n) → bit varying keeps them
    await expect(client.query('ALTER TABLE lake.c ALTER COLUMN a TYPE bit(5)')).rejects.toMatchObject({
      code: '22026', message: 'bit string length 3 does not match type bit(5)',
    });
    await client.query('ALTER TABLE lake.c ALTER COLUMN a TYPE bit varying(3)');
    expect(await rows(`SELECT pg_typeof(a)::text, a, a || B'1' FROM lake.c WHERE id = 1`)).toEqual([['bit varying', '110', '1101']]);
  });

  it('stores long cents and bit text, readable by another engine (icebird), and keeps the types across a restart', async () => {
    const tableDir = join(warehouse, 'lake', 't');
    const metadataFiles = readdirSync(join(tableDir, 'metadata')).filter((n) => n.endsWith('.metadata.json')).sort();
    const latest = metadataFiles.at(-1)!;
    const doc = JSON.parse(readFileSync(join(tableDir, 'metadata', latest), 'utf8')) as {
      schemas: { fields: { name: string; type: unknown }[] }[]; properties: Record<string, string>;
    };
    expect(doc.schemas[0]!.fields.map((f) => [f.name, f.type])).toEqual([['id', 'long'], ['m', 'long'], ['a', 'string'], ['v', 'string'], ['c', 'string']]);
    expect(doc.properties['lakegate.column-type.2']).toBe('790:-1:"long"');
    expect(doc.properties['lakegate.column-type.3']).toBe('1560:3:"string"');
    expect(doc.properties['lakegate.column-type.4']).toBe('1562:5:"string"');
    globalThis.fetch = localFetch;
    let got: Record<string, unknown>[];
    try {
      got = (await icebergRead({ tableUrl: tableDir, metadataFileName: latest })) as Record<string, unknown>[];
    } finally {
      globalThis.fetch = realFetch;
    }
    const seen = got.map((r) => [String(r['id']), r['m'] ?? null, r['a'] ?? null, r['v'] ?? null, r['c'] ?? null]).sort((x, y) => Number(x[0]) - Number(y[0]));
    expect(seen).toEqual([
      ['1', 123456n, '101', '11', '1'],
      ['2', -300n, '011', '10110', ''],
      ['3', null, null, null, null],
      ['4', 9223372036854775807n, '101', '1', '1010'],
    ]);
    await client.end();
    await server.close();
    server = await startLakegate({ config: { warehouse } });
    await connect();
    expect(await rows(`SELECT pg_typeof(m)::text, pg_typeof(a)::text, m + '1', a & B'110' FROM lake.t WHERE id = 1`))
      .toEqual([['money', 'bit', '$1,235.56', '100']]);
  });
});
