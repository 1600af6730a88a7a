/**
 * The Parquet page index of a row group's column chunks: OffsetIndex (page locations, `first_row_index` of
 * each data page) and ColumnIndex (per page `null_pages`, `min_values`, `max_values`, optional `null_counts`),
 * Thrift compact structs that writers put between the last row group and the footer, located by ColumnChunk
 * fields 4–7 (`offset_index_offset/length`, `column_index_offset/length`).
 * @see https://github.com/apache/parquet-format/blob/master/PageIndex.md
 *
 * The index regions a row group's filter columns need are fetched in one ranged read (answered from the
 * footer's cached tail when they lie inside it, as they do for small files), parsed here and kept in a small
 * process-wide cache: data files are immutable, and a repeated lookup should not read the index again.
 * A malformed or inconsistent index is ignored (it only prunes; the data decode still reads every row).
 */
import type { IcebergIO } from '../io.ts';
import { asNumber, type ParquetFooter } from './parquet-footer.ts';
import { readThriftStruct } from './thrift-compact.ts';
import { ByteLru } from './byte-lru.ts';

/** one column chunk's page index */
export interface ColumnPageIndex {
  /** OffsetIndex: first row (within the row group) of each data page, ascending from 0 */
  readonly firstRows: readonly number[];
  /**
   * OffsetIndex: each page's file offset and compressed size, header included (page-window.ts reads just the
   * pages holding some rows); absent when they do not line up with `firstRows`
   */
  readonly locations?: { readonly offsets: readonly number[]; readonly sizes: readonly number[] };
  /** ColumnIndex (absent when the writer wrote only an OffsetIndex): one entry per page */
  readonly pages?: {
    readonly nullPages: readonly boolean[];
    readonly minValues: readonly Uint8Array[];
    readonly maxValues: readonly Uint8Array[];
    readonly nullCounts?: readonly number[];
  };
}

/** ColumnChunk fields of the page index location (parquet.thrift) */
const CC = { oiOffset: 4, oiLength: 5, ciOffset: 6, ciLength: 7 } as const;

interface Span {
  readonly offset: number;
  readonly length: number;
}

/** where a chunk's indexes are; undefined when it has no OffsetIndex (no page index worth reading) */
export function pageIndexLocation(footer: ParquetFooter, rg: number, leaf: number, fileSize: number): { offsetIndex: Span; columnIndex?: Span } | undefined {
  const cc = footer.rowGroups[rg]?.chunks[leaf];
  if (cc === undefined) return undefined;
  const span = (o: number, l: number): Span | undefined => {
    const offset = asNumber(cc.get(o));
    const length = asNumber(cc.get(l));
    return offset === undefined || length === undefined || offset < 0 || length <= 0 || offset + length > fileSize ? undefined : { offset, length };
  };
  const offsetIndex = span(CC.oiOffset, CC.oiLength);
  if (offsetIndex === undefined) return undefined;
  const columnIndex = span(CC.ciOffset, CC.ciLength);
  return columnIndex === undefined ? { offsetIndex } : { offsetIndex, columnIndex };
}

/** OffsetIndex bytes → first row of each page; undefined if not a valid one for a row group of `rows` rows */
export function parseOffsetIndex(b: Uint8Array, rows: number): number[] | undefined {
  const locations = readThriftStruct(b).get(1);
  if (!Array.isArray(locations) || locations.length === 0) return undefined;
  const firstRows: number[] = [];
  for (const loc of locations) {
    const first = loc instanceof Map ? asNumber(loc.get(3)) : undefined;
    const prev = firstRows[firstRows.length - 1];
    if (first === undefined || first >= rows || (prev === undefined ? first !== 0 : first <= prev)) return undefined;
    firstRows.push(first);
  }
  return firstRows;
}

/** OffsetIndex bytes → each page's `offset` and `compressed_page_size`; undefined unless `pages` valid entries */
export function parsePageLocations(b: Uint8Array, pages: number): ColumnPageIndex['locations'] {
  const locations = readThriftStruct(b).get(1);
  if (!Array.isArray(locations) || locations.length !== pages) return undefined;
  const offsets: number[] = [], sizes: number[] = [];
  for (const loc of locations) {
    const offset = loc instanceof Map ? asNumber(loc.get(1)) : undefined;
    const size = loc instanceof Map ? asNumber(loc.get(2)) : undefined;
    if (offset === undefined || size === undefined || offset < 0 || size <= 0 || (offsets.length > 0 && offset < offsets[offsets.length - 1]! + sizes[sizes.length - 1]!)) return undefined;
    offsets.push(offset);
    sizes.push(size);
  }
  return { offsets, sizes };
}

