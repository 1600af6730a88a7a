/**
 * ALTER TABLE on Iceberg tables over the wire: each statement is one metadata commit with a new current
 * schema; old data files keep reading through field ids (added column NULL, renamed column same data,
 * promoted types widened); time travel reads an old snapshot with its own schema; RENAME TO / SET SCHEMA
 * move the catalog pointer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectText, rowsOf } from '../helpers/text-client.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

describe('ALTER TABLE on Iceberg tables', () => {
  let server: LakegateServer;
  let client: pg.Client;

  /** the current metadata document of lake.<table> */
  async function currentMetadata(table: string, schema = 'lake'): Promise<Record<string, unknown>> {
    const dir = join(server.warehouse, schema, table, 'metadata');
    const latest = readdirSync(dir).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!;
    return JSON.parse(readFileSync(join(dir, latest), 'utf8')) as Record<string, unknown>;
  }

  beforeAll(async () => {
    server = await startLakegate();
    client = await connectText(server.url);
    await client.query('CREATE SCHEMA lake');
    await client.query('CREATE SCHEMA archive');
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
  });

  it('adds, renames, widens and drops columns; old files read through field ids', async () => {
    await client.query('CREATE TABLE lake.t (id int NOT NULL PRIMARY KEY, n int, f float4, d numeric(5,2), s varchar(8))');
    await client.query(`INSERT INTO lake.t VALUES (1, 2147483647, 1.5, 123.45, 'one'), (2, NULL, NULL, NULL, NULL)`);
    const [[first]] = (await rowsOf(client, 'SELECT snapshot_id FROM lake."t$snapshots"')) as [[string]];
    const before = await currentMetadata('t');
    expect(before['current-schema-id']).toBe(0);

    await client.query('ALTER TABLE lake.t ADD COLUMN extra text');
    let md = await currentMetadata('t');
    expect(md['current-schema-id']).toBe(1);
    expect(md['last-column-id']).toBe(6);
    await client.query(`INSERT INTO lake.t VALUES (3, 3, 3.25, 3.5, 'three', 'x')`);
    expect(await rowsOf(client, 'SELECT id, s, extra FROM lake.t ORDER BY id')).toEqual([['1', 'one', 'NULL'], ['2', 'NULL', 'NULL'], ['3', 'three', 'x']]);

    await client.query('ALTER TABLE lake.t RENAME COLUMN s TO label');
    expect(await rowsOf(client, 'SELECT id, label FROM lake.t ORDER BY id')).toEqual([['1', 'one'], ['2', 'NULL'], ['3', 'three']]);

    // one statement, one commit: three promotions in schema 3
    await client.query('ALTER TABLE lake.t ALTER COLUMN n TYPE bigint, ALTER COLUMN f TYPE float8, ALTER COLUMN d TYPE numeric(9,2)');
    md = await currentMetadata('t');
    expect(md['current-schema-id']).toBe(3);
    expect((md['schemas'] as unknown[]).length).toBe(4);
    await client.query(`INSERT INTO lake.t VALUES (4, 9000000000, 1e300, 1234567.89, 'four', NULL)`);
    expect(await rowsOf(client, 'SELECT id, n, pg_typeof(n)::text, f, pg_typeof(f)::text, d, pg_typeof(d)::text FROM lake.t ORDER BY id')).toEqual([
      ['1', '2147483647', 'bigint', '1.5', 'double precision', '123.45', 'numeric'],
      ['2', 'NULL', 'bigint', 'NULL', 'double precision', 'NULL', 'numeric'],
      ['3', '3', 'bigint', '3.25', 'double precision', '3.50', 'numeric'],
      ['4', '9000000000', 'bigint', '1e+300', 'double precision', '1234567.89', 'numeric'],
    ]);
    expect(await rowsOf(client, 'SELECT sum(n) FROM lake.t')).toEqual([['11147483650']]);
    expect(await rowsOf(client, `SELECT numeric_precision FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 't' AND column_name = 'd'`)).toEqual([['9']]);

    await client.query('ALTER TABLE lake.t DROP COLUMN extra');
    expect(await rowsOf(client, `SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 't'`)).toEqual([['id,n,f,d,label']]);
    expect(await rowsOf(client, 'SELECT * FROM lake.t WHERE id = 3')).toEqual([['3', '3', '3.25', '3.50', 'three']]);

    // a column added again gets a new field id: the dropped column's data does not come back
    await client.query('ALTER TABLE lake.t ADD COLUMN extra text');
    expect(await rowsOf(client, 'SELECT extra FROM lake.t WHERE id = 3')).toEqual([['NULL']]);
    md = await currentMetadata('t');
    expect(md['last-column-id']).toBe(7);

    // time travel reads the first snapshot with the schema it was written with
    const old = await client.query({ text: `SELECT * FROM lake.t FOR SYSTEM_VERSION AS OF ${first} ORDER BY id`, rowMode: 'array' });
    expect(old.fields.map((f) => f.name)).toEqual(['id', 'n', 'f', 'd', 's']);
    expect(old.fields[1]!.dataTypeID).toBe(23);
    expect(old.rows).toEqual([['1', '2147483647', '1.5', '123.45', 'one'], ['2', null, null, null, null]]);
  });

  it('refuses what Iceberg cannot do, with PostgreSQL codes', async () => {
    const err = async (sql: string): Promise<string> => client.query(sql).then(() => 'ok', (e: { code: string }) => e.code);
    expect(await err('ALTER TABLE lake.t DROP COLUMN id')).toBe('2BP01');
    expect(await err('ALTER TABLE lake.t ALTER COLUMN label TYPE int')).toBe('0A000');
    expect(await err('ALTER TABLE lake.t ALTER COLUMN n TYPE int')).toBe('0A000');
    expect(await err('ALTER TABLE lake.t ALTER COLUMN n TYPE text')).toBe('0A000');
    expect(await err('ALTER TABLE lake.t ALTER COLUMN label SET NOT NULL')).toBe('0A000');
    expect(await err('ALTER TABLE lake.t ADD COLUMN must int NOT NULL')).toBe('23502');
    expect(await err('ALTER TABLE lake.t ADD COLUMN dflt int DEFAULT 1')).toBe('0A000');
    expect(await err('ALTER TABLE lake.t ALTER COLUMN id DROP NOT NULL')).toBe('42P16');
    expect(await err('ALTER TABLE lake.t ADD COLUMN label text')).toBe('42701');
    expect(await err('ALTER TABLE lake.t DROP COLUMN nope')).toBe('42703');
    // nothing was committed by the failures
    expect((await currentMetadata('t'))['current-schema-id']).toBe(5);
    // DROP NOT NULL makes the field optional; an empty table takes NOT NULL and DEFAULT
    await client.query('ALTER TABLE lake.t ALTER COLUMN label DROP NOT NULL');
    await client.query('CREATE TABLE lake.e (a int)');
    await client.query('ALTER TABLE lake.e ADD COLUMN b int NOT NULL DEFAULT 5, ALTER COLUMN a SET NOT NULL');
    await client.query('INSERT INTO lake.e (a) VALUES (1)');
    expect(await rowsOf(client, 'SELECT * FROM lake.e')).toEqual([['1', '5']]);
    expect(await err('INSERT INTO lake.e VALUES (NULL, 1)')).toBe('23502');
    expect(await err('ALTER TABLE lake.e DROP COLUMN b CASCADE')).toBe('ok');
  });

  it('DROP COLUMN … CASCADE on a primary key column drops the identifier fields', async () => {
    await client.query('CREATE TABLE lake.k (id int PRIMARY KEY, v text)');
    await client.query(`INSERT INTO lake.k VALUES (1, 'a')`);
    await client.query('ALTER TABLE lake.k DROP COLUMN id CASCADE');
    const md = await currentMetadata('k');
    const schema = (md['schemas'] as Record<string, unknown>[]).find((s) => s['schema-id'] === md['current-schema-id'])!;
    expect(schema['identifier-field-ids']).toBeUndefined();
    expect(await rowsOf(client, 'SELECT * FROM lake.k')).toEqual([['a']]);
  });

  it('RENAME TO and SET SCHEMA move the table; its data and schema stay', async () => {
    await client.query('ALTER TABLE lake.t RENAME TO t2');
    expect(await rowsOf(client, 'SELECT count(*) FROM lake.t2')).toEqual([['4']]);
    await expect(client.query('SELECT * FROM lake.t')).rejects.toMatchObject({ code: '42P01' });
    await client.query('ALTER TABLE lake.t2 SET SCHEMA archive');
    expect(await rowsOf(client, 'SELECT id, label FROM archive.t2 WHERE id = 4')).toEqual([['4', 'four']]);
    expect(await rowsOf(client, `SELECT table_schema FROM information_schema.tables WHERE table_name = 't2'`)).toEqual([['archive']]);
    expect(await rowsOf(client, `SELECT string_agg(attname || ':' || format_type(atttypid, atttypmod), ',' ORDER BY attnum) FROM pg_attribute WHERE attrelid = 'archive.t2'::regclass AND attnum > 0`))
      .toEqual([['id:integer,n:bigint,f:double precision,d:numeric(9,2),label:character varying(8),extra:text']]);
    await client.query(`INSERT INTO archive.t2 (id, label) VALUES (5, 'five')`);
    expect(await rowsOf(client, 'SELECT count(*) FROM archive.t2')).toEqual([['5']]);
    await expect(client.query('ALTER TABLE archive.t2 SET SCHEMA public')).rejects.toMatchObject({ code: '0A000' });
  });
});
