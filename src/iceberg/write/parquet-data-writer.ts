/**
 * ParquetDataWriter: lakegate Batches → Parquet data files (ZSTD) with Iceberg field ids, rolled at a
 * target size, each described as a DataFileInfo (path, size, record count, per-field metrics) for the
 * manifest. Field ids go into Arrow field metadata `PARQUET:field_id`, which arrow-rs (parquet-wasm)
 * writes as the Parquet schema `field_id`. Required fields are written non-nullable; a NULL in one is
 * 23502 before any file is written for that batch. The size check uses the Arrow buffers (uncompressed),
 * so files come out smaller than the target once compressed.
 */
import { randomUUID } from 'node:crypto';
import { Field, RecordBatch, Schema as ArrowSchema, Struct, Table, makeData, tableToIPC, type Data } from 'apache-arrow';
import { Compression, Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';
import type { Batch } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { NestedField, PrimitiveType, Schema } from '../spec/schema.ts';
import { FIELD_ID_KEY } from '../read/arrow-values.ts';
import { arrowColumn, arrowTypeOf, dataBytes } from './arrow-column.ts';
import { ColumnMetrics } from './column-metrics.ts';
import type { IcebergWriteIO } from './write-io.ts';

export const DEFAULT_TARGET_FILE_SIZE = 128 * 1024 * 1024;

export interface DataFileInfo {
  readonly path: string;
  readonly fileSizeInBytes: number;
  readonly recordCount: number;
  readonly metrics: readonly ColumnMetrics[];
}

export interface ParquetDataWriterOptions {
  /** roll to a new file when the buffered Arrow data reaches this many bytes */
  readonly targetFileSizeBytes?: number;
  /** table name for error messages (23502) */
  readonly relationName?: string;
}

function primitiveOf(f: NestedField): PrimitiveType {
  if (f.type.kind !== 'primitive') throw pgError(SqlState.feature_not_supported, `writing nested Iceberg column "${f.name}" is not supported`);
  return f.type;
}

export class ParquetDataWriter {
  readonly files: DataFileInfo[] = [];
  private readonly fields: readonly NestedField[];
  private readonly arrowSchema: ArrowSchema;
  private pending: RecordBatch[] = [];
  private pendingMetrics: ColumnMetrics[];
  private pendingBytes = 0;
  private pendingRows = 0;
  private readonly target: number;

  constructor(
    private readonly io: IcebergWriteIO,
    private readonly dataLocation: string,
    schema: Schema,
    private readonly options: ParquetDataWriterOptions = {},
  ) {
    this.fields = schema.fields;
    this.arrowSchema = new ArrowSchema(this.fields.map((f) => new Field(f.name, arrowTypeOf(primitiveOf(f)), !f.required, new Map([[FIELD_ID_KEY, String(f.id)]]))));
    this.pendingMetrics = this.newMetrics();
    this.target = options.targetFileSizeBytes ?? DEFAULT_TARGET_FILE_SIZE;
  }

  private newMetrics(): ColumnMetrics[] {
    return this.fields.map((f) => new ColumnMetrics(f.id, primitiveOf(f)));
  }

  /** converts one batch (columns in schema order) and writes a file when the target size is reached */
  async add(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    this.checkRequired(batch);
    const children: Data[] = this.fields.map((f, c) => arrowColumn(batch.columns[c] ?? [], batch.length, primitiveOf(f), this.pendingMetrics[c]!));
    const struct = makeData({ type: new Struct(this.arrowSchema.fields), length: batch.length, nullCount: 0, children });
    this.pending.push(new RecordBatch(this.arrowSchema, struct));
    this.pendingBytes += children.reduce((s, d) => s + dataBytes(d), 0);
    this.pendingRows += batch.length;
    if (this.pendingBytes >= this.target) await this.flush();
  }

  private checkRequired(batch: Batch): void {
    this.fields.forEach((f, c) => {
      if (!f.required) return;
      const col = batch.columns[c] ?? [];
      for (let i = 0; i < batch.length; i++) {
        if (col[i] === null || col[i] === undefined) {
          const rel = this.options.relationName ?? '';
          throw pgError(SqlState.not_null_violation, `null value in column "${f.name}" of relation "${rel}" violates not-null constraint`, { table: rel, column: f.name });
        }
      }
    });
  }

  /** writes the buffered rows as one Parquet file */
  async flush(): Promise<void> {
    if (this.pendingRows === 0) return;
    const ipc = tableToIPC(new Table(this.arrowSchema, this.pending), 'stream');
    this.pending = [];
    const props = new WriterPropertiesBuilder().setCompression(Compression.ZSTD).build();
    const bytes = writeParquet(WasmTable.fromIPCStream(ipc), props);
    const path = `${this.dataLocation}/${randomUUID()}-${String(this.files.length).padStart(5, '0')}.parquet`;
    await this.io.write(path, bytes);
    this.files.push({ path, fileSizeInBytes: bytes.byteLength, recordCount: this.pendingRows, metrics: this.pendingMetrics });
    this.pendingMetrics = this.newMetrics();
    this.pendingBytes = 0;
    this.pendingRows = 0;
  }

  /** flushes and returns every file written */
  async close(): Promise<DataFileInfo[]> {
    await this.flush();
    return this.files;
  }
}
