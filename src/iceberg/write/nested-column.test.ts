/**
 * Nested columns through ParquetDataWriter: struct / list / map at several depths, written from the form the
 * reader produces (jsonb, `T[]`, `jsonb[]`) and read back by read/parquet-reader unchanged; field ids on
 * every nested Parquet field; per-leaf metrics as Iceberg Java keeps them; errors and their SQLSTATEs.
 */
import { describe, expect, it } from 'vitest';
import { ParquetDataWriter } from './parquet-data-writer.ts';
import { openParquet, readParquetColumns } from '../read/parquet-reader.ts';
import { fieldIdOf } from '../read/arrow-values.ts';
import { parseSchema, type Schema } from '../spec/schema.ts';
import { decodeSingleValue } from '../spec/types.ts';
import { pgArray } from '../../common/pgtypes/values.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { jsonbIn, parseJsonb } from '../../common/pgtypes/json-text.ts';
import { readJsonb } from './jsonb-reader.ts';
import { newFileRecord } from './manifest-writer.ts';
import type { Field } from 'apache-arrow';
import { memoryWriteIO } from './testing/memory-write-io.ts';

const schema = parseSchema({
  type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'id', required: true, type: 'int' },
    {
      id: 2, name: 's', required: false, type: {
        type: 'struct', fields: [
          { id: 10, name: 'a', required: true, type: 'int' },
          { id: 11, name: 'b', required: false, type: 'string' },
          { id: 12, name: 'inner', required: false, type: { type: 'struct', fields: [{ id: 13, name: 'd', required: false, type: 'decimal(10, 2)' }, { id: 14, name: 'ts', required: false, type: 'timestamptz' }] } },
          { id: 15, name: 'tags', required: false, type: { type: 'list', 'element-id': 16, element: 'string', 'element-required': false } },
        ],
      },
    },
    { id: 3, name: 'm', required: false, type: { type: 'map', 'key-id': 17, key: 'string', 'value-id': 18, value: 'long', 'value-required': false } },
    { id: 4, name: 'ls', required: false, type: { type: 'list', 'element-id': 19, element: { type: 'struct', fields: [{ id: 20, name: 'x', required: false, type: 'double' }, { id: 21, name: 'dt', required: false, type: 'date' }] }, 'element-required': false } },
    { id: 5, name: 'li', required: false, type: { type: 'list', 'element-id': 22, element: 'int', 'element-required': false } },
    { id: 6, name: 'mi', required: false, type: { type: 'map', 'key-id': 23, key: 'int', 'value-id': 24, value: { type: 'list', 'element-id': 25, element: 'binary', 'element-required': true }, 'value-required': false } },
  ],
});

const jb = (s: string | null): string | null => (s === null ? null : jsonbIn(s));
const jarr = (xs: (string | null)[] | null): unknown => (xs === null ? null : pgArray(Oid.jsonb, xs.map(jb)));

const rows: unknown[][] = [
  [1, jb('{"a": 1, "b": "x", "inner": {"d": 12.34, "ts": "2024-01-02T03:04:05.123456+00:00"}, "tags": ["p", null, "q"]}'), jb('{"k1": 1, "k2": null, "k3": 9007199254740993}'),
    jarr(['{"x": 1.5, "dt": "2024-01-02"}', null, '{"x": "NaN", "dt": null}']), pgArray(Oid.int4, [1, null, 3]), jb('{"5": ["\\\\x00ff"], "-1": []}')],
  [2, null, null, null, null, null],
  [3, jb('{"a": -7, "b": null, "inner": null, "tags": []}'), jb('{}'), jarr([]), pgArray(Oid.int4, []), jb('{"7": null}')],
];
const columns = (rs: unknown[][], s: Schema = schema): unknown[][] => s.fields.map((_f, c) => rs.map((r) => r[c] ?? null));

async function writeOne(rs: unknown[][], s: Schema = schema): Promise<{ io: ReturnType<typeof memoryWriteIO>; file: Awaited<ReturnType<ParquetDataWriter['close']>>[number] }> {
  const io = memoryWriteIO();
  const w = new ParquetDataWriter(io, 'memory://t/data', s, { relationName: 't' });
  await w.add({ length: rs.length, columns: columns(rs, s) });
  const [file] = await w.close();
  return { io, file: file! };
}

async function readBack(io: ReturnType<typeof memoryWriteIO>, path: string, s: Schema = schema): Promise<unknown[][]> {
  const out: unknown[][] = s.fields.map(() => []);
  for await (const chunk of readParquetColumns(io.files.get(path)!, path, s.fields.map((f) => ({ fieldId: f.id, type: f.type, missingValue: null })))) {
    chunk.columns.forEach((col, c) => out[c]!.push(...col));
  }
  return out;
}

