/**
 * mergeRowGroups: standalone Parquet files of one schema (the pieces a partition's buffered rows were encoded
 * into, each small because a partitioned write holds many partitions at once) → one standalone file with ONE
 * row group holding all their rows, without decoding a value. Each column chunk is the pieces' pages one after
 * the other: PLAIN pages are copied as they are; dictionaries are folded into one (each distinct value once,
 * in order of first appearance) and the indices of dictionary-encoded pages are renumbered onto it
 * (parquet-dictionary-merge.ts; pages whose piece keeps its numbering are copied). Statistics are merged by the
 * column's sort order (parquet-stat-order.ts), ColumnIndex / OffsetIndex rebuilt for the new pages, the
 * footer's key-value metadata (Arrow schema) kept. ParquetSplice then appends the result like any piece.
 *
 * Scope: flat schemas (no repeated or group fields), data page v1 for renumbered pages (parquet-wasm's
 * default), codecs UNCOMPRESSED and SNAPPY (snappyjs re-compresses renumbered pages; a column whose pieces differ
 * is merged uncompressed), merged dictionaries within the 1 MiB dictionary page limit. Anything else → null: the
 * caller keeps the pieces as separate row groups.
 * @see https://parquet.apache.org/docs/file-format/ and parquet.thrift (field ids below)
 */
import { CODEC, ENC, PH, Unsupported, mergeDictionaries, recodedPage, remappedPage, type Leaf, type Page } from './parquet-dictionary-merge.ts';
import { parquetFooterOf } from './parquet-splice.ts';
import { boundaryOrder, mergeStatistics, statCompareOf, type StatCompare } from './parquet-stat-order.ts';
import { indexBitWidth } from './rle-hybrid-remap.ts';
import { TType, decodeThriftStruct, encodeThriftStruct, intField, listField, setI64, structField, type TNode, type TStruct } from './thrift-compact-tree.ts';

const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]);

// parquet.thrift field ids
const FMD = { schema: 2, numRows: 3, rowGroups: 4 } as const;
const SE = { type: 1, typeLength: 2, repetition: 3, numChildren: 5 } as const;
const RG = { columns: 1, totalByteSize: 2, numRows: 3, sortingColumns: 4, fileOffset: 5, totalCompressedSize: 6, ordinal: 7 } as const;
const CC = { filePath: 1, fileOffset: 2, metaData: 3, oiOffset: 4, oiLength: 5, ciOffset: 6, ciLength: 7, crypto: 8 } as const;
const CMD = {
  encodings: 2, codec: 4, numValues: 5, uncompressed: 6, compressed: 7, dataPageOffset: 9, indexPageOffset: 10,
  dictionaryPageOffset: 11, statistics: 12, encodingStats: 13, bloomOffset: 14, bloomLength: 15, sizeStatistics: 16,
} as const;
const PAGE = { data: 0, dictionary: 2, dataV2: 3 } as const;
const CI = { nullPages: 1, minValues: 2, maxValues: 3, boundaryOrder: 4, nullCounts: 5, repHist: 6, defHist: 7 } as const;

interface Source {
  readonly file: Uint8Array;
  readonly rg: TStruct;
  readonly rows: number;
}

const i32 = (v: number): TNode => ({ t: TType.I32, v });
const i64 = (v: number | bigint): TNode => ({ t: TType.I64, v: BigInt(v) });
const list = (et: number, v: TNode[]): TNode => ({ t: TType.LIST, et, v });
const structs = (s: TStruct, id: number): TStruct[] => listField(s, id).map((n) => (n.t === TType.STRUCT ? n.v : new Map()));

function leavesOf(meta: TStruct): Leaf[] {
  const [root, ...rest] = structs(meta, FMD.schema);
  if (root === undefined || intField(root, SE.numChildren) !== rest.length) throw new Unsupported('nested schema');
  return rest.map((e) => {
    const rep = intField(e, SE.repetition) ?? 0;
    if (rep === 2 || e.has(SE.numChildren)) throw new Unsupported('nested schema');
    return { physical: intField(e, SE.type) ?? -1, typeLength: intField(e, SE.typeLength) ?? 0, maxDef: rep === 1 ? 1 : 0, cmp: statCompareOf(e) };
  });
}

