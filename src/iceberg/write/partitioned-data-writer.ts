/**
 * PartitionedDataWriter: splits each batch by partition tuple (the table's default spec applied to every
 * row) and keeps one rolling ParquetDataWriter per partition under `<data>/<partition path>/`
 * (`ts_day=2024-01-02/id_bucket=3`), as Iceberg Java's fanout writer does. Each file it returns carries its
 * partition tuple (values in the JS representation of the fields' result types) for the manifest.
 */
import type { Batch } from '../../common/batch.ts';
import type { Schema } from '../spec/schema.ts';
import { partitionKey, partitionPath, type BoundPartitionField } from '../transforms/partition-path.ts';
import { ParquetDataWriter, type DataFileInfo, type ParquetDataWriterOptions } from './parquet-data-writer.ts';
import type { IcebergWriteIO } from './write-io.ts';
import { isTypedBatch, materializeColumn } from './typed-columns.ts';

export interface PartitionedFileInfo extends DataFileInfo {
  /** one value per partition field of the spec, in spec order */
  readonly partition: readonly unknown[];
}

interface Open {
  readonly tuple: readonly unknown[];
  readonly writer: ParquetDataWriter;
}

export class PartitionedDataWriter {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly io: IcebergWriteIO,
    private readonly dataLocation: string,
    private readonly schema: Schema,
    private readonly fields: readonly BoundPartitionField[],
    private readonly options: ParquetDataWriterOptions = {},
  ) {}

  async add(batch: Batch): Promise<void> {
    if (batch.length === 0) return;
    const groups = new Map<string, { tuple: unknown[]; rows: number[] }>();
    // a typed batch (COPY) materializes only the source columns here; it goes on typed when it is one partition
    const source = new Map<number, readonly unknown[]>();
    for (const f of this.fields) {
      if (source.has(f.sourcePos)) continue;
      const tc = isTypedBatch(batch) ? batch.typed[f.sourcePos] : undefined;
      source.set(f.sourcePos, tc !== undefined ? materializeColumn(tc) : batch.columns[f.sourcePos] ?? []);
    }
    for (let r = 0; r < batch.length; r++) {
      const tuple = this.fields.map((f) => f.transform.apply(source.get(f.sourcePos)![r] ?? null));
      const key = partitionKey(this.fields, tuple);
      let g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { tuple, rows: [] }));
      g.rows.push(r);
    }
    for (const [key, g] of groups) {
      let o = this.open.get(key);
      if (o === undefined) {
        const dir = `${this.dataLocation}/${partitionPath(this.fields, g.tuple)}`;
        o = { tuple: g.tuple, writer: new ParquetDataWriter(this.io, dir, this.schema, this.options) };
        this.open.set(key, o);
      }
      const sub: Batch = groups.size === 1
        ? batch
        : { length: g.rows.length, columns: batch.columns.map((col) => g.rows.map((r) => col[r])) };
      await o.writer.add(sub);
    }
  }

  /** flushes every partition and returns all files written, each with its partition tuple */
  async close(): Promise<PartitionedFileInfo[]> {
    const out: PartitionedFileInfo[] = [];
    for (const o of this.open.values()) {
      for (const f of await o.writer.close()) out.push({ ...f, partition: o.tuple });
    }
    return out;
  }
}
