/**
 * Parquet footer (FileMetaData, Thrift compact) read with ranged reads: row groups with their row counts and
 * per column chunk statistics, and the top-level primitive leaf column of each Parquet `field_id`.
 * parquet-wasm does not expose statistics, so row-group pruning parses the footer here.
 *
 * The last 64 KiB of the file are fetched in one read (the footer of most files fits) and kept in a small
 * process-wide cache with the parsed footer, so planning (explainScan, row-group selection) and the following
 * read (parquet-wasm asks for the same tail through range-blob.ts) cost one request. Data files are immutable
 * (Iceberg never rewrites a path), so caching by path and size is safe.
 */
import type { IcebergIO } from '../io.ts';
import { pgError } from '../../common/errors.ts';
import { fileReadError } from '../read-errors.ts';
import { readThriftStruct, type ThriftStruct, type ThriftValue } from './thrift-compact.ts';

export interface ParquetLeaf {
  /** index of the column chunk in each row group */
  readonly index: number;
  readonly element: ThriftStruct;
}

export interface ParquetRowGroup {
  readonly numRows: number;
  /** ColumnMetaData (ColumnChunk field 3) per leaf column */
  readonly columns: readonly (ThriftStruct | undefined)[];
  /** the ColumnChunk per leaf column (its page index location: fields 4–7, page-index.ts) */
  readonly chunks: readonly ThriftStruct[];
}

export interface ParquetFooter {
  readonly rowGroups: readonly ParquetRowGroup[];
  /** top-level primitive columns by Parquet field_id (nested columns are not listed) */
  readonly leafByFieldId: ReadonlyMap<number, ParquetLeaf>;
  /** FileMetaData 7: column orders are present (min_value/max_value are then in the type's order) */
  readonly hasColumnOrders: boolean;
  /**
   * the root's children in order (Arrow's top-level fields, which parquet-wasm's `columns` option names):
   * name and Parquet field_id, nested groups included
   */
  readonly topLevel: readonly { readonly name: string; readonly fieldId: number | null }[];
  /** the cached end of the file: offset and bytes */
  readonly tailOffset: number;
  readonly tail: Uint8Array;
}

const TAIL = 64 * 1024;
const utf8 = new TextDecoder();
const CACHE_BYTES = 64 * 1024 * 1024;
const cache = new Map<string, ParquetFooter>();
let cachedBytes = 0;

export const asNumber = (v: ThriftValue | undefined): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;

/** the cached footer of a file, if its tail was read before */
export function cachedParquetFooter(uri: string, size: number): ParquetFooter | undefined {
  return cache.get(`${size}:${uri}`);
}

export async function readParquetFooter(io: IcebergIO, uri: string, size: number, onRead?: (bytes: number) => void): Promise<ParquetFooter> {
  const key = `${size}:${uri}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key); // LRU: move to the end
    cache.set(key, hit);
    return hit;
  }
  if (size < 12) throw pgError('XX001', `could not read Parquet file "${uri}": file is too small (${size} bytes)`);
  const tailLen = Math.min(size, TAIL);
  let tailOffset = size - tailLen;
  let tail = await io.readRange(uri, tailOffset, tailLen);
  onRead?.(tail.byteLength);
  const n = tail.byteLength;
  if (n < 8 || tail[n - 4] !== 0x50 || tail[n - 3] !== 0x41 || tail[n - 2] !== 0x52 || tail[n - 1] !== 0x31) {
    throw pgError('XX001', `could not read Parquet file "${uri}": no PAR1 footer magic`);
  }
  const len = new DataView(tail.buffer, tail.byteOffset + n - 8, 4).getUint32(0, true);
  if (len + 8 > size) throw pgError('XX001', `could not read Parquet file "${uri}": footer length ${len} exceeds the file`);
  if (len + 8 > n) {
    tailOffset = size - 8 - len;
    tail = await io.readRange(uri, tailOffset, len + 8);
    onRead?.(tail.byteLength);
  }
  let md: ThriftStruct;
  try {
    md = readThriftStruct(tail.subarray(tail.byteLength - 8 - len, tail.byteLength - 8));
  } catch (e) {
    throw fileReadError('Parquet', uri, new Error(`bad footer: ${(e as Error).message}`, { cause: e }));
  }
  const footer: ParquetFooter = { ...parseFooter(md), tailOffset, tail };
  cache.set(key, footer);
  cachedBytes += tail.byteLength;
  for (const [k, f] of cache) {
    if (cachedBytes <= CACHE_BYTES) break;
    cache.delete(k);
    cachedBytes -= f.tail.byteLength;
  }
  return footer;
}

function parseFooter(md: ThriftStruct): Omit<ParquetFooter, 'tailOffset' | 'tail'> {
  const schema = (md.get(2) as ThriftStruct[] | undefined) ?? [];
  // depth-first schema: element 0 is the root; leaves are elements without num_children, in column order
  const leafByFieldId = new Map<number, ParquetLeaf>();
  let leaf = 0;
  let i = 1;
  const rootChildren = asNumber(schema[0]?.get(5)) ?? 0;
  const skipSubtree = (): void => {
    // counts leaves below a group element and advances past it
    const e = schema[i++]!;
    const kids = asNumber(e.get(5));
    if (kids === undefined || kids === 0 && e.get(1) !== undefined) { leaf++; return; }
    for (let k = 0; k < kids; k++) skipSubtree();
  };
  const topLevel: { name: string; fieldId: number | null }[] = [];
  for (let c = 0; c < rootChildren && i < schema.length; c++) {
    const e = schema[i]!;
    const nameBytes = e.get(4);
    topLevel.push({ name: nameBytes instanceof Uint8Array ? utf8.decode(nameBytes) : '', fieldId: asNumber(e.get(9)) ?? null });
    const kids = asNumber(e.get(5));
    if (kids === undefined || kids === 0 && e.get(1) !== undefined) {
      const id = asNumber(e.get(9));
      const repeated = asNumber(e.get(3)) === 2;
      if (id !== undefined && !repeated) leafByFieldId.set(id, { index: leaf, element: e });
      leaf++;
      i++;
    } else {
      skipSubtree();
    }
  }
  const rowGroups = ((md.get(4) as ThriftStruct[] | undefined) ?? []).map((rg): ParquetRowGroup => {
    const chunks = (rg.get(1) as ThriftStruct[] | undefined) ?? [];
    return { numRows: asNumber(rg.get(3)) ?? 0, columns: chunks.map((cc) => cc.get(3) as ThriftStruct | undefined), chunks };
  });
  return { rowGroups, leafByFieldId, hasColumnOrders: Array.isArray(md.get(7)), topLevel };
}

/**
 * IcebergIO for reading one Parquet file: ranges inside the cached footer tail are answered from memory
 * (parquet-wasm re-reads the footer the planner already fetched); the others are counted in `onRead`.
 */
export function footerCachedIO(io: IcebergIO, size: number, onRead?: (bytes: number) => void): IcebergIO {
  return {
    read: (uri) => io.read(uri),
    readRange: async (uri, offset, length) => {
      const f = cachedParquetFooter(uri, size);
      if (f !== undefined && offset >= f.tailOffset && offset + length <= f.tailOffset + f.tail.byteLength) {
        return f.tail.slice(offset - f.tailOffset, offset - f.tailOffset + length);
      }
      onRead?.(length);
      return io.readRange(uri, offset, length);
    },
  };
}
