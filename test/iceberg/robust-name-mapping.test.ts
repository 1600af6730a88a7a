/**
 * Parquet files written without field ids (as pyarrow, Hive or plain Spark write them), registered into
 * lakegate tables with appendDataFiles, read over the wire:
 * - with `schema.name-mapping.default`, columns resolve through the mapping's names (aliases too), unmapped
 *   file columns are ignored and a mapped id with no column in the file reads as NULL;
 * - without a mapping, ids are assigned by position (1, 2, …) as Iceberg Java's addFallbackIds does.
 * Files lakegate writes (with ids) in the same table keep reading by id.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { Table as WasmTable, writeParquet } from 'parquet-wasm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';
import { openSqlCatalog } from '../../src/catalog/iceberg/index.ts';
import { FileIO } from '../../src/storage/index.ts';
import { appendDataFiles, icebergIOFromFileIO, loadTableMetadata, setProperty, updateTableMetadata, writableIcebergIO } from '../../src/iceberg/index.ts';
import { currentSchema } from '../../src/iceberg/spec/table-metadata.ts';
import { mapColumnsToIds, nameMappingOf, NAME_MAPPING_PROPERTY } from '../../src/iceberg/spec/name-mapping.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

/** a Parquet file whose schema has no PARQUET:field_id at all */
function writeNoIdParquet(path: string, columns: Record<string, BigInt64Array | string[] | Int32Array>): { path: string; fileSizeInBytes: number; recordCount: number } {
  const table = tableFromArrays(columns as unknown as Record<string, Int32Array>); // strings and bigints too, at run time
  const bytes = writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream')));
  writeFileSync(path, bytes);
  return { path, fileSizeInBytes: statSync(path).size, recordCount: table.numRows };
}

describe('name mapping for Parquet files without field ids', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-namemap-'));
  let server: LakegateServer;
  let client: pg.Client;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    await client.query('CREATE TABLE lake.mapped (id int8, name text, score int4)');
    await client.query('CREATE TABLE lake.positional (id int8, name text)');
    await client.query(`INSERT INTO lake.mapped VALUES (100, 'written by lakegate', 7)`);
    await client.end();
    await server.close();

    // register id-less files into both tables, as add_files would, and set the mapping on one
    const catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
    const fileIO = new FileIO({ pathMap: [] });
    const io = writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO);
    try {
      const imported = join(warehouse, 'imported');
      mkdirSync(imported, { recursive: true });
      const register = async (name: string, file: ReturnType<typeof writeNoIdParquet>): Promise<void> => {
        const id = { namespace: ['lake'], name };
        const md = await loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
        await appendDataFiles(catalog, io, id, currentSchema(md), [{ ...file, metrics: [] }]);
      };
      await register('mapped', writeNoIdParquet(join(imported, 'mapped.parquet'), {
        extra: ['x', 'y', 'z'], record_id: BigInt64Array.from([1n, 2n, 3n]), label: ['one', 'two', 'three'],
      }));
      await updateTableMetadata(catalog, io, { namespace: ['lake'], name: 'mapped' }, setProperty(NAME_MAPPING_PROPERTY, JSON.stringify([
        { 'field-id': 1, names: ['id', 'record_id'] },
        { 'field-id': 2, names: ['name', 'label'] },
        { 'field-id': 3, names: ['score'] },
        { names: ['extra'] },
      ])));
      await register('positional', writeNoIdParquet(join(imported, 'positional.parquet'), {
        a: BigInt64Array.from([10n, 20n]), b: ['ten', 'twenty'],
      }));
    } finally {
      await catalog.close();
    }

    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('resolves columns through schema.name-mapping.default (aliases; unmapped ignored; missing → NULL)', async () => {
    expect(await rows('SELECT id, name, score FROM lake.mapped ORDER BY id')).toEqual([
      ['1', 'one', 'NULL'], ['2', 'two', 'NULL'], ['3', 'three', 'NULL'], ['100', 'written by lakegate', '7'],
    ]);
    expect(await rows('SELECT name FROM lake.mapped WHERE id = 2')).toEqual([['two']]);
    expect(await rows('SELECT count(*), sum(id) FROM lake.mapped')).toEqual([['4', '106']]);
  });

  it('without a mapping, ids go by position as in Iceberg Java', async () => {
    expect(await rows('SELECT id, name FROM lake.positional ORDER BY id')).toEqual([['10', 'ten'], ['20', 'twenty']]);
  });

  it('mapping rules: literal dotted names, first alias wins, malformed property is XX001', () => {
    const m = nameMappingOf({ [NAME_MAPPING_PROPERTY]: '[{"field-id": 1, "names": ["a.b", "x"]}, {"field-id": 2, "names": ["y"]}, {"names": ["z"]}]' });
    expect(mapColumnsToIds(m, ['z', 'x', 'a.b', 'y'])).toEqual(new Map([[1, 'x'], [2, 'y']]));
    expect(mapColumnsToIds(null, ['p', 'q'])).toEqual(new Map([[1, 'p'], [2, 'q']]));
    expect(nameMappingOf({})).toBeNull();
    expect(() => nameMappingOf({ [NAME_MAPPING_PROPERTY]: '{"names": 1}' })).toThrow(expect.objectContaining({ code: 'XX001' }));
    expect(() => nameMappingOf({ [NAME_MAPPING_PROPERTY]: '[{"names": "a"}]' })).toThrow(expect.objectContaining({ code: 'XX001' }));
  });
});