function pagesOf(file: Uint8Array, md: TStruct): Page[] {
  const start = intField(md, CMD.dictionaryPageOffset) ?? intField(md, CMD.dataPageOffset);
  const size = intField(md, CMD.compressed);
  if (start === undefined || size === undefined || start < 4 || start + size > file.length) throw new Unsupported('column chunk outside the file');
  const pages: Page[] = [];
  for (let at = start; at < start + size;) {
    const { struct, end } = decodeThriftStruct(file.subarray(at, start + size));
    const n = intField(struct, PH.compressed) ?? 0;
    pages.push({ header: struct, headerBytes: file.subarray(at, at + end), body: file.subarray(at + end, at + end + n) });
    at += end + n;
  }
  return pages;
}

interface ChunkOut {
  readonly bytes: Uint8Array[];
  readonly cc: TStruct;
  readonly columnIndex: TStruct | null;
  readonly offsetIndex: TStruct;
}

/** sums i64 histograms element by element (SizeStatistics, ColumnIndex level histograms); undefined if they differ in shape */
function sumLists(parts: readonly TNode[][]): TNode[] | undefined {
  const n = parts[0]?.length ?? 0;
  if (parts.some((p) => p.length !== n)) return undefined;
  return Array.from({ length: n }, (_, i) => i64(parts.reduce((s, p) => s + BigInt((p[i] as { v: bigint }).v), 0n)));
}

function mergedSizeStatistics(parts: readonly (TStruct | undefined)[]): TStruct | undefined {
  if (parts.some((p) => p === undefined)) return undefined;
  const ps = parts as TStruct[];
  const out: TStruct = new Map();
  if (ps.every((p) => p.has(1))) out.set(1, i64(ps.reduce((s, p) => s + BigInt(intField(p, 1) ?? 0), 0n)));
  for (const id of [2, 3]) {
    if (!ps.every((p) => p.has(id))) continue;
    const sum = sumLists(ps.map((p) => listField(p, id)));
    if (sum !== undefined) out.set(id, list(TType.I64, sum));
  }
  return out;
}

function indexStruct(file: Uint8Array, cc: TStruct, offsetId: number, lengthId: number): TStruct | null {
  const at = intField(cc, offsetId);
  const len = intField(cc, lengthId);
  if (at === undefined || len === undefined) return null;
  return decodeThriftStruct(file.subarray(at, at + len)).struct;
}

function mergedColumnIndex(parts: readonly (TStruct | null)[], cmp: StatCompare | null): TStruct | null {
  if (parts.some((p) => p === null)) return null;
  const ps = parts as TStruct[];
  const out: TStruct = new Map();
  const cat = (id: number): TNode[] => ps.flatMap((p) => listField(p, id));
  for (const id of [CI.nullPages, CI.minValues, CI.maxValues, CI.nullCounts, CI.repHist, CI.defHist]) {
    if (!ps.every((p) => p.has(id))) {
      if (id <= CI.maxValues) return null;
      continue;
    }
    const first = ps[0]!.get(id) as { et: number };
    out.set(id, list(first.et, cat(id)));
  }
  const nulls = cat(CI.nullPages).map((n) => (n as { v: boolean }).v);
  const mins = cat(CI.minValues).map((n) => (n as { v: Uint8Array }).v);
  const maxs = cat(CI.maxValues).map((n) => (n as { v: Uint8Array }).v);
  out.set(CI.boundaryOrder, i32(boundaryOrder(nulls, mins, maxs, cmp)));
  return out;
}

