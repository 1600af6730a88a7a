/**
 * Shared by the v3 tests (v3-types, v3-row-lineage, v3-variant-*): a lakegate session over a temp warehouse
 * that can be stopped while files are added by hand; hand-built Parquet files as another engine writes them
 * (built with apache-arrow, written with parquet-wasm): a variant column — a group of binary `metadata` /
 * `value`, optionally shredded with a `typed_value` — and stored row lineage columns; registering them into a
 * lakegate table with appendDataFiles (as add_files would); schema edits made as another engine would.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  Binary, DateDay, Decimal, Field, Float32, Int32, Int64, makeData, RecordBatch, Schema, Struct, Table, TimeUnit, Timestamp, Utf8,
  tableToIPC, type Data, type DataType,
} from 'apache-arrow';
import { Table as WasmTable, writeParquet } from 'parquet-wasm';
import { openSqlCatalog } from '../../src/catalog/iceberg/index.ts';
import { FileIO } from '../../src/storage/index.ts';
import { appendDataFiles, icebergIOFromFileIO, loadTableMetadata, updateTableMetadata, writableIcebergIO } from '../../src/iceberg/index.ts';
import { currentSchema } from '../../src/iceberg/spec/table-metadata.ts';
import { parseJsonb } from '../../src/common/pgtypes/json-text.ts';
import { encodeVariant } from '../../src/iceberg/variant/variant-encode.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

/** every value as the server's text */
const passthrough = { getTypeParser: () => (v: string) => v };

/** a lakegate server over a temp warehouse and one client; stop() / start() around hand-made changes */
export class V3Session {
  readonly warehouse: string;
  private server: LakegateServer | undefined;
  private client: pg.Client | undefined;

  constructor(prefix: string) {
    this.warehouse = mkdtempSync(join(tmpdir(), `lakegate-${prefix}-`));
  }

  get c(): pg.Client {
    if (this.client === undefined) throw new Error('V3Session not started');
    return this.client;
  }

  async start(): Promise<void> {
    this.server = await startLakegate({ config: { warehouse: this.warehouse } });
    this.client = new pg.Client({ connectionString: this.server.url, types: passthrough as never });
    await this.client.connect();
  }

  async stop(): Promise<void> {
    await this.client?.end();
    await this.server?.close();
    this.client = undefined;
    this.server = undefined;
  }

  /** stops and removes the warehouse */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.warehouse, { recursive: true, force: true });
  }

  /** rows as text, NULL as 'NULL' */
  async rows(sql: string): Promise<string[][]> {
    return ((await this.c.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
  }
}

export const ID = (n: number): Map<string, string> => new Map([['PARQUET:field_id', String(n)]]);

/** a Parquet file of the given top-level columns (Arrow fields carrying their field ids) */
export function parquetOf(columns: readonly { readonly field: Field; readonly data: Data }[]): Uint8Array {
  const schema = new Schema(columns.map((c) => c.field));
  const n = columns[0]?.data.length ?? 0;
  const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: columns.map((c) => c.data) }));
  return writeParquet(WasmTable.fromIPCStream(tableToIPC(new Table(schema, [batch]), 'stream')));
}

/** an int column (no nulls) */
export function int32Column(values: readonly number[]): Data {
  return makeData({ type: new Int32(), length: values.length, nullCount: 0, data: Int32Array.from(values) });
}

/** a long column, null where the array has null */
export function int64Column(values: readonly (bigint | null)[]): Data {
  const nulls = values.filter((x) => x === null).length;
  return makeData({
    type: new Int64(), length: values.length, nullCount: nulls, ...(nulls > 0 ? { nullBitmap: bitmap(values.map((x) => x !== null)) } : {}),
    data: BigInt64Array.from(values.map((x) => x ?? 0n)),
  });
}