/** ColumnIndex bytes → per-page statistics; undefined unless every list has `pages` entries */
export function parseColumnIndex(b: Uint8Array, pages: number): ColumnPageIndex['pages'] {
  const ci = readThriftStruct(b);
  const nullPages = ci.get(1);
  const minValues = ci.get(2);
  const maxValues = ci.get(3);
  const nullCounts = ci.get(5);
  const bytesList = (v: unknown): v is Uint8Array[] => Array.isArray(v) && v.length === pages && v.every((x) => x instanceof Uint8Array);
  if (!Array.isArray(nullPages) || nullPages.length !== pages || !nullPages.every((x) => typeof x === 'boolean')) return undefined;
  if (!bytesList(minValues) || !bytesList(maxValues)) return undefined;
  const counts = Array.isArray(nullCounts) && nullCounts.length === pages ? nullCounts.map((x) => asNumber(x)) : undefined;
  return {
    nullPages: nullPages as boolean[],
    minValues,
    maxValues,
    ...(counts !== undefined && counts.every((x) => x !== undefined && x >= 0) ? { nullCounts: counts as number[] } : {}),
  };
}

const CACHE_BYTES = 8 * 1024 * 1024;
const cache = new ByteLru<ColumnPageIndex | null>(CACHE_BYTES);

/** bytes of index a single read may span beyond what is needed before the pieces are read separately */
const MAX_GAP = 256 * 1024;

/**
 * The page index of row group `rg`'s leaf columns `leaves` (those without one are absent from the answer).
 * `tail` is the footer's cached end of the file; other bytes are read through `io` (counted by `onRead`).
 */
export async function readRowGroupPageIndex(
  io: IcebergIO, uri: string, size: number, footer: ParquetFooter, rg: number, leaves: readonly number[], onRead?: (bytes: number) => void,
): Promise<Map<number, ColumnPageIndex>> {
  const out = new Map<number, ColumnPageIndex>();
  const rows = footer.rowGroups[rg]?.numRows ?? 0;
  const wanted: { leaf: number; key: string; offsetIndex: Span; columnIndex?: Span }[] = [];
  for (const leaf of leaves) {
    const key = `${size}:${uri}:${rg}:${leaf}`;
    const hit = cache.get(key);
    if (hit !== undefined) {
      if (hit !== null) out.set(leaf, hit);
      continue;
    }
    const at = pageIndexLocation(footer, rg, leaf, size);
    if (at !== undefined) wanted.push({ leaf, key, ...at });
  }
  if (wanted.length === 0) return out;
  const spans = wanted.flatMap((w) => (w.columnIndex === undefined ? [w.offsetIndex] : [w.offsetIndex, w.columnIndex]));
  const bytesOf = await fetchSpans(io, uri, footer, spans, onRead);
  for (const w of wanted) {
    let parsed: ColumnPageIndex | null = null;
    try {
      const firstRows = parseOffsetIndex(bytesOf(w.offsetIndex), rows);
      if (firstRows !== undefined) {
        const pages = w.columnIndex === undefined ? undefined : parseColumnIndex(bytesOf(w.columnIndex), firstRows.length);
        const locations = parsePageLocations(bytesOf(w.offsetIndex), firstRows.length);
        parsed = { firstRows, ...(pages === undefined ? {} : { pages }), ...(locations === undefined ? {} : { locations }) };
      }
    } catch {
      parsed = null; // a malformed index prunes nothing
    }
    cache.set(w.key, parsed, 64 + w.offsetIndex.length + (w.columnIndex?.length ?? 0));
    if (parsed !== null) out.set(w.leaf, parsed);
  }
  return out;
}

/** the bytes of `spans`: from the cached tail, else one read over all of them (or one per span when far apart) */
async function fetchSpans(io: IcebergIO, uri: string, footer: ParquetFooter, spans: readonly Span[], onRead?: (bytes: number) => void): Promise<(s: Span) => Uint8Array> {
  const inTail = (s: Span): boolean => s.offset >= footer.tailOffset && s.offset + s.length <= footer.tailOffset + footer.tail.byteLength;
  const fromTail = (s: Span): Uint8Array => footer.tail.subarray(s.offset - footer.tailOffset, s.offset - footer.tailOffset + s.length);
  const rest = spans.filter((s) => !inTail(s));
  if (rest.length === 0) return fromTail;
  const start = Math.min(...rest.map((s) => s.offset));
  const end = Math.max(...rest.map((s) => s.offset + s.length));
  const needed = rest.reduce((n, s) => n + s.length, 0);
  const read = async (offset: number, length: number): Promise<Uint8Array> => {
    onRead?.(length);
    return io.readRange(uri, offset, length);
  };
  if (end - start - needed <= MAX_GAP) {
    const region = await read(start, end - start);
    return (s) => (inTail(s) ? fromTail(s) : region.subarray(s.offset - start, s.offset - start + s.length));
  }
  const pieces = new Map<Span, Uint8Array>();
  await Promise.all(rest.map(async (s) => pieces.set(s, await read(s.offset, s.length))));
  return (s) => pieces.get(s) ?? fromTail(s);
}

/** drops every cached page index (tests) */
export function clearPageIndexCache(): void {
  cache.clear();
}