describe('nested Iceberg columns', () => {
  it('round-trips struct / map / list values in the read form, unchanged', async () => {
    const { io, file } = await writeOne(rows);
    const back = await readBack(io, file.path);
    expect(back).toEqual(columns(rows));
  });

  it('puts field ids on every nested Parquet field', async () => {
    const { io, file } = await writeOne(rows);
    const { fields } = await openParquet(io.files.get(file.path)!, file.path);
    const ids: number[] = [];
    const walk = (f: Field): void => {
      const id = fieldIdOf(f);
      if (id !== null) ids.push(id);
      for (const c of f.type.children ?? []) walk(c);
    };
    fields.forEach(walk);
    expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
  });

  it('keeps value/null counts per leaf, bounds only outside lists and maps', async () => {
    const { file } = await writeOne(rows);
    const rec = newFileRecord(file, undefined) as Record<string, { key: number; value: bigint | Buffer }[]>;
    const map = (k: string): Record<number, unknown> => Object.fromEntries(rec[k]!.map((e) => [e.key, typeof e.value === 'bigint' ? Number(e.value) : e.value]));
    const values = map('value_counts');
    const nulls = map('null_value_counts');
    // struct leaves: one slot per row (a null struct leaves a null slot)
    expect([values[10], nulls[10]]).toEqual([3, 1]);
    expect([values[11], nulls[11]]).toEqual([3, 2]);
    expect([values[13], nulls[13]]).toEqual([3, 2]);
    // list element under a struct: 3 elements + 1 null slot for the null struct + 1 for the empty list
    expect([values[16], nulls[16]]).toEqual([5, 3]);
    // map<string,long>: 3 entries + null map + empty map
    expect([values[17], nulls[17], values[18], nulls[18]]).toEqual([5, 2, 5, 3]);
    // list<struct>: 3 elements (one null) + null list + empty list
    expect([values[20], nulls[20]]).toEqual([5, 3]);
    expect(map('nan_value_counts')[20]).toBe(1);
    expect([values[22], nulls[22]]).toEqual([5, 3]);
    // containers have no entries of their own
    for (const id of [2, 3, 4, 5, 6, 12, 15, 19]) expect(values[id]).toBeUndefined();
    const lower = map('lower_bounds');
    const upper = map('upper_bounds');
    expect(decodeSingleValue({ kind: 'primitive', name: 'int' }, lower[10] as Buffer)).toBe(-7);
    expect(decodeSingleValue({ kind: 'primitive', name: 'int' }, upper[10] as Buffer)).toBe(1);
    expect(String(decodeSingleValue({ kind: 'primitive', name: 'decimal', precision: 10, scale: 2 }, lower[13] as Buffer))).toBe('12.34');
    for (const id of [16, 17, 18, 20, 21, 22, 23, 24, 25]) {
      expect(lower[id]).toBeUndefined();
      expect(upper[id]).toBeUndefined();
    }
  });

  it('round-trips every writable primitive inside a struct', async () => {
    const s = parseSchema({ type: 'struct', fields: [{ id: 1, name: 'p', required: false, type: { type: 'struct', fields: [
      { id: 2, name: 'bo', required: false, type: 'boolean' }, { id: 3, name: 'i', required: false, type: 'int' }, { id: 4, name: 'l', required: false, type: 'long' },
      { id: 5, name: 'f', required: false, type: 'float' }, { id: 6, name: 'd', required: false, type: 'double' }, { id: 7, name: 'n', required: false, type: 'decimal(38, 10)' },
      { id: 8, name: 'dt', required: false, type: 'date' }, { id: 9, name: 't', required: false, type: 'time' }, { id: 10, name: 'ts', required: false, type: 'timestamp' },
      { id: 11, name: 'tz', required: false, type: 'timestamptz' }, { id: 12, name: 's', required: false, type: 'string' }, { id: 13, name: 'u', required: false, type: 'uuid' },
      { id: 14, name: 'b', required: false, type: 'binary' },
    ] } }] });
    const v = jb(`{"b": "\\\\x00ff10", "d": -2.5e-300, "f": 1.25, "i": -2147483648, "l": -9223372036854775808, "n": 1234567890123456789012345678.0123456789,
      "s": "é ✓ \\u0000x", "t": "23:59:59.999999", "u": "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "bo": true, "dt": "0001-01-01",
      "ts": "2024-02-29T12:34:56.000001", "tz": "1969-12-31T23:59:59.5+00:00"}`.replace('\\u0000x', 'x'));
    const inf = jb('{"d": "Infinity", "f": "-Infinity"}');
    const { io, file } = await writeOne([[v], [inf]], s);
    const [[a, b]] = await readBack(io, file.path, s) as [[string, string]];
    expect(a).toBe(v);
    expect(b).toBe(jb('{"b": null, "d": "Infinity", "f": "-Infinity", "i": null, "l": null, "n": null, "s": null, "t": null, "u": null, "bo": null, "dt": null, "ts": null, "tz": null}'));
  });

  it('rolls files at the target size counting nested buffers', async () => {
    const s = parseSchema({ type: 'struct', fields: [{ id: 1, name: 'p', required: false, type: { type: 'struct', fields: [{ id: 2, name: 'x', required: false, type: 'long' }] } }] });
    const io = memoryWriteIO();
    const w = new ParquetDataWriter(io, 'memory://t/data', s, { targetFileSizeBytes: 8 * 1000 });
    for (let k = 0; k < 4; k++) await w.add({ length: 1000, columns: [Array.from({ length: 1000 }, (_v, i) => jb(`{"x": ${k * 1000 + i}}`))] });
    const files = await w.close();
    expect(files).toHaveLength(4);
    expect(files.map((f) => f.metrics[0]!.written().map((m) => [m.fieldId, m.valueCount]))).toEqual(Array(4).fill([[2, 1000]]));
  });

  it('accepts missing struct fields as null and map keys in either spelling', async () => {
    const s = parseSchema({ type: 'struct', fields: [{ id: 1, name: 'm', required: false, type: { type: 'map', 'key-id': 2, key: 'date', 'value-id': 3, value: 'string', 'value-required': false } }] });
    const { io, file } = await writeOne([[jb('{"2024-01-02": "a", "\\"2024-01-03\\"": "b"}')]], s);
    const [[v]] = await readBack(io, file.path, s) as [[string]];
    expect(v).toBe(jb('{"2024-01-02": "a", "2024-01-03": "b"}'));
  });

  it('rejects NULL in required nested fields (23502) naming the field', async () => {
    const bad = (v: string): unknown[][] => [[1, jb(v), null, null, null, null]];
    await expect(writeOne(bad('{"b": "no a"}'))).rejects.toMatchObject({ code: '23502', message: 'null value in column "s" of relation "t" violates not-null constraint', detail: 'Iceberg field s.a is required.' });
    await expect(writeOne(bad('{"a": null}'))).rejects.toMatchObject({ code: '23502' });
    await expect(writeOne([[1, null, null, null, null, jb('{"1": [null]}')]])).rejects.toMatchObject({ code: '23502', detail: 'Iceberg field mi.value.element is required.' });
    // a required field under a null struct is fine
    await expect(writeOne([[1, jb('{"a": 1, "inner": null}'), null, null, null, null]])).resolves.toBeDefined();
  });

  it('rejects wrong JSON shapes (22023) and bad leaves (22P02 / 22003) naming column and path', async () => {
    const one = (c: number, v: unknown): unknown[][] => [[1, null, null, null, null, null].map((x, i) => (i === c ? v : x))];
    await expect(writeOne(one(1, jb('[1, 2]')))).rejects.toMatchObject({ code: '22023', message: 'expected a JSON object for Iceberg column, got an array (column "s")' });
    await expect(writeOne(one(1, jb('{"a": 1, "zz": 2}')))).rejects.toMatchObject({ code: '22023', message: 'Iceberg struct s has no field "zz" (column "s")' });
    await expect(writeOne(one(1, jb('{"a": "abc"}')))).rejects.toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "abc" (column "s", field s.a)' });
    await expect(writeOne(one(1, jb('{"a": 1, "b": 5}')))).rejects.toMatchObject({ code: '22023', message: 'expected a JSON string for Iceberg field, got a number (column "s", field s.b)' });
    await expect(writeOne(one(1, jb('{"a": 1, "tags": "x"}')))).rejects.toMatchObject({ code: '22023', message: 'expected a JSON array for Iceberg field, got a string (column "s", field s.tags)' });
    await expect(writeOne(one(1, jb('{"a": 1, "inner": {"d": 123456789.5}}')))).rejects.toMatchObject({ code: '22003' });
    await expect(writeOne(one(2, jb('{"k": "many"}')))).rejects.toMatchObject({ code: '22P02', message: 'invalid input syntax for type bigint: "many" (column "m", field m.value)' });
    await expect(writeOne(one(5, jb('{"x": []}')))).rejects.toMatchObject({ code: '22P02', message: 'invalid input syntax for type integer: "x" (column "mi", field mi.key)' });
  });
});

describe('readJsonb', () => {
  it('reads normalized jsonb text as parseJsonb does, and falls back to it for anything else', () => {
    for (const text of ['{"a": 1, "bb": [true, false, null, -1.50e3], "ccc": {"x\\"y": "\\u00e9\\n"}}', '[]', '{}', '"s"', '12345678901234567890.5', 'null', ' [ 1 , {"k": "v"} ] ']) {
      const normalized = jsonbIn(text);
      expect(readJsonb(normalized)).toEqual(parseJsonb(normalized));
    }
    expect(readJsonb('{"a": 1, "bb": 2}')).toEqual(parseJsonb('{"a": 1, "bb": 2}'));
    expect(readJsonb('12345678901234567890.5')).toEqual({ num: '12345678901234567890.5' });
    expect(readJsonb('{"x\\"y": "\\u00e9"}')).toEqual({ keys: ['x"y'], values: ['é'] });
    expect(() => readJsonb('{"a": }')).toThrow(/invalid input syntax for type json/);
  });
});
