/**
 * Parquet → columnar JS values, columns resolved by Parquet `field_id` (Iceberg § Column Projection).
 * parquet-wasm reads the footer first (ParquetFile.metadata), then one row group at a time with only the
 * top-level columns whose ids are requested. A requested id absent from the file (added later by schema
 * evolution) yields `missingValue` for every row: null, an identity-partition value or initial-default.
 *
 * Memory: given a size (the manifest's file_size_in_bytes), the file is never loaded whole: parquet-wasm
 * reads the footer and then only the projected column chunks of one row group through IcebergIO.readRange
 * (range-blob.ts). Decoded Arrow data lives in WASM memory for one row group and is freed (intoIPCStream
 * consumes it) before the next. Peak ≈ projected compressed chunks + one decoded row group (Arrow IPC copy
 * + its JS values). Bytes input (no size known) keeps the whole file in memory once. Small files go through
 * the decoded-column cache instead (parquet-source.ts, file-cache.ts).
 *
 * With a late-materialization filter, the Parquet page index of the filter's columns (page-index-pruner.ts)
 * skips row groups no page can match and tells late materialization which row ranges to evaluate.
 */
import { ROWS_PER_BATCH } from './row-group-decode.ts';
import { columnChunk } from './column-chunk.ts';
import { decodeSpan, readRowGroupLate, type ChunkFilter, type LateMetrics, type LateRowGroupRead } from './late-materialization.ts';
import { intersectRanges, type RowRanges } from './page-row-ranges.ts';
import { pgError } from '../../common/errors.ts';
import type { IcebergType } from '../spec/schema.ts';
import { arrowDataToValues } from './arrow-values.ts';
import { mapColumnsToIds, type NameMapping } from '../spec/name-mapping.ts';
import { footerCachedIO } from './parquet-footer.ts';
import { openParquetSource, type CacheMetrics, type ParquetInput, type ParquetSource } from './parquet-source.ts';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import { PageIndexPruner, type PageMetrics } from './page-index-pruner.ts';
import type { IcebergIO } from '../io.ts';

/** IcebergIO over a file given whole (page-index reads of bytes input) */
const bytesIO = (bytes: Uint8Array): IcebergIO => ({
  read: () => Promise.resolve(bytes),
  readRange: (_uri, offset, length) => Promise.resolve(bytes.slice(offset, offset + length)),
});

export { openParquet, type ParquetInput } from './parquet-source.ts';

export interface ParquetColumnRequest {
  readonly fieldId: number;
  readonly type: IcebergType;
  /** value for every row when the file has no column with this id */
  readonly missingValue: unknown;
}

export interface ColumnChunk {
  /** row position of the first row of this chunk within the file (for position deletes) */
  readonly firstRowPosition: number;
  /** late materialization: the file row position of each row (rows are then not contiguous) */
  readonly positions?: readonly number[];
  readonly length: number;
  readonly columns: unknown[][];
}

export interface ParquetReadOptions {
  /** read only these row groups (row positions of the others are still counted, for position deletes) */
  readonly rowGroups?: readonly number[];
  /**
   * file row positions [from, to): only row groups overlapping them are read, and within a row group cut by them
   * only the batches (and, page-selective, the pages) overlapping them — whole batches, so a chunk may hold rows
   * past either end (readFileScanTask drops them; row-group-splits.ts cuts at batch boundaries, so it has none)
   */
  readonly rowRange?: readonly [number, number];
  /** row groups total/scanned, bytes read by range (footer tail cache hits excluded), rows decoded */
  readonly metrics?: Pick<ScanMetrics, 'rowGroupsTotal' | 'rowGroupsScanned' | 'bytesRead' | 'rowsDecoded'> & LateMetrics & CacheMetrics & PageMetrics;
  /**
   * late materialization (late-materialization.ts): decode the filter's columns first and the others only
   * for row groups with rows that may match; chunks then hold only those rows (with `positions`)
   */
  readonly filter?: ChunkFilter;
  /** the table's `schema.name-mapping.default`, for files without field ids (spec/name-mapping.ts); none: ids by position */
  readonly nameMapping?: NameMapping | null;
}

/**
 * ParquetReadOptions in one fixed shape: every field present (undefined when absent), in one order. A scan
 * task's options built by optional spreads came in up to 32 shapes (task row groups / row range / metrics / name
 * mapping / filter): each new one a "wrong map" deopt of readParquetColumns at its first read of `options` in
 * the scan workers' steady state (session 25, TPC-H q6 / q15 / q14).
 */
export function parquetReadOptions(
  rowGroups: readonly number[] | undefined,
  rowRange: readonly [number, number] | undefined,
  metrics: ParquetReadOptions['metrics'],
  nameMapping: NameMapping | null | undefined,
  filter: ChunkFilter | undefined,
): ParquetReadOptions {
  return { rowGroups, rowRange, metrics, filter, nameMapping };
}

/** the rows of a row group of `rows` rows at file position `position` that `range` keeps, or undefined when it keeps all */
function spanOf(range: readonly [number, number] | undefined, position: number, rows: number): readonly [number, number] | undefined {
  if (range === undefined || (range[0] <= position && position + rows <= range[1])) return undefined;
  return [Math.max(0, range[0] - position), Math.min(rows, range[1] - position)];
}

