/**
 * ParquetSplice: one multi-row-group Parquet file built from several standalone Parquet files of the same schema
 * (each the encoding of one flush of a partition's buffered rows), written front to back as they come, so a file
 * can grow to the target size without its rows being held in memory. parquet-wasm can only encode a whole table,
 * so each piece is encoded on its own (in a worker, parquet-encode-pool.ts) and spliced here: its row groups'
 * bytes (data pages, dictionary pages, bloom filters) are copied as they are, and one footer is written at the
 * end with every offset moved by where the piece landed. Page indexes (ColumnIndex, OffsetIndex) are kept in
 * memory (a few bytes per page) and written after the last row group, where the Parquet spec puts them;
 * OffsetIndex page locations are absolute file offsets and are moved too.
 * @see https://parquet.apache.org/docs/file-format/ (layout) and parquet.thrift (field ids below)
 */
import { TType, decodeThriftStruct, encodeThriftStruct, intField, listField, setI64, structField, type TNode, type TStruct } from './thrift-compact-tree.ts';

const MAGIC = new Uint8Array([0x50, 0x41, 0x52, 0x31]); // PAR1

// parquet.thrift field ids
const FMD = { schema: 2, numRows: 3, rowGroups: 4 } as const;
const RG = { columns: 1, fileOffset: 5, ordinal: 7 } as const;
const CC = { filePath: 1, fileOffset: 2, metaData: 3, oiOffset: 4, oiLength: 5, ciOffset: 6, ciLength: 7 } as const;
const CMD = { dataPageOffset: 9, indexPageOffset: 10, dictionaryPageOffset: 11, bloomFilterOffset: 14 } as const;
const OI = { pageLocations: 1 } as const;
const PL = { offset: 1 } as const;

/** where a sink puts the file's bytes, in order */
export type ByteSink = (chunk: Uint8Array) => Promise<void>;

interface PendingIndex {
  readonly chunk: TStruct;
  readonly columnIndex: Uint8Array | null;
  readonly offsetIndex: Uint8Array | null;
}

const bad = (why: string): Error => new Error(`Parquet splice: ${why}`);

/** the footer (FileMetaData) of a whole Parquet file in memory */
export function parquetFooterOf(file: Uint8Array): { meta: TStruct; footerStart: number; schemaBytes: Uint8Array } {
  const n = file.byteLength;
  if (n < 12 || !MAGIC.every((b, i) => file[i] === b && file[n - 4 + i] === b)) throw bad('not a Parquet file');
  const len = new DataView(file.buffer, file.byteOffset + n - 8, 4).getUint32(0, true);
  const footerStart = n - 8 - len;
  if (footerStart < 4) throw bad('footer length exceeds the file');
  // decoded from a copy: the footer's binaries (statistics, names) must not keep the whole piece alive
  const footer = file.slice(footerStart, n - 8);
  const { struct, spans } = decodeThriftStruct(footer);
  const span = spans.get(FMD.schema);
  return { meta: struct, footerStart, schemaBytes: span === undefined ? new Uint8Array(0) : footer.subarray(span[0], span[1]) };
}

export class ParquetSplice {
  /** bytes handed to the sink so far */
  private pos = 0;
  private rows = 0n;
  private readonly rowGroups: TNode[] = [];
  private readonly indexes: PendingIndex[] = [];
  private meta: TStruct | null = null;
  private schemaBytes: Uint8Array | null = null;
  /** appends run one after the other: each one's offsets depend on where the previous one ended */
  private queue: Promise<void> = Promise.resolve();
  private failed: unknown = null;

  constructor(private readonly sink: ByteSink) {}

  /** bytes written so far (row group data only until finish) */
  get bytesWritten(): number {
    return this.pos;
  }

  get rowGroupCount(): number {
    return this.rowGroups.length;
  }

  private async emit(chunk: Uint8Array): Promise<void> {
    if (chunk.byteLength === 0) return;
    this.pos += chunk.byteLength;
    await this.sink(chunk);
  }

  /** appends the row groups of a standalone Parquet file (same schema as the first one appended) */
  append(file: Uint8Array): Promise<void> {
    const done = this.queue.then(() => this.appendNow(file));
    // a failed piece leaves the file unusable: finish() reports it rather than write a footer without it
    this.queue = done.catch((e: unknown) => {
      this.failed ??= e;
    });
    return done;
  }