/** column `c` of every source as one column chunk starting at file offset `at` */
function mergeColumn(sources: readonly Source[], c: number, leaf: Leaf, at: number): ChunkOut {
  const ccs = sources.map((s) => (structs(s.rg, RG.columns)[c] ?? new Map()) as TStruct);
  const mds = ccs.map((cc) => {
    if (cc.has(CC.filePath) || cc.has(CC.crypto)) throw new Unsupported('external or encrypted column chunk');
    const md = structField(cc, CC.metaData);
    if (md === undefined) throw new Unsupported('column chunk without metadata');
    return md;
  });
  const codecs = mds.map((m) => intField(m, CMD.codec) ?? 0);
  if (codecs.some((c) => c !== CODEC.uncompressed && c !== CODEC.snappy)) throw new Unsupported('codec');
  // pieces may differ (the JS writer leaves a chunk that would not shrink uncompressed): the merged chunk is then
  // uncompressed, its snappy pieces' pages decompressed (cheaper than compressing the others)
  const codec = codecs.every((c) => c === codecs[0]) ? codecs[0]! : CODEC.uncompressed;
  const pages = sources.map((s, k) => pagesOf(s.file, mds[k]!).map((p) => recodedPage(p, codecs[k]!, codec)));
  const dicts = pages.map((ps) => ps.find((p) => intField(p.header, PH.type) === PAGE.dictionary) ?? null);
  const merged = mergeDictionaries(dicts, codec, leaf);
  const hasDict = dicts.map((d) => d !== null);
  const bitWidth = merged === null ? 0 : indexBitWidth(intField(structField(merged.page.header, PH.dictionaryPage)!, 1) ?? 0);
  const out: Page[] = [];
  if (merged !== null) out.push(merged.page);
  const locations: TNode[] = [];
  const stats = new Map<string, number>();
  const count = (type: number, enc: number): void => {
    const k = `${type}:${enc}`;
    stats.set(k, (stats.get(k) ?? 0) + 1);
  };
  if (merged !== null) count(PAGE.dictionary, intField(structField(merged.page.header, PH.dictionaryPage)!, 2) ?? 0);
  let pos = at + (merged === null ? 0 : merged.page.headerBytes.length + merged.page.body.length);
  let firstRow = 0;
  sources.forEach((s, k) => {
    const map = merged?.maps[k] ?? null;
    const own = hasDict[k]!;
    let rowInSource = 0;
    for (const page of pages[k]!) {
      const type = intField(page.header, PH.type);
      if (type === PAGE.dictionary) continue;
      if (type !== PAGE.data && type !== PAGE.dataV2) throw new Unsupported(`page type ${type}`);
      const dp = structField(page.header, type === PAGE.data ? PH.dataPage : PH.dataPageV2)!;
      const enc = intField(dp, type === PAGE.data ? 2 : 4) ?? 0;
      const dictEncoded = enc === ENC.rleDictionary || enc === ENC.plainDictionary;
      if (dictEncoded && !own) throw new Unsupported('dictionary page missing');
      let outPage = page;
      if (dictEncoded && map !== null) {
        if (type !== PAGE.data) throw new Unsupported('dictionary-encoded data page v2');
        outPage = remappedPage(page, codec, leaf, map, bitWidth);
      }
      out.push(outPage);
      count(type, enc);
      const size = outPage.headerBytes.length + outPage.body.length;
      locations.push({ t: TType.STRUCT, v: new Map([[1, i64(pos)], [2, i32(size)], [3, i64(firstRow + rowInSource)]]) });
      pos += size;
      rowInSource += intField(dp, type === PAGE.data ? 1 : 3) ?? 0;
    }
    firstRow += s.rows;
  });
  const md: TStruct = new Map(mds[0]);
  md.set(CMD.codec, i32(codec));
  md.set(CMD.numValues, i64(mds.reduce((s, m) => s + (intField(m, CMD.numValues) ?? 0), 0)));
  md.set(CMD.uncompressed, i64(out.reduce((s, p) => s + p.headerBytes.length + (intField(p.header, PH.uncompressed) ?? 0), 0)));
  md.set(CMD.compressed, i64(pos - at));
  md.set(CMD.dataPageOffset, i64(merged === null ? at : at + merged.page.headerBytes.length + merged.page.body.length));
  if (merged !== null) md.set(CMD.dictionaryPageOffset, i64(at));
  else md.delete(CMD.dictionaryPageOffset);
  for (const id of [CMD.indexPageOffset, CMD.bloomOffset, CMD.bloomLength]) md.delete(id);
  const encodings = [...new Set(mds.flatMap((m) => listField(m, CMD.encodings).map((n) => (n as { v: number }).v)))].sort((a, b) => a - b);
  md.set(CMD.encodings, list(TType.I32, encodings.map(i32)));
  md.set(CMD.encodingStats, list(TType.STRUCT, [...stats].map(([k, n]) => {
    const [type, enc] = k.split(':').map(Number);
    return { t: TType.STRUCT, v: new Map([[1, i32(type!)], [2, i32(enc!)], [3, i32(n)]]) };
  })));
  const st = mergeStatistics(mds.map((m) => structField(m, CMD.statistics)), leaf.cmp);
  if (st === undefined) md.delete(CMD.statistics);
  else md.set(CMD.statistics, { t: TType.STRUCT, v: st });
  const ss = mergedSizeStatistics(mds.map((m) => structField(m, CMD.sizeStatistics)));
  if (ss === undefined) md.delete(CMD.sizeStatistics);
  else md.set(CMD.sizeStatistics, { t: TType.STRUCT, v: ss });
  const ois = sources.map((s, k) => indexStruct(s.file, ccs[k]!, CC.oiOffset, CC.oiLength));
  const offsetIndex: TStruct = new Map([[1, list(TType.STRUCT, locations)]]);
  if (ois.every((o) => o !== null && o.has(2))) offsetIndex.set(2, list(TType.I64, ois.flatMap((o) => listField(o!, 2))));
  const columnIndex = mergedColumnIndex(sources.map((s, k) => indexStruct(s.file, ccs[k]!, CC.ciOffset, CC.ciLength)), leaf.cmp);
  const cc: TStruct = new Map([[CC.fileOffset, i64(0)], [CC.metaData, { t: TType.STRUCT, v: md }]]);
  return { bytes: out.flatMap((p) => [p.headerBytes, p.body]), cc, columnIndex, offsetIndex };
}

