/**
 * Parquet files with many small data pages, for page-index tests: parquet-wasm with dictionary encoding off
 * and a tiny data page size limit, so a page closes once its values reach `pageBytes` (an int32 column of
 * pageBytes 400 has pages of 100 rows; nulls add almost nothing). Columns carry Parquet field ids 1, 2, ….
 */
import { Field, Schema, Table, makeData, RecordBatch, Struct, tableToIPC, vectorFromArray, type DataType } from 'apache-arrow';
import { Table as WasmTable, WriterPropertiesBuilder, writeParquet } from 'parquet-wasm';

export interface PagedColumn {
  readonly name: string;
  readonly type: DataType;
  readonly values: readonly unknown[];
}

/** one file of `columns` (all of the same length), row groups of `rowGroupRows` rows, pages of about `pageBytes` */
export function pagedParquet(columns: readonly PagedColumn[], options: { rowGroupRows: number; pageBytes: number }): Uint8Array {
  const fields = columns.map((c, i) => new Field(c.name, c.type, true, new Map([['PARQUET:field_id', String(i + 1)]])));
  const length = columns[0]?.values.length ?? 0;
  const children = columns.map((c) => vectorFromArray(c.values as unknown[], c.type).data[0]!);
  const batch = new RecordBatch(new Schema(fields), makeData({ type: new Struct(fields), length, nullCount: 0, children }));
  const ipc = tableToIPC(new Table([batch]), 'stream');
  const props = new WriterPropertiesBuilder()
    .setDictionaryEnabled(false)
    .setMaxRowGroupSize(options.rowGroupRows)
    .setDataPageSizeLimit(options.pageBytes)
    .build();
  return writeParquet(WasmTable.fromIPCStream(ipc), props);
}