/** `id` int (field 1) plus stored lineage columns `_row_id` / `_last_updated_sequence_number` (reserved ids) */
export function lineageParquet(ids: readonly number[], rowIds: readonly (bigint | null)[], seqs: readonly (bigint | null)[]): Uint8Array {
  return parquetOf([
    { field: new Field('id', new Int32(), true, ID(1)), data: int32Column(ids) },
    { field: new Field('_row_id', new Int64(), true, ID(2147483540)), data: int64Column(rowIds) },
    { field: new Field('_last_updated_sequence_number', new Int64(), true, ID(2147483539)), data: int64Column(seqs) },
  ]);
}

export function binary(values: readonly (Uint8Array | null)[]): Data {
  return binaryLike(new Binary(), values);
}

function binaryLike(type: Binary | Utf8, values: readonly (Uint8Array | null)[]): Data {
  const offs = new Int32Array(values.length + 1);
  let n = 0;
  values.forEach((v, i) => { n += v?.length ?? 0; offs[i + 1] = n; });
  const data = new Uint8Array(n);
  values.forEach((v, i) => { if (v) data.set(v, offs[i]!); });
  const nulls = values.filter((v) => v === null).length;
  return makeData({ type, length: values.length, nullCount: nulls, ...(nulls > 0 ? { nullBitmap: bitmap(values.map((v) => v !== null)) } : {}), valueOffsets: offs, data } as never);
}

export function bitmap(valid: readonly boolean[]): Uint8Array {
  const b = new Uint8Array((valid.length + 7) >> 3);
  valid.forEach((v, i) => { if (v) b[i >> 3]! |= 1 << (i & 7); });
  return b;
}

/** one row of a variant file: its id, and either a group (value text / raw bytes / typed value) or NULL */
export interface VariantRow {
  readonly id: number;
  readonly json?: string;
  readonly rawValue?: Uint8Array;
  readonly typed?: unknown;
  readonly isNull?: boolean;
}

/** a typed_value column: the Arrow type and how to build its Data from the rows' `typed` (undefined → null) */
export interface TypedColumn {
  readonly type: DataType;
  build(values: readonly unknown[]): Data;
}

function primitiveColumn<T extends DataType>(type: T, array: (n: number) => { [i: number]: unknown; length: number }, stride = 1): TypedColumn {
  return {
    type,
    build(values) {
      const data = array(values.length * stride);
      values.forEach((v, i) => {
        if (v === undefined) return;
        if (stride === 1) data[i] = v;
        else (v as number[]).forEach((w, k) => { data[i * stride + k] = w; });
      });
      const nulls = values.filter((v) => v === undefined).length;
      return makeData({ type, length: values.length, nullCount: nulls, ...(nulls > 0 ? { nullBitmap: bitmap(values.map((v) => v !== undefined)) } : {}), data } as never);
    },
  };
}

export const TYPED = {
  utf8: {
    type: new Utf8(),
    build(values: readonly unknown[]): Data {
      const bytes = values.map((v) => (v === undefined ? null : new TextEncoder().encode(v as string)));
      return binaryLike(new Utf8(), bytes);
    },
  } as TypedColumn,
  int64: primitiveColumn(new Int64(), (n) => new BigInt64Array(n)),
  int32: primitiveColumn(new Int32(), (n) => new Int32Array(n)),
  date: primitiveColumn(new DateDay(), (n) => new Int32Array(n)),
  float32: primitiveColumn(new Float32(), (n) => new Float32Array(n)),
  timestamptz: primitiveColumn(new Timestamp(TimeUnit.MICROSECOND, 'UTC'), (n) => new BigInt64Array(n)),
  /** decimal(5, 3): typed values are little-endian 32-bit words of the unscaled int128 */
  decimal53: primitiveColumn(new Decimal(3, 5, 128), (n) => new Uint32Array(n), 4),
};

