/**
 * One row group's columns decoded by parquet-wasm into arrow-js data (copied out of WASM memory through an
 * IPC stream, which frees the WASM table), with each column's index by Iceberg field id — from the name the
 * reader resolved (Parquet `field_id`, name mapping or position) in `idByName`. Two decoders: the async
 * ranged reader of a ParquetFile (big files: only the projected column chunks are fetched) and the sync
 * reader over a whole file in memory (small files, parquet-source.ts: no promise per range, no footer
 * parse through the async reader's futures).
 */
import { readParquet, type ParquetFile, type Table as WasmTable } from 'parquet-wasm';
import { tableFromIPC, type Data, type Table } from 'apache-arrow';
import { fileReadError, type GuardedReads } from '../read-errors.ts';
import { trapWasmPanics } from './wasm-panic-trap.ts';

/** rows per Arrow record batch (and so per chunk the readers yield) */
export const ROWS_PER_BATCH = 8192;

export interface DecodedBatch {
  readonly length: number;
  /** one Arrow column per decoded column, indexed by `colIndex` */
  readonly columns: readonly Data[];
}

export interface DecodedRowGroup {
  readonly batches: readonly DecodedBatch[];
  /** field id → index of its column in each batch's `columns` */
  readonly colIndex: ReadonlyMap<number, number>;
}

/** A decoded table as arrow-js batches, its columns by name, and the size of the IPC buffer they live in. */
export interface DecodedTable {
  readonly batchLengths: readonly number[];
  readonly byName: ReadonlyMap<string, readonly Data[]>;
  readonly ipcBytes: number;
}

function fromWasm(wasmTable: WasmTable): DecodedTable {
  const ipc = wasmTable.intoIPCStream(); // consumes and frees the WASM table
  const table: Table = tableFromIPC(ipc);
  const byName = new Map<string, Data[]>();
  table.schema.fields.forEach((f, i) => byName.set(f.name, table.batches.map((b) => b.data.children[i]!)));
  return { batchLengths: table.batches.map((b) => b.numRows), byName, ipcBytes: ipc.byteLength };
}

/** The row group of `names` (resolved to field ids by `idByName`) from decoded tables' columns. */
export function assembleRowGroup(batchLengths: readonly number[], names: readonly string[], columnOf: (name: string) => readonly Data[], idByName: ReadonlyMap<string, number>): DecodedRowGroup {
  const colIndex = new Map<number, number>();
  const cols = names.map((n, i) => {
    const id = idByName.get(n);
    if (id !== undefined) colIndex.set(id, i);
    return columnOf(n);
  });
  const batches = batchLengths.map((length, b) => ({ length, columns: cols.map((c) => c[b]!) }));
  return { batches, colIndex };
}

/** Async ranged decode of one row group of an open ParquetFile. */
export async function decodeRowGroupAsync(file: ParquetFile, rg: number, names: readonly string[], uri: string, guard: GuardedReads | null): Promise<DecodedTable> {
  let wasmTable;
  try {
    wasmTable = await trapWasmPanics(() => file.read({ rowGroups: [rg], columns: [...names], batchSize: ROWS_PER_BATCH }));
  } catch (e) {
    throw (guard ?? { error: fileReadError }).error('Parquet', uri, new Error(`row group ${rg}: ${String(e)}`, { cause: e }));
  }
  return fromWasm(wasmTable);
}

/** Sync decode of one row group of a whole file in memory. */
export function decodeRowGroupSync(bytes: Uint8Array, rg: number, names: readonly string[], uri: string): DecodedTable {
  let wasmTable;
  try {
    wasmTable = readParquet(bytes, { rowGroups: [rg], columns: [...names], batchSize: ROWS_PER_BATCH });
  } catch (e) {
    throw fileReadError('Parquet', uri, new Error(`row group ${rg}: ${String(e)}`, { cause: e }));
  }
  return fromWasm(wasmTable);
}
