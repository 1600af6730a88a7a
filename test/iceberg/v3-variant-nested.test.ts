/**
 * Variant beyond top-level unshredded columns: written inside structs, lists and maps by lakegate (read back
 * identical, the Parquet leaf a group of metadata / value), and read when shredded (VariantShredding.md) as
 * objects with `typed_value` fields — fully, partially (other keys in `value`), missing keys — and arrays
 * with `typed_value` elements, nested in each other; shredding-rule violations and bad bytes → XX001 naming
 * the file, other columns still readable.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ParquetFile } from 'parquet-wasm';
import { tableFromIPC } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerFiles, TYPED, V3Session } from './v3-helpers.ts';
import { shreddedVariantParquet, type Shredding, type Slot } from './v3-shredded-helpers.ts';

const OBJECT: Shredding = { object: { a: { primitive: TYPED.int64 }, b: { primitive: TYPED.utf8 } } };
const ARRAY: Shredding = { array: { primitive: TYPED.int64 } };
const DEEP: Shredding = { object: { items: { array: { object: { n: { primitive: TYPED.int64 } } } } } };

describe('Iceberg v3 variant: nested writes and shredded objects / arrays', () => {
  const s = new V3Session('variant-nested');
  const rows = (sql: string): Promise<string[][]> => s.rows(sql);
  const files: Record<string, string> = {};

  beforeAll(async () => {
    await s.start();
    await s.c.query('CREATE SCHEMA lake');
    await s.c.query(`CREATE TABLE lake.n (id int, s jsonb, l jsonb[], m jsonb) WITH (format_version = 3,
      iceberg_types = ARRAY['s struct<a: int, v: variant>', 'l list<variant>', 'm map<string, variant>'])`);
    for (const t of ['obj', 'arr', 'deep', 'bad1', 'bad2', 'bad3']) await s.c.query(`CREATE TABLE lake.${t} (id int, v jsonb) WITH (format_version = 3, iceberg_types = 'v variant')`);
    await s.stop();
    const file = (rs: { id: number; slot?: Slot }[], layout: Shredding): { bytes: Uint8Array; rows: number } => ({ bytes: shreddedVariantParquet(rs, layout), rows: rs.length });
    await registerFiles(s.warehouse, 'obj', [file([
      { id: 1, slot: { typed: { a: { typed: 1n }, b: { typed: 'x' } } } },
      { id: 2, slot: { typed: { a: { value: '"str"' } } } },
      { id: 3, slot: { value: '{"c": [1, 2], "d": {"e": null}}', typed: { a: { typed: 5n } } } },
      { id: 4, slot: { value: '[1, "two"]' } },
      { id: 5 },
      { id: 6, slot: { typed: {} } },
      { id: 7, slot: { typed: { a: { value: 'null' }, b: { value: '{"b": 1}' } } } },
    ], OBJECT)]);
    await registerFiles(s.warehouse, 'arr', [file([
      { id: 1, slot: { typed: [{ typed: 1n }, { value: '"x"' }, { value: '{"k": true}' }] } },
      { id: 2, slot: { typed: [] } },
      { id: 3, slot: { value: '3' } },
    ], ARRAY)]);
    await registerFiles(s.warehouse, 'deep', [file([
      { id: 1, slot: { typed: { items: { typed: [{ typed: { n: { typed: 1n } } }, { value: '{"m": "z"}', typed: { n: { typed: 2n } } }] } } } },
      { id: 2, slot: { value: '{"other": 1.50}', typed: { items: {} } } },
    ], DEEP)]);
    files['bad1'] = (await registerFiles(s.warehouse, 'bad1', [file([{ id: 1, slot: { typed: [{ typed: 1n }, {}] } }], ARRAY)]))[0]!;
    files['bad2'] = (await registerFiles(s.warehouse, 'bad2', [file([{ id: 1, slot: { value: '7', typed: { a: { typed: 1n } } } }], OBJECT)]))[0]!;
    files['bad3'] = (await registerFiles(s.warehouse, 'bad3', [file([{ id: 1, slot: { value: '{"a": 2}', typed: { a: { typed: 1n } } } }], OBJECT)]))[0]!;
    await s.start();
  });
  afterAll(() => s.dispose());

  it('writes variants inside a struct, a list and a map and reads them back', async () => {
    await s.c.query(`INSERT INTO lake.n VALUES
      (1, '{"a": 1, "v": {"x": [1, "y", 2.50], "é": true}}', ARRAY['{"k": 2}'::jsonb, '3', 'null', '"s"'], '{"p": [1], "q": {"r": null}}'),
      (2, '{"a": 2, "v": null}', NULL, '{}'),
      (3, '{"a": 3}', ARRAY[NULL::jsonb], NULL)`);
    // a jsonb 'null' element is a variant null (PostgreSQL quotes it in array output), not a NULL element
    expect(await rows('SELECT id, s, l, m FROM lake.n ORDER BY id')).toEqual([
      ['1', '{"a": 1, "v": {"x": [1, "y", 2.50], "é": true}}', '{"{\\"k\\": 2}",3,"null","\\"s\\""}', '{"p": [1], "q": {"r": null}}'],
      ['2', '{"a": 2, "v": null}', 'NULL', '{}'],
      ['3', '{"a": 3, "v": null}', '{NULL}', 'NULL'],
    ]);
    expect(await rows(`SELECT s -> 'v' -> 'x' ->> 2, l[1] ->> 'k', m -> 'q' FROM lake.n WHERE id = 1`)).toEqual([['2.50', '2', '{"r": null}']]);
    // the struct's variant field is a group of binary metadata / value in the Parquet file
    const dir = join(s.warehouse, 'lake', 'n', 'data');
    const path = join(dir, readdirSync(dir).find((f) => f.endsWith('.parquet'))!);
    const t = tableFromIPC((await (await ParquetFile.fromFile(new Blob([readFileSync(path)]))).read({ columns: ['s'] })).intoIPCStream());
    expect(String(t.schema.fields[0]!.type).replace(/\s/g, '')).toContain('v:Struct<{metadata:Binary,value:Binary}>');
  });

  it('reads shredded objects: typed fields, value fields, missing keys, partially shredded, not an object, NULL', async () => {
    expect(await rows('SELECT id, v FROM lake.obj ORDER BY id')).toEqual([
      ['1', '{"a": 1, "b": "x"}'],
      ['2', '{"a": "str"}'],
      ['3', '{"a": 5, "c": [1, 2], "d": {"e": null}}'],
      ['4', '[1, "two"]'],
      ['5', 'NULL'],
      ['6', '{}'],
      ['7', '{"a": null, "b": {"b": 1}}'],
    ]);
    expect(await rows(`SELECT id, jsonb_typeof(v), v ->> 'a' FROM lake.obj WHERE v ? 'a' ORDER BY id`)).toEqual([
      ['1', 'object', '1'], ['2', 'object', 'str'], ['3', 'object', '5'], ['7', 'object', 'NULL'],
    ]);
  });

  it('reads shredded arrays and objects of arrays of objects', async () => {
    expect(await rows('SELECT id, v FROM lake.arr ORDER BY id')).toEqual([['1', '[1, "x", {"k": true}]'], ['2', '[]'], ['3', '3']]);
    expect(await rows('SELECT id, v FROM lake.deep ORDER BY id')).toEqual([
      ['1', '{"items": [{"n": 1}, {"m": "z", "n": 2}]}'],
      ['2', '{"other": 1.50}'],
    ]);
  });

  it('reports shredding-rule violations as XX001 naming the file; other columns still read', async () => {
    const cases: [string, RegExp][] = [
      ['bad1', /element 1 of shredded array .* has neither value nor typed_value/],
      ['bad2', /partially shredded object whose value is not an object/],
      ['bad3', /key "a" both shredded and in its value/],
    ];
    for (const [t, why] of cases) {
      const err = await s.c.query(`SELECT v FROM lake.${t}`).then(() => null, (e: unknown) => e as { code: string; message: string });
      expect(err).toMatchObject({ code: 'XX001' });
      expect(err!.message).toContain(files[t]!);
      expect(err!.message).toMatch(why);
      expect(await rows(`SELECT id FROM lake.${t}`)).toEqual([['1']]);
    }
  });
});