/**
 * the row groups of `pieces` (standalone Parquet files with the same schema) as one file of one row group;
 * null when a piece uses something this merge does not handle (see the header)
 */
export function mergeRowGroups(pieces: readonly Uint8Array[]): Uint8Array | null {
  try {
    return merge(pieces);
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}

function merge(pieces: readonly Uint8Array[]): Uint8Array {
  const footers = pieces.map((p) => ({ file: p, ...parquetFooterOf(p) }));
  const first = footers[0];
  if (first === undefined) throw new Unsupported('no pieces');
  for (const f of footers) if (Buffer.compare(f.schemaBytes, first.schemaBytes) !== 0) throw new Error('Parquet merge: pieces have different schemas');
  const leaves = leavesOf(first.meta);
  const sources: Source[] = footers.flatMap((f) => structs(f.meta, FMD.rowGroups).map((rg) => ({ file: f.file, rg, rows: intField(rg, RG.numRows) ?? 0 })));
  const chunks: Uint8Array[] = [MAGIC];
  let pos = 4;
  const columns = leaves.map((leaf, c) => {
    const col = mergeColumn(sources, c, leaf, pos);
    for (const b of col.bytes) {
      chunks.push(b);
      pos += b.length;
    }
    return col;
  });
  const dataBytes = pos - 4;
  for (const col of columns) {
    if (col.columnIndex === null) continue;
    const b = encodeThriftStruct(col.columnIndex);
    setI64(col.cc, CC.ciOffset, pos);
    col.cc.set(CC.ciLength, i32(b.length));
    chunks.push(b);
    pos += b.length;
  }
  for (const col of columns) {
    const b = encodeThriftStruct(col.offsetIndex);
    setI64(col.cc, CC.oiOffset, pos);
    col.cc.set(CC.oiLength, i32(b.length));
    chunks.push(b);
    pos += b.length;
  }
  const rows = sources.reduce((s, x) => s + x.rows, 0);
  const rg: TStruct = new Map([
    [RG.columns, list(TType.STRUCT, columns.map((c) => ({ t: TType.STRUCT, v: c.cc })))],
    [RG.totalByteSize, i64(columns.reduce((s, c) => s + (intField(structField(c.cc, CC.metaData)!, CMD.uncompressed) ?? 0), 0))],
    [RG.numRows, i64(rows)],
    [RG.fileOffset, i64(4)],
    [RG.totalCompressedSize, i64(dataBytes)],
    [RG.ordinal, { t: TType.I16, v: 0 }],
  ]);
  const meta: TStruct = new Map(first.meta);
  meta.set(FMD.numRows, i64(rows));
  meta.set(FMD.rowGroups, list(TType.STRUCT, [{ t: TType.STRUCT, v: rg }]));
  const footer = encodeThriftStruct(meta);
  const tail = new Uint8Array(footer.length + 8);
  tail.set(footer);
  new DataView(tail.buffer).setUint32(footer.length, footer.length, true);
  tail.set(MAGIC, footer.length + 4);
  chunks.push(tail);
  const out = new Uint8Array(pos + tail.length);
  let p = 0;
  for (const b of chunks) {
    out.set(b, p);
    p += b.length;
  }
  return out;
}
