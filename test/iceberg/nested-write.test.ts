/**
 * Writing Iceberg struct / list / map columns over the wire: CREATE TABLE … WITH (iceberg_types = …) (schema
 * and field ids as Iceberg assigns them), INSERT / COPY / INSERT … SELECT / UPDATE / DELETE with nulls at
 * every level, values read back exactly as written (the read form goes back in unchanged), per-leaf metrics
 * in `$files`, UPDATE of PyIceberg's map_stats fixture (map<string, string>) keeping its map values, errors
 * with their SQLSTATEs, and icebird (an independent reader) reading the structs, lists and maps back.
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

const FIXTURES = join(import.meta.dirname, '../../../shared/fixtures/iceberg');
const passthrough = { getTypeParser: () => (v: string) => v };

function copyWritable(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const walk = (p: string): void => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(to);
}


const CREATE = `CREATE TABLE lake.n (id int NOT NULL, s jsonb, m jsonb, ls jsonb[], li int[], deep jsonb) WITH (iceberg_types = ARRAY[
  's struct<a: int not null, b: string, inner: struct<d: decimal(10, 2), ts: timestamptz>, tags: list<string>>',
  'm map<string, long>',
  'ls list<struct<x: double, dt: date>>',
  'deep map<int, list<struct<k: string not null, v: list<long not null>>>>'])`;

const ROW1 = `(1, '{"a": 1, "b": "x", "tags": ["p", null, "q"], "inner": {"d": 12.345, "ts": "2024-01-02 03:04:05.123456+02"}}',
  '{"k1": 1, "k2": null, "big": 9007199254740993}', ARRAY['{"x": 1.5, "dt": "2024-01-02"}', NULL, '{"x": "NaN", "dt": null}']::jsonb[], '{1,NULL,3}',
  '{"1": [{"k": "a", "v": [1, 2]}, {"k": "b", "v": null}], "2": []}')`;
const ROW2 = `(2, NULL, NULL, NULL, NULL, NULL)`;
const ROW3 = `(3, '{"a": -7}', '{}', '{}', '{}', '{"3": null}')`;

/** what lakegate answers for ROW1..3 (jsonb normalized: keys by length; a struct shows every field) */
const EXPECTED = [
  ['1', '{"a": 1, "b": "x", "tags": ["p", null, "q"], "inner": {"d": 12.35, "ts": "2024-01-02T01:04:05.123456+00:00"}}',
    '{"k1": 1, "k2": null, "big": 9007199254740993}', '[{"x": 1.5, "dt": "2024-01-02"}, null, {"x": "NaN", "dt": null}]', '{1,NULL,3}',
    '{"1": [{"k": "a", "v": [1, 2]}, {"k": "b", "v": null}], "2": []}'],
  ['2', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
  ['3', '{"a": -7, "b": null, "tags": null, "inner": null}', '{}', '[]', '{}', '{"3": null}'],
];
const SELECT = 'SELECT id, s, m, to_jsonb(ls), li, deep FROM';

describe('writing nested Iceberg columns', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lakegate-nested-'));
  const warehouse = join(dir, 'warehouse');
  let server: LakegateServer;
  let c: pg.Client;
  const realFetch = globalThis.fetch;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  const copyIn = async (sql: string, data: string): Promise<void> => {
    await pipeline(Readable.from([Buffer.from(data)]), c.query(copyStreams.from(sql)));
  };

  beforeAll(async () => {
    copyWritable(join(FIXTURES, 'duckdb-map_stats'), join(dir, 'map_stats'));
    server = await startLakegate({ config: { warehouse, path_map: [`file://data/persistent/map_stats=${dir}/map_stats`] } });
    c = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await c.connect();
    await c.query('CREATE SCHEMA lake');
    await c.query(CREATE);
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await c?.end();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('CREATE TABLE with iceberg_types writes the nested schema, ids numbered as Iceberg does', async () => {
    const metaDir = join(warehouse, 'lake', 'n', 'metadata');
    const first = readdirSync(metaDir).filter((n) => n.startsWith('00000-') && n.endsWith('.metadata.json'))[0]!;
    const md = JSON.parse(readFileSync(join(metaDir, first), 'utf8')) as { 'last-column-id': number; schemas: { fields: unknown[] }[] };
    expect(md['last-column-id']).toBe(25);
    expect(md.schemas[0]!.fields).toEqual([
      { id: 1, name: 'id', required: true, type: 'int' },
      {
        id: 2, name: 's', required: false, type: {
          type: 'struct', fields: [
            { id: 7, name: 'a', required: true, type: 'int' },
            { id: 8, name: 'b', required: false, type: 'string' },
            { id: 9, name: 'inner', required: false, type: { type: 'struct', fields: [{ id: 11, name: 'd', required: false, type: 'decimal(10, 2)' }, { id: 12, name: 'ts', required: false, type: 'timestamptz' }] } },
            { id: 10, name: 'tags', required: false, type: { type: 'list', 'element-id': 13, element: 'string', 'element-required': false } },
          ],
        },
      },
      { id: 3, name: 'm', required: false, type: { type: 'map', 'key-id': 14, key: 'string', 'value-id': 15, value: 'long', 'value-required': false } },
      { id: 4, name: 'ls', required: false, type: { type: 'list', 'element-id': 16, element: { type: 'struct', fields: [{ id: 17, name: 'x', required: false, type: 'double' }, { id: 18, name: 'dt', required: false, type: 'date' }] }, 'element-required': false } },
      { id: 5, name: 'li', required: false, type: { type: 'list', 'element-id': 19, element: 'int', 'element-required': false } },
      {
        id: 6, name: 'deep', required: false, type: {
          type: 'map', 'key-id': 20, key: 'int', 'value-id': 21, 'value-required': false, value: {
            type: 'list', 'element-id': 22, 'element-required': false, element: {
              type: 'struct', fields: [
                { id: 23, name: 'k', required: true, type: 'string' },
                { id: 24, name: 'v', required: false, type: { type: 'list', 'element-id': 25, element: 'long', 'element-required': true } },
              ],
            },
          },
        },
      },
    ]);
    expect(await rows(`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'n' ORDER BY ordinal_position`))
      .toEqual([['id', 'integer'], ['s', 'jsonb'], ['m', 'jsonb'], ['ls', 'ARRAY'], ['li', 'ARRAY'], ['deep', 'jsonb']]);
  });

  it('INSERT round-trips nested values with nulls at every level', async () => {
    await c.query(`INSERT INTO lake.n VALUES ${ROW1}, ${ROW2}, ${ROW3}`);
    expect(await rows(`${SELECT} lake.n ORDER BY id`)).toEqual(EXPECTED);
    expect(await rows(`SELECT s->'inner'->>'d', m->>'big', deep->'1'->0->'v', ls[1]->>'dt' FROM lake.n WHERE id = 1`)).toEqual([['12.35', '9007199254740993', '[1, 2]', '2024-01-02']]);
  });

  it('values read back go back in unchanged (INSERT … SELECT into a second table, then compare)', async () => {
    await c.query(CREATE.replace('lake.n', 'lake.n2'));
    await c.query('INSERT INTO lake.n2 SELECT * FROM lake.n');
    expect(await rows(`${SELECT} lake.n2 ORDER BY id`)).toEqual(EXPECTED);
    expect(await rows(`SELECT count(*) FROM lake.n a JOIN lake.n2 b USING (id) WHERE a.s IS NOT DISTINCT FROM b.s AND a.m IS NOT DISTINCT FROM b.m
      AND a.ls IS NOT DISTINCT FROM b.ls AND a.li IS NOT DISTINCT FROM b.li AND a.deep IS NOT DISTINCT FROM b.deep`)).toEqual([['3']]);
  });

  it('CREATE TABLE … WITH (iceberg_types, partitioning) AS SELECT copies nested columns', async () => {
    const types = CREATE.slice(CREATE.indexOf('ARRAY['), CREATE.lastIndexOf(')'));
    const r = await c.query(`CREATE TABLE lake.ct WITH (partitioning = ARRAY['bucket(2, id)'], iceberg_types = ${types}) AS SELECT * FROM lake.n`);
    expect(r.rowCount).toBe(3);
    expect(await rows(`${SELECT} lake.ct ORDER BY id`)).toEqual(EXPECTED);
    expect(await rows(`SELECT count(*) FROM lake."ct$partitions"`)).toEqual([['2']]);
  });

  it('COPY FROM STDIN (text and csv) writes nested columns', async () => {
    await c.query(CREATE.replace('lake.n', 'lake.c'));
    await copyIn('COPY lake.c FROM STDIN', [
      '10\t{"a": 10, "tags": ["t"]}\t{"k": 5}\t{"{\\\\"x\\\\": 2.5}",NULL}\t{4,5}\t{"7": [{"k": "z", "v": [9]}]}',
      '11\t\\N\t\\N\t\\N\t\\N\t\\N',
    ].join('\n') + '\n');
    await copyIn('COPY lake.c FROM STDIN (FORMAT csv)', '12,"{""a"": 12, ""inner"": {""d"": 1}}","{}",{},"{}",\n');
    expect(await rows(`${SELECT} lake.c ORDER BY id`)).toEqual([
      ['10', '{"a": 10, "b": null, "tags": ["t"], "inner": null}', '{"k": 5}', '[{"x": 2.5, "dt": null}, null]', '{4,5}', '{"7": [{"k": "z", "v": [9]}]}'],
      ['11', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
      ['12', '{"a": 12, "b": null, "tags": null, "inner": {"d": 1.00, "ts": null}}', '{}', '[]', '{}', 'NULL'],
    ]);
  });

  it('UPDATE of one column keeps every other nested value; DELETE removes rows', async () => {
    await c.query(CREATE.replace('lake.n', 'lake.u'));
    await c.query(`INSERT INTO lake.u VALUES ${ROW1}, ${ROW2}, ${ROW3}`);
    const r = await c.query(`UPDATE lake.u SET li = '{7}' WHERE id = 1`);
    expect(r.rowCount).toBe(1);
    expect(await rows(`${SELECT} lake.u ORDER BY id`)).toEqual(EXPECTED.map((row) => (row[0] === '1' ? row.map((v, i) => (i === 4 ? '{7}' : v)) : row)));
    // an UPDATE that rewrites a nested value through jsonb operators
    await c.query(`UPDATE lake.u SET s = jsonb_set(s, '{b}', '"y"'), m = m || '{"k3": 3}' WHERE id = 3`);
    expect(await rows(`SELECT s, m FROM lake.u WHERE id = 3`)).toEqual([['{"a": -7, "b": "y", "tags": null, "inner": null}', '{"k3": 3}']]);
    await c.query('DELETE FROM lake.u WHERE id = 2');
    expect(await rows('SELECT id FROM lake.u ORDER BY id')).toEqual([['1'], ['3']]);
    expect(await rows(`SELECT deep FROM lake.u WHERE id = 1`)).toEqual([[EXPECTED[0]![5]!]]);
  });

  it('UPDATE on PyIceberg\'s map_stats fixture (map<string, string>) keeps the map values', async () => {
    await c.query(`CALL system.register_table(schema_name => 'lake', table_name => 'ms',
      metadata_file => 'file://data/persistent/map_stats/default.db/map_stats/metadata/00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json')`);
    const before = await rows('SELECT "timestamp", input, output, metadata FROM lake.ms ORDER BY 1');
    expect(before.map((r) => r[3])).toEqual(['{"key": "value1"}', '{"key": "value1"}']);
    await c.query(`UPDATE lake.ms SET input = 'bye' WHERE "timestamp" < '2026-01-02'`);
    await c.query(`INSERT INTO lake.ms SELECT "timestamp" + interval '2 days', input, output, metadata || '{"k2": "v2"}' FROM lake.ms`);
    expect(await rows('SELECT "timestamp", input, metadata FROM lake.ms ORDER BY 1')).toEqual([
      [before[0]![0]!, 'bye', '{"key": "value1"}'],
      [before[1]![0]!, 'hello', '{"key": "value1"}'],
      ['2026-01-03 00:00:00+00', 'bye', '{"k2": "v2", "key": "value1"}'],
      ['2026-01-04 00:00:00+00', 'hello', '{"k2": "v2", "key": "value1"}'],
    ]);
    expect(await rows(`SELECT count(*) FROM lake.ms WHERE metadata->>'key' = 'value1'`)).toEqual([['4']]);
    // our files carry the metrics PyIceberg's do: counts for the map's key (5) and value (6), no map entry (4), no map bounds
    const files = await rows(`SELECT value_counts, lower_bounds FROM lake."ms$files" WHERE content = 0`);
    expect(files).toHaveLength(4); // the UPDATE dropped one fixture file whole, added one; the INSERT added two
    for (const [values, lower] of files) {
      expect(Object.keys(JSON.parse(values!) as object)).toEqual(['1', '2', '3', '5', '6']);
      expect(Object.keys(JSON.parse(lower!) as object)).toEqual(['1', '2', '3']);
    }
  });

  it('keeps per-leaf value/null counts in $files, bounds only outside lists and maps', async () => {
    const [[values, nulls, lower]] = await rows(`SELECT value_counts, null_value_counts, lower_bounds FROM lake."n$files"`) as [[string, string, string]];
    const v = JSON.parse(values) as Record<string, number>;
    const n = JSON.parse(nulls) as Record<string, number>;
    // struct leaves: one slot per row; list element under the struct: 3 elements + the null struct + the null tags
    expect([v['7'], n['7'], v['11'], n['11'], v['13'], n['13']]).toEqual([3, 1, 3, 2, 5, 3]);
    // deep.value.element.k: 2 elements + empty list + null map + null value
    expect([v['23'], n['23']]).toEqual([5, 3]);
    for (const container of ['2', '3', '4', '5', '6', '9', '10', '16', '21', '22', '24']) expect(v[container]).toBeUndefined();
    expect(Object.keys(JSON.parse(lower) as object).sort()).toEqual(['1', '11', '12', '7', '8']);
  });

  it('bad values: 22023 for JSON of the wrong shape, 22P02 for bad leaves, 23502 for NULL in required fields', async () => {
    const err = async (sql: string): Promise<unknown> => c.query(sql).then(() => 'ok', (e: unknown) => e);
    expect(await err(`INSERT INTO lake.n (id, s) VALUES (9, '[1]')`)).toMatchObject({ code: '22023', message: 'expected a JSON object for Iceberg column, got an array (column "s")' });
    expect(await err(`INSERT INTO lake.n (id, s) VALUES (9, '{"a": 1, "c": 2}')`)).toMatchObject({ code: '22023', message: 'Iceberg struct s has no field "c" (column "s")' });
    expect(await err(`INSERT INTO lake.n (id, s) VALUES (9, '{"a": 1, "tags": {"x": 1}}')`)).toMatchObject({ code: '22023', message: 'expected a JSON array for Iceberg field, got an object (column "s", field s.tags)' });
    expect(await err(`INSERT INTO lake.n (id, m) VALUES (9, '{"k": "x"}')`)).toMatchObject({ code: '22P02', message: 'invalid input syntax for type bigint: "x" (column "m", field m.value)' });
    expect(await err(`INSERT INTO lake.n (id, ls) VALUES (9, ARRAY['{"dt": "2024-02-30"}']::jsonb[])`)).toMatchObject({ code: '22008', message: 'date/time field value out of range: "2024-02-30" (column "ls", field ls.element.dt)' });
    expect(await err(`INSERT INTO lake.n (id, s) VALUES (9, '{"b": "x"}')`)).toMatchObject({
      code: '23502', message: 'null value in column "s" of relation "n" violates not-null constraint', detail: 'Iceberg field s.a is required.',
    });
    expect(await err(`INSERT INTO lake.n (id, deep) VALUES (9, '{"1": [{"k": "a", "v": [1, null]}]}')`)).toMatchObject({ code: '23502', detail: 'Iceberg field deep.value.element.v.element is required.' });
    expect(await rows('SELECT id FROM lake.n ORDER BY id')).toEqual([['1'], ['2'], ['3']]);
  });

  it('bad iceberg_types: syntax, unknown column, declared type that does not match, unwritable types', async () => {
    const err = async (sql: string): Promise<unknown> => c.query(sql).then(() => 'ok', (e: unknown) => e);
    expect(await err(`CREATE TABLE lake.e1 (a jsonb) WITH (iceberg_types = ARRAY['a struct<x int>'])`)).toMatchObject({ code: '22023', message: 'invalid Iceberg type "struct<x int>": expected ":" at "int>"' });
    expect(await err(`CREATE TABLE lake.e2 (a jsonb) WITH (iceberg_types = ARRAY['a struct<x: bigint>'])`)).toMatchObject({ code: '22023', message: 'invalid Iceberg type "struct<x: bigint>": unknown type "bigint" at "bigint>"' });
    expect(await err(`CREATE TABLE lake.e3 (a jsonb) WITH (iceberg_types = ARRAY['b map<string, int>'])`)).toMatchObject({ code: '42703', message: 'column "b" named in iceberg_types does not exist' });
    expect(await err(`CREATE TABLE lake.e4 (a text) WITH (iceberg_types = ARRAY['a struct<x: int>'])`)).toMatchObject({ code: '42804', message: 'column "a" is of type text but Iceberg type struct<x: int> reads as jsonb', hint: 'Declare the column as jsonb.' });
    expect(await err(`CREATE TABLE lake.e5 (a jsonb) WITH (iceberg_types = ARRAY['a list<struct<x: int>>'])`)).toMatchObject({ code: '42804', hint: 'Declare the column as jsonb[].' });
    expect(await err(`CREATE TABLE lake.e6 (a jsonb) WITH (iceberg_types = ARRAY['a struct<x: fixed[4]>'])`)).toMatchObject({ code: '0A000' });
    expect(await rows(`SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'e_'`)).toEqual([['0']]);
    // with partitioning in the same WITH list, and a quoted column name
    await c.query(`CREATE TABLE lake.p (id int, "My Col" jsonb) WITH (partitioning = ARRAY['bucket(2, id)'], iceberg_types = ARRAY['"My Col" map<string, decimal(5, 1)>'])`);
    await c.query(`INSERT INTO lake.p VALUES (1, '{"a": 1.25}'), (2, NULL)`);
    expect(await rows('SELECT * FROM lake.p ORDER BY id')).toEqual([['1', '{"a": 1.3}'], ['2', 'NULL']]);
  });

  it('ALTER TABLE … ADD COLUMN x jsonb, SET (iceberg_types = …) adds a nested column', async () => {
    await c.query(CREATE.replace('lake.n', 'lake.a'));
    await c.query(`INSERT INTO lake.a (id) VALUES (1)`);
    await c.query(`ALTER TABLE lake.a ADD COLUMN extra jsonb, ADD COLUMN plain jsonb, SET (iceberg_types = 'extra struct<q: list<int>, r: map<string, date>>')`);
    await c.query(`INSERT INTO lake.a (id, extra, plain) VALUES (2, '{"q": [1, null], "r": {"x": "2024-01-02"}}', '{"any": ["json"]}')`);
    expect(await rows('SELECT id, extra, plain FROM lake.a ORDER BY id')).toEqual([
      ['1', 'NULL', 'NULL'], ['2', '{"q": [1, null], "r": {"x": "2024-01-02"}}', '{"any": ["json"]}'],
    ]);
    const metaDir = join(warehouse, 'lake', 'a', 'metadata');
    const latest = readdirSync(metaDir).filter((n) => n.endsWith('.metadata.json')).sort().at(-1)!;
    const md = JSON.parse(readFileSync(join(metaDir, latest), 'utf8')) as { 'current-schema-id': number; schemas: { 'schema-id': number; fields: { name: string }[] }[] };
    const fields = md.schemas.find((x) => x['schema-id'] === md['current-schema-id'])!.fields;
    expect(fields.slice(-2)).toEqual([
      { id: 26, name: 'extra', required: false, type: { type: 'struct', fields: [
        { id: 27, name: 'q', required: false, type: { type: 'list', 'element-id': 29, element: 'int', 'element-required': false } },
        { id: 28, name: 'r', required: false, type: { type: 'map', 'key-id': 30, key: 'string', 'value-id': 31, value: 'date', 'value-required': false } },
      ] } },
      // as Iceberg Java's UpdateSchema.addColumn: each added column takes its id, then its nested ids
      { id: 32, name: 'plain', required: false, type: 'string' },
    ]);
    await expect(c.query(`ALTER TABLE lake.a SET (iceberg_types = 's struct<a: int>')`)).rejects.toMatchObject({ code: '0A000' });
  });

  it('icebird reads the structs, lists and maps back', async () => {
    const tableDir = join(warehouse, 'lake', 'n');
    const latest = readdirSync(join(tableDir, 'metadata')).filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!;
    globalThis.fetch = localFetch;
    let got: Record<string, unknown>[];
    try {
      got = (await icebergRead({ tableUrl: tableDir, metadataFileName: latest })) as Record<string, unknown>[];
    } finally {
      globalThis.fetch = realFetch;
    }
    const byId = new Map(got.map((r) => [Number(r['id']), r]));
    const r1 = byId.get(1)!;
    expect(r1['s']).toMatchObject({ a: 1, b: 'x', tags: ['p', null, 'q'] });
    expect((r1['s'] as { inner: { d: number } }).inner.d).toBeCloseTo(12.35);
    expect(r1['li']).toEqual([1, null, 3]);
    expect((r1['ls'] as ({ x: number } | null)[]).map((e) => e?.x ?? null)).toEqual([1.5, null, Number.NaN]);
    expect(JSON.parse(JSON.stringify(r1['m'], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)))).toMatchObject({ k1: '1', k2: null, big: '9007199254740993' });
    const r3 = byId.get(3)!;
    expect(r3['s']).toMatchObject({ a: -7 });
    expect(r3['li']).toEqual([]);
    expect([byId.get(2)!['s'] ?? null, byId.get(2)!['li'] ?? null]).toEqual([null, null]);
  });
});