/** a Parquet file: `id` int (field 1), `v` variant (field 2), optionally shredded with `typed` (or a raw typed_value Data) */
export function variantParquet(rows: readonly VariantRow[], typed?: TypedColumn | { readonly type: DataType; readonly data: Data }): Uint8Array {
  const n = rows.length;
  const encoded = rows.map((r) => (r.json === undefined ? null : encodeVariant(parseJsonb(r.json))));
  const empty = new Uint8Array(0);
  const metadata = binary(rows.map((r, i) => encoded[i]?.metadata ?? (r.isNull ? empty : Uint8Array.of(1, 0, 0))));
  const value = binary(rows.map((r, i) => encoded[i]?.value ?? r.rawValue ?? null));
  const fields: Field[] = [new Field('metadata', new Binary(), false), new Field('value', new Binary(), true)];
  const children = [metadata, value];
  if (typed !== undefined) {
    fields.push(new Field('typed_value', typed.type, true));
    children.push('build' in typed ? typed.build(rows.map((r) => r.typed)) : typed.data);
  }
  const vType = new Struct(fields);
  const nulls = rows.filter((r) => r.isNull).length;
  const v = makeData({ type: vType, length: n, nullCount: nulls, ...(nulls > 0 ? { nullBitmap: bitmap(rows.map((r) => !r.isNull)) } : {}), children });
  return parquetOf([
    { field: new Field('id', new Int32(), true, ID(1)), data: int32Column(rows.map((r) => r.id)) },
    { field: new Field('v', vType, true, ID(2)), data: v },
  ]);
}

/** writes each file under `<warehouse>/imported/<table>/` and appends them to lake.<table>; returns their paths */
export async function registerFiles(warehouse: string, table: string, files: readonly { bytes: Uint8Array; rows: number }[]): Promise<string[]> {
  const dir = join(warehouse, 'imported', table);
  mkdirSync(dir, { recursive: true });
  const infos = files.map((f, i) => {
    const path = join(dir, `part-${i}.parquet`);
    writeFileSync(path, f.bytes);
    return { path, fileSizeInBytes: statSync(path).size, recordCount: f.rows, metrics: [] };
  });
  await withCatalog(warehouse, async (catalog, io) => {
    const id = { namespace: ['lake'], name: table };
    const md = await loadTableMetadata(io, (await catalog.loadTableLocation(id)).metadataLocation);
    await appendDataFiles(catalog, io, id, currentSchema(md), infos);
  });
  return infos.map((f) => f.path);
}

/** adds an optional `unknown` column to lake.<table>'s schema, as another engine's schema evolution would */
export async function addUnknownColumn(warehouse: string, table: string, name: string): Promise<void> {
  await withCatalog(warehouse, async (catalog, io) => {
    await updateTableMetadata(catalog, io, { namespace: ['lake'], name: table }, (doc) => {
      const schemas = doc['schemas'] as { 'schema-id': number; fields: unknown[] }[];
      const current = schemas.find((s) => s['schema-id'] === doc['current-schema-id'])!;
      const id = Number(doc['last-column-id']) + 1;
      const schemaId = Math.max(...schemas.map((s) => s['schema-id'])) + 1;
      const next = { ...current, 'schema-id': schemaId, fields: [...current.fields, { id, name, required: false, type: 'unknown' }] };
      return { ...doc, schemas: [...schemas, next], 'current-schema-id': schemaId, 'last-column-id': id };
    });
  });
}

type Catalog = Awaited<ReturnType<typeof openSqlCatalog>>;

async function withCatalog(warehouse: string, f: (catalog: Catalog, io: ReturnType<typeof writableIcebergIO>) => Promise<void>): Promise<void> {
  const catalog = await openSqlCatalog({ catalogName: 'lakegate', warehouse });
  const fileIO = new FileIO({ pathMap: [] });
  try {
    await f(catalog, writableIcebergIO(icebergIOFromFileIO(fileIO), fileIO));
  } finally {
    await catalog.close();
  }
}