export async function* readParquetColumns(
  rawInput: ParquetInput,
  uri: string,
  columns: readonly ParquetColumnRequest[],
  options: ParquetReadOptions = {},
): AsyncGenerator<ColumnChunk> {
  const metrics = options.metrics;
  const input: ParquetInput = rawInput instanceof Uint8Array ? rawInput
    : { io: footerCachedIO(rawInput.io, rawInput.size, metrics && ((n) => { metrics.bytesRead += n; })), size: rawInput.size };
  const selected = options.rowGroups === undefined ? null : new Set(options.rowGroups);
  // before the source opens: the footer it reads is then cached, and parquet-wasm's footer reads hit it
  const predicate = options.filter?.predicate;
  const pages = predicate === undefined ? null
    : input instanceof Uint8Array ? await PageIndexPruner.open(bytesIO(input), uri, input.byteLength, predicate)
    : await PageIndexPruner.open(input.io, uri, input.size, predicate);
  const source = await openParquetSource(input, uri, metrics);
  try {
    const { fields, rowGroupRows } = source;
    const nameById = new Map<number, string>();
    for (const f of fields) if (f.fieldId !== null) nameById.set(f.fieldId, f.name);
    if (fields.length > 0 && nameById.size === 0) {
      // a file written without ids (imported): ids from the table's name mapping, else by position as Java does
      for (const [id, name] of mapColumnsToIds(options.nameMapping ?? null, fields.map((f) => f.name))) nameById.set(id, name);
    }
    const idByName = new Map([...nameById].map(([id, name]) => [name, id] as const));
    const present = columns.filter((c) => nameById.has(c.fieldId));
    const names = [...new Set(present.map((c) => nameById.get(c.fieldId)!))];
    let position = 0;
    if (metrics) metrics.rowGroupsTotal += rowGroupRows.length;
    const range = options.rowRange;
    for (let rg = 0; rg < rowGroupRows.length; rg++) {
      const rows = rowGroupRows[rg]!;
      if ((selected !== null && !selected.has(rg)) || (range !== undefined && (position + rows <= range[0] || position >= range[1]))) {
        position += rows;
        continue;
      }
      const span = spanOf(range, position, rows);
      // a piece of a row group cut across workers: the row group's counters are the piece at its start's
      const counted = span === undefined || span[0] === 0;
      // the page index: no page of the filter columns can match (skipped), or the row ranges that may
      const pageRanges = pages === null ? null : await pages.select(rg, rows, counted ? metrics : undefined);
      if (pageRanges !== null && pageRanges.length === 0) {
        position += rows;
        continue;
      }
      if (metrics && counted) metrics.rowGroupsScanned++;
      const rowRanges = span === undefined ? pageRanges : intersectRanges(pageRanges ?? [[0, rows]], [span]);
      if (rowRanges !== null && rowRanges.length === 0) {
        position += rows; // this piece's rows: none can match
        continue;
      }
      if (metrics) metrics.rowsDecoded += span === undefined ? rows : span[1] - span[0];
      if (options.filter !== undefined) {
        yield* readRowGroupLate(lateRowGroupRead(source, rg, rows, position, columns, nameById, idByName, options.filter, uri, metrics, rowRanges, span));
        position += rows;
        continue;
      }
      if (names.length === 0) {
        // nothing to decode (count(*) or only missing columns): emit constant chunks
        const end = span === undefined ? rows : span[1];
        for (let off = span === undefined ? 0 : span[0]; off < end; off += ROWS_PER_BATCH) {
          const length = Math.min(ROWS_PER_BATCH, end - off);
          yield columnChunk(position + off, undefined, length, columns.map((c) => new Array<unknown>(length).fill(c.missingValue)));
        }
        position += rows;
        continue;
      }
      const { batches, colIndex } = span === undefined ? await source.decode(rg, names, idByName) : await decodeSpan(source, rg, names, idByName, span);
      const base = position;
      for (const batch of batches) {
        const length = batch.length;
        if (span !== undefined && (position - base + length <= span[0] || position - base >= span[1])) {
          position += length; // a batch of another piece of this row group
          continue;
        }
        const out = columns.map((c) => {
          const idx = colIndex.get(c.fieldId);
          if (idx === undefined) return new Array<unknown>(length).fill(c.missingValue);
          return arrowDataToValues(batch.columns[idx]!, c.type, uri);
        });
        yield columnChunk(position, undefined, length, out);
        position += length;
      }
      if (position !== base + rows) {
        throw pgError('XX001', `could not read Parquet file "${uri}": row group ${rg} row count mismatch`);
      }
    }
  } finally {
    source.free();
  }
}

/**
 * readRowGroupLate's argument in one fixed shape: every field always present (undefined when absent), in one
 * order. Built with spreads it came in four shapes (with or without row ranges, span) and a fifth with metrics
 * added: several hidden classes for one object, a polymorphic read of each field in readRowGroupLate and its
 * steps, and the "wrong map" deopts of the scan workers' steady state (session 25, TPC-H q6).
 */
export function lateRowGroupRead(
  source: ParquetSource,
  rg: number,
  rows: number,
  position: number,
  columns: readonly ParquetColumnRequest[],
  nameById: ReadonlyMap<number, string>,
  idByName: ReadonlyMap<string, number>,
  filter: ChunkFilter,
  uri: string,
  metrics: LateMetrics | undefined,
  rowRanges: RowRanges | null,
  span: readonly [number, number] | undefined,
): LateRowGroupRead {
  return { source, rg, rows, position, columns, nameById, idByName, filter, uri, metrics, rowRanges: rowRanges ?? undefined, span };
}
