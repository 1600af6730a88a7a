/**
 * Iceberg v3 types over the wire: variant → jsonb, geometry / geography → bytea (WKB), unknown → text (always
 * NULL). Tables written by lakegate itself (CREATE TABLE … WITH (format_version = 3, iceberg_types = …)),
 * values read back identical, the Parquet layout (variant = group of binary metadata/value, no bounds for
 * the v3 types), catalog introspection, a hand-built shredded variant file and a corrupt one added to a
 * table by hand (as another engine would write them), and an `unknown` column added by hand-edited schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParquetFile } from 'parquet-wasm';
import { Binary, Field, Int64, Struct, makeData, tableFromIPC } from 'apache-arrow';
import { addUnknownColumn, registerFiles, TYPED, V3Session, variantParquet } from './v3-helpers.ts';

describe('Iceberg v3 types: variant, geometry, geography, unknown', () => {
  const s = new V3Session('v3types');
  const warehouse = s.warehouse;
  const rows = (sql: string): Promise<string[][]> => s.rows(sql);
  const metadataDir = (table: string): string => join(warehouse, 'lake', table, 'metadata');
  const lastMetadata = (table: string): string => join(metadataDir(table), readdirSync(metadataDir(table)).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!);

  let badFile = '';
  let c = null as unknown as V3Session['c'];
  const connect = async (): Promise<void> => { await s.start(); c = s.c; };

  beforeAll(async () => {
    await connect();
    await c.query('CREATE SCHEMA lake');
    for (const t of ['h', 'hs', 'bad']) await c.query(`CREATE TABLE lake.${t} (id int, v jsonb) WITH (format_version = 3, iceberg_types = 'v variant')`);
    await c.query(`CREATE TABLE lake.u (id int, s text) WITH (format_version = 3)`);
    await c.query(`INSERT INTO lake.u VALUES (1, 'one'), (2, 'two')`);
    await s.stop();

    // files as another engine writes them: unshredded, and shredded as top-level primitives of several types
    const file = (rows: Parameters<typeof variantParquet>[0], typed?: Parameters<typeof variantParquet>[1]): { bytes: Uint8Array; rows: number } => ({ bytes: variantParquet(rows, typed), rows: rows.length });
    await registerFiles(warehouse, 'h', [
      file([{ id: 1, json: '{"b": "x", "a": 1}' }, { id: 8, isNull: true }, { id: 9, json: 'true' }]),
      file([{ id: 2, typed: 42n }, { id: 3, json: '"shredded string"' }], TYPED.int64),
      file([{ id: 4, typed: 19724 }], TYPED.date),
      file([{ id: 5, typed: [12340, 0, 0, 0] }], TYPED.decimal53),
      file([{ id: 6, typed: 1730982834123456n }], TYPED.timestamptz),
      file([{ id: 7, typed: 1.5 }], TYPED.float32),
    ]);
    const objectTyped = { type: new Struct([new Field('a', new Struct([new Field('value', new Binary(), true), new Field('typed_value', new Int64(), true)]), false)]), data: null as never };
    objectTyped.data = makeData({
      type: objectTyped.type, length: 1, nullCount: 0,
      children: [makeData({ type: objectTyped.type.children[0]!.type, length: 1, nullCount: 0, children: [
        makeData({ type: new Binary(), length: 1, nullCount: 1, nullBitmap: new Uint8Array(1), valueOffsets: new Int32Array(2), data: new Uint8Array(0) }),
        makeData({ type: new Int64(), length: 1, nullCount: 0, data: BigInt64Array.of(5n) }),
      ] })],
    }) as never;
    await registerFiles(warehouse, 'hs', [file([{ id: 1 }], objectTyped)]);
    // an array header promising 5 elements, then nothing
    badFile = (await registerFiles(warehouse, 'bad', [file([{ id: 1, json: '1' }, { id: 2, rawValue: Uint8Array.of(0x03, 5, 0) }])]))[0]!;
    await addUnknownColumn(warehouse, 'u', 'nothing');
    await connect();
  });
  afterAll(() => s.dispose());

  const VALUES = [
    `(1, '{"b": [1, 2.50, null, true], "a": "x", "nested": {"z": -9223372036854775808, "é": "ü"}}', '\\x0101000000000000000000f03f0000000000000040', '\\x01', 'a')`,
    `(2, 'null', NULL, NULL, 'b')`,
    `(3, NULL, '\\x', '\\x0203', NULL)`,
    `(4, '"a string that is longer than sixty-four bytes, so not a short string......"', NULL, NULL, 'd')`,
    `(5, '123456789012345678901234567890.123', NULL, NULL, 'e')`,
    `(6, '[]', NULL, NULL, 'f')`,
  ];
  const EXPECTED = [
    ['1', '{"a": "x", "b": [1, 2.50, null, true], "nested": {"z": -9223372036854775808, "é": "ü"}}', '\\x0101000000000000000000f03f0000000000000040', '\\x01', 'a'],
    ['2', 'null', 'NULL', 'NULL', 'b'],
    ['3', 'NULL', '\\x', '\\x0203', 'NULL'],
    ['4', '"a string that is longer than sixty-four bytes, so not a short string......"', 'NULL', 'NULL', 'd'],
    ['5', '123456789012345678901234567890.123', 'NULL', 'NULL', 'e'],
    ['6', '[]', 'NULL', 'NULL', 'f'],
  ];

  it('creates a v3 table with variant, geometry and geography columns and reads written values back identical', async () => {
    await c.query(`CREATE TABLE lake.v (id int NOT NULL, v jsonb, g bytea, gg bytea, s text) WITH (format_version = 3,
      iceberg_types = ARRAY['v variant', 'g geometry(srid:4326)', 'gg geography(OGC:CRS84, karney)'])`);
    await c.query(`INSERT INTO lake.v VALUES ${VALUES.join(', ')}`);
    expect(await rows('SELECT id, v, g, gg, s FROM lake.v ORDER BY id')).toEqual(EXPECTED);
    // the Iceberg schema keeps the v3 types and their parameters as written
    const meta = JSON.parse(readFileSync(lastMetadata('v'), 'utf8')) as { 'format-version': number; schemas: { fields: { name: string; type: unknown }[] }[] };
    expect(meta['format-version']).toBe(3);
    expect(meta.schemas[0]!.fields.map((f) => f.type)).toEqual(['int', 'variant', 'geometry(srid:4326)', 'geography(OGC:CRS84, karney)', 'string']);
  });

  it('stores the variant as a group of two binaries and writes no bounds for the v3 types', async () => {
    const files = await rows(`SELECT file_path, lower_bounds::text, null_value_counts::text, value_counts::text FROM lake."v$files"`);
    expect(files).toHaveLength(1);
    const [path, lower, nulls, values] = files[0]!;
    const parquet = await ParquetFile.fromFile(new Blob([readFileSync(path!.replace(/^file:\/\//, ''))]));
    const t = tableFromIPC((await parquet.read({ columns: ['v'] })).intoIPCStream());
    expect(String(t.schema.fields[0]!.type)).toBe('Struct<{metadata:Binary, value:Binary}>');
    expect(t.schema.fields[0]!.metadata.get('PARQUET:field_id')).toBe('2');
    const bounds = JSON.parse(lower!) as Record<string, unknown>;
    expect(Object.keys(bounds).sort()).toEqual(['1', '5']);
    expect(JSON.parse(nulls!)).toMatchObject({ 2: 1, 3: 4, 4: 4 });
    expect(JSON.parse(values!)).toMatchObject({ 2: 6, 3: 6, 4: 6 });
  });

  it('shows the mapped types in information_schema and pg_attribute', async () => {
    expect(await rows(`SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 'v' ORDER BY ordinal_position`))
      .toEqual([['id', 'integer'], ['v', 'jsonb'], ['g', 'bytea'], ['gg', 'bytea'], ['s', 'text']]);
    expect(await rows(`SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = 'lake.v'::regclass AND attnum > 0 ORDER BY attnum`))
      .toEqual([['id', 'integer'], ['v', 'jsonb'], ['g', 'bytea'], ['gg', 'bytea'], ['s', 'text']]);
  });

  it('queries variant values with jsonb operators and copies them in and out', async () => {
    expect(await rows(`SELECT id, v -> 'b' -> 1, v ->> 'a', jsonb_typeof(v) FROM lake.v WHERE v IS NOT NULL ORDER BY id`)).toEqual([
      ['1', '2.50', 'x', 'object'], ['2', 'NULL', 'NULL', 'null'], ['4', 'NULL', 'NULL', 'string'], ['5', 'NULL', 'NULL', 'number'], ['6', 'NULL', 'NULL', 'array'],
    ]);
    await c.query(`INSERT INTO lake.v SELECT id + 10, v, g, gg, s FROM lake.v`);
    // COPY out, and back in (text and csv) through the COPY decoders
    const out: Buffer[] = [];
    await pipeline(c.query(copyStreams.to('COPY (SELECT id + 20, v, g, gg, s FROM lake.v WHERE id < 10 ORDER BY id) TO STDOUT')), new Writable({ write(chunk: Buffer, _e, cb) { out.push(chunk); cb(); } }));
    await pipeline(Readable.from([Buffer.concat(out)]), c.query(copyStreams.from('COPY lake.v FROM STDIN')));
    await pipeline(Readable.from(['31,"{""k"": [1, {""z"": null}]}",\\x00ff,\n']), c.query(copyStreams.from('COPY lake.v (id, v, g, gg) FROM STDIN (FORMAT csv)')));
    expect(await rows('SELECT id - 20, v, g, gg, s FROM lake.v WHERE id > 20 AND id < 30 ORDER BY id')).toEqual(EXPECTED);
    expect(await rows('SELECT v, g, gg FROM lake.v WHERE id = 31')).toEqual([['{"k": [1, {"z": null}]}', '\\x00ff', 'NULL']]);
    await c.query('DELETE FROM lake.v WHERE id > 20');
    expect(await rows('SELECT id - 10, v, g, gg, s FROM lake.v WHERE id > 10 ORDER BY id')).toEqual(EXPECTED);
    await c.query('UPDATE lake.v SET v = jsonb_set(v, \'{a}\', \'"y"\') WHERE id = 11');
    expect(await rows('SELECT v FROM lake.v WHERE id = 11')).toEqual([['{"a": "y", "b": [1, 2.50, null, true], "nested": {"z": -9223372036854775808, "é": "ü"}}']]);
    await c.query('DELETE FROM lake.v WHERE id > 10');
    expect(await rows('SELECT count(*) FROM lake.v')).toEqual([['6']]);
  });

  it('adds variant and geometry columns with ALTER TABLE on v3 tables only', async () => {
    await c.query(`CREATE TABLE lake.alt (id int) WITH (format_version = 3)`);
    await c.query(`INSERT INTO lake.alt VALUES (1)`);
    await c.query(`ALTER TABLE lake.alt ADD COLUMN doc jsonb, ADD COLUMN shape bytea, SET (iceberg_types = '["doc variant", "shape geometry"]')`);
    await c.query(`INSERT INTO lake.alt VALUES (2, '{"k": [1, "two"]}', '\\x0001')`);
    expect(await rows('SELECT id, doc, shape FROM lake.alt ORDER BY id')).toEqual([['1', 'NULL', 'NULL'], ['2', '{"k": [1, "two"]}', '\\x0001']]);
    await c.query(`CREATE TABLE lake.alt2 (id int)`);
    await expect(c.query(`ALTER TABLE lake.alt2 ADD COLUMN doc jsonb, SET (iceberg_types = 'doc variant')`)).rejects.toMatchObject({ code: '0A000', message: expect.stringMatching(/requires table format version 3/) });
  });

  it('refuses v3 types in a v2 table and numbers a variant cannot hold', async () => {
    await expect(c.query(`CREATE TABLE lake.v2 (v jsonb) WITH (iceberg_types = 'v variant')`)).rejects.toMatchObject({ code: '0A000', message: expect.stringMatching(/variant .*requires table format version 3/) });
    await expect(c.query(`INSERT INTO lake.v VALUES (9, '${'9'.repeat(40)}', NULL, NULL, NULL)`)).rejects.toMatchObject({ code: '22003' });
    await expect(c.query(`CREATE TABLE lake.v3 (v text) WITH (format_version = 3, iceberg_types = 'v variant')`)).rejects.toMatchObject({ code: '42804' });
  });

  it('reads hand-written variant files: unshredded, and shredded as top-level primitives', async () => {
    expect(await rows('SELECT id, v FROM lake.h ORDER BY id')).toEqual([
      ['1', '{"a": 1, "b": "x"}'], ['2', '42'], ['3', '"shredded string"'], ['4', '"2024-01-02"'], ['5', '12.340'],
      ['6', '"2024-11-07T12:33:54.123456+00:00"'], ['7', '1.5'], ['8', 'NULL'], ['9', 'true'],
    ]);
    expect(await rows(`SELECT count(*) FROM lake.h WHERE v @> '{"a": 1}'`)).toEqual([['1']]);
  });

  it('reads a shredded variant object (more in v3-variant-nested.test.ts)', async () => {
    expect(await rows('SELECT id, v FROM lake.hs')).toEqual([['1', '{"a": 5}']]);
  });

  it('reports malformed variant bytes as XX001 naming the file', async () => {
    const err = await c.query('SELECT v FROM lake.bad').then(() => null, (e: unknown) => e as { code: string; message: string });
    expect(err).toMatchObject({ code: 'XX001' });
    expect(err!.message).toContain(badFile);
    expect(err!.message).toMatch(/malformed variant value .*runs past/);
    expect(await rows('SELECT id FROM lake.bad ORDER BY id')).toEqual([['1'], ['2']]);
  });

  it('reads an unknown column (added by another engine, absent from the files) as text NULL', async () => {
    expect(await rows('SELECT * FROM lake.u ORDER BY id')).toEqual([['1', 'one', 'NULL'], ['2', 'two', 'NULL']]);
    expect(await rows(`SELECT count(*), count(nothing), pg_typeof(nothing)::text FROM lake.u GROUP BY 3`)).toEqual([['2', '0', 'text']]);
    expect(await rows(`SELECT data_type FROM information_schema.columns WHERE table_schema = 'lake' AND table_name = 'u' AND column_name = 'nothing'`)).toEqual([['text']]);
    // lakegate writes to it, omitting the column from the data file (§ Parquet: "Omit from data files")
    await c.query(`INSERT INTO lake.u VALUES (3, 'three', NULL)`);
    await expect(c.query(`INSERT INTO lake.u VALUES (4, 'four', 'x')`)).rejects.toMatchObject({ code: '22023', message: 'column "nothing" of relation "u" is of Iceberg type unknown and can only hold NULL' });
    expect(await rows('SELECT * FROM lake.u ORDER BY id')).toEqual([['1', 'one', 'NULL'], ['2', 'two', 'NULL'], ['3', 'three', 'NULL']]);
    const [[path, counts]] = await rows(`SELECT file_path, value_counts::text FROM lake."u$files" WHERE record_count = 1`) as [[string, string]];
    const parquet = await ParquetFile.fromFile(new Blob([readFileSync(path.replace(/^file:\/\//, ''))]));
    expect(tableFromIPC(parquet.schema().intoIPCStream()).schema.fields.map((f) => f.name)).toEqual(['id', 's']);
    expect(Object.keys(JSON.parse(counts) as object).sort()).toEqual(['1', '2']);
  });

  it('creates unknown columns in v3 tables only, never NOT NULL', async () => {
    await c.query(`CREATE TABLE lake.u2 (id int, x text) WITH (format_version = 3, iceberg_types = 'x unknown')`);
    await c.query(`INSERT INTO lake.u2 (id) VALUES (1), (2)`);
    expect(await rows('SELECT id, x FROM lake.u2 ORDER BY id')).toEqual([['1', 'NULL'], ['2', 'NULL']]);
    await expect(c.query(`CREATE TABLE lake.u3 (x text NOT NULL) WITH (format_version = 3, iceberg_types = 'x unknown')`)).rejects.toMatchObject({ code: '42P16' });
    await expect(c.query(`CREATE TABLE lake.u3 (x text) WITH (iceberg_types = 'x unknown')`)).rejects.toMatchObject({ code: '0A000' });
  });
});
