/**
 * One row group's columns decoded by parquet-wasm into an arrow-js Table (copied out of WASM memory through
 * an IPC stream, which frees the WASM table), with each Arrow column's index by Iceberg field id — from its
 * Parquet `field_id`, else from the name the reader mapped (name mapping / position) in `idByName`.
 */
import type { ParquetFile } from 'parquet-wasm';
import { tableFromIPC, type Table } from 'apache-arrow';
import { fieldIdOf } from './arrow-values.ts';
import { fileReadError, type GuardedReads } from '../read-errors.ts';
import { trapWasmPanics } from './wasm-panic-trap.ts';

/** rows per Arrow record batch (and so per chunk the readers yield) */
export const ROWS_PER_BATCH = 8192;

export interface DecodedRowGroup {
  readonly table: Table;
  /** field id → index of its column in `table` (and in each batch's children) */
  readonly colIndex: ReadonlyMap<number, number>;
}

export async function decodeRowGroup(
  file: ParquetFile,
  rg: number,
  names: readonly string[],
  idByName: ReadonlyMap<string, number>,
  uri: string,
  guard: GuardedReads | null,
): Promise<DecodedRowGroup> {
  let wasmTable;
  try {
    wasmTable = await trapWasmPanics(() => file.read({ rowGroups: [rg], columns: [...names], batchSize: ROWS_PER_BATCH }));
  } catch (e) {
    throw (guard ?? { error: fileReadError }).error('Parquet', uri, new Error(`row group ${rg}: ${String(e)}`, { cause: e }));
  }
  const table = tableFromIPC(wasmTable.intoIPCStream()); // intoIPCStream consumes and frees the WASM table
  const colIndex = new Map<number, number>();
  table.schema.fields.forEach((f, i) => {
    const id = fieldIdOf(f) ?? idByName.get(f.name) ?? null;
    if (id !== null) colIndex.set(id, i);
  });
  return { table, colIndex };
}