  private async appendNow(file: Uint8Array): Promise<void> {
    const { meta, footerStart, schemaBytes: schema } = parquetFooterOf(file);
    if (this.schemaBytes === null) {
      this.schemaBytes = schema;
      this.meta = meta;
    } else if (Buffer.compare(Buffer.from(schema), Buffer.from(this.schemaBytes)) !== 0) {
      throw bad('pieces of one file have different schemas');
    }
    const groups = listField(meta, FMD.rowGroups).map((g) => (g.t === TType.STRUCT ? g.v : null));
    // everything after the magic up to the first page index (or the footer) is row group data
    let dataEnd = footerStart;
    for (const g of groups) {
      if (g === null) throw bad('row group is not a struct');
      for (const c of listField(g, RG.columns)) {
        if (c.t !== TType.STRUCT) throw bad('column chunk is not a struct');
        if (c.v.has(CC.filePath)) throw bad('column chunks in other files are not supported');
        for (const id of [CC.ciOffset, CC.oiOffset]) {
          const at = intField(c.v, id);
          if (at !== undefined && at < dataEnd) dataEnd = at;
        }
      }
    }
    if (this.pos === 0) await this.emit(MAGIC);
    const delta = this.pos - 4;
    const move = (s: TStruct, id: number): void => {
      const at = intField(s, id);
      if (at === undefined) return;
      if (at < 4 || at >= dataEnd) throw bad(`offset ${at} outside the row group data [4, ${dataEnd})`);
      setI64(s, id, at + delta);
    };
    for (const g of groups as TStruct[]) {
      move(g, RG.fileOffset);
      g.set(RG.ordinal, { t: TType.I16, v: this.rowGroups.length });
      for (const node of listField(g, RG.columns)) {
        const c = (node as { v: TStruct }).v;
        // deprecated ColumnChunk.file_offset: 0 from parquet-rs today, the chunk's end in older writers (unchecked)
        const fo = intField(c, CC.fileOffset) ?? 0;
        if (fo > 0) setI64(c, CC.fileOffset, fo + delta);
        const md = structField(c, CC.metaData);
        if (md === undefined) throw bad('column chunk without metadata');
        for (const id of [CMD.dataPageOffset, CMD.indexPageOffset, CMD.dictionaryPageOffset, CMD.bloomFilterOffset]) move(md, id);
        this.indexes.push({ chunk: c, columnIndex: this.indexBytes(file, c, CC.ciOffset, CC.ciLength, footerStart), offsetIndex: this.movedOffsetIndex(file, c, footerStart, delta) });
      }
      this.rowGroups.push({ t: TType.STRUCT, v: g });
      this.rows += BigInt(intField(g, 3) ?? 0);
    }
    await this.emit(file.subarray(4, dataEnd));
  }

  /** a copy of a page index's bytes (the piece's buffer is not kept); null when the chunk has none */
  private indexBytes(file: Uint8Array, c: TStruct, offsetId: number, lengthId: number, footerStart: number): Uint8Array | null {
    const at = intField(c, offsetId);
    const len = intField(c, lengthId);
    c.delete(offsetId);
    c.delete(lengthId);
    if (at === undefined || len === undefined) return null;
    if (at < 4 || at + len > footerStart) throw bad('page index outside the file');
    return file.slice(at, at + len);
  }

  /** the chunk's OffsetIndex with its page offsets moved by `delta`, encoded */
  private movedOffsetIndex(file: Uint8Array, c: TStruct, footerStart: number, delta: number): Uint8Array | null {
    const raw = this.indexBytes(file, c, CC.oiOffset, CC.oiLength, footerStart);
    if (raw === null) return null;
    const oi = decodeThriftStruct(raw).struct;
    for (const loc of listField(oi, OI.pageLocations)) {
      if (loc.t !== TType.STRUCT) throw bad('page location is not a struct');
      const at = intField(loc.v, PL.offset);
      if (at !== undefined) setI64(loc.v, PL.offset, at + delta);
    }
    return encodeThriftStruct(oi);
  }

  /** writes the page indexes and the footer; returns the file size. Nothing may be appended afterwards. */
  async finish(): Promise<number> {
    await this.queue;
    if (this.failed !== null) throw this.failed;
    if (this.meta === null) throw bad('no row group appended');
    // the spec's order: every ColumnIndex, then every OffsetIndex, then the footer
    for (const [kind, offsetId, lengthId] of [['columnIndex', CC.ciOffset, CC.ciLength], ['offsetIndex', CC.oiOffset, CC.oiLength]] as const) {
      for (const ix of this.indexes) {
        const bytes = ix[kind];
        if (bytes === null) continue;
        setI64(ix.chunk, offsetId, this.pos);
        ix.chunk.set(lengthId, { t: TType.I32, v: bytes.byteLength });
        await this.emit(bytes);
      }
    }
    const meta: TStruct = new Map(this.meta);
    meta.set(FMD.numRows, { t: TType.I64, v: this.rows });
    meta.set(FMD.rowGroups, { t: TType.LIST, et: TType.STRUCT, v: this.rowGroups });
    const footer = encodeThriftStruct(meta);
    const tail = new Uint8Array(footer.byteLength + 8);
    tail.set(footer);
    new DataView(tail.buffer).setUint32(footer.byteLength, footer.byteLength, true);
    tail.set(MAGIC, footer.byteLength + 4);
    await this.emit(tail);
    return this.pos;
  }
}
