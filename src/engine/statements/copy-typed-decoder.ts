/**
 * COPY … FROM STDIN (text and csv formats) decoded straight from the CopyData bytes into typed column
 * buffers (iceberg/write/typed-columns.ts): records are split in one pass over the bytes, fields go to
 * their column's fast parser (copy-column-sinks.ts) or, for any other spelling, through the type's input
 * function — no string per record, no array per row, no JS value per field on the fast path. The rules are
 * the ones of copy-in-decoder.ts (quotes, ESCAPE, FORCE_NULL / FORCE_NOT_NULL, HEADER, `\.`, a trailing \r,
 * the last record without a newline) and so are the errors (22P04 with the line, 22P02 etc. with the line,
 * column and value, 22021 for bytes that are not UTF-8). A clean record (csv: no quote; text: no backslash)
 * is split and converted in one walk without recording field bounds (cleanRecord); errors keep PostgreSQL's
 * order on both paths (extra data first, a missing column after the columns before it). Runs of clean records
 * go first through a loop generated for the table's columns (copy-record-compiler.ts: one pass per record, each
 * column's parser inlined), which leaves every record it cannot take whole to cleanRecord and the general readers.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9
 */
import { isUtf8 } from 'node:buffer';
import { GatewayError, pgError, toGatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { textIn } from '../../common/pgtypes/index.ts';
import type { OutputSettings } from '../../wire/handler.ts';
import { TypedBatch } from '../../iceberg/write/typed-columns.ts';
import type { CopyOptions } from './copy-options.ts';
import type { CopyTarget } from './copy-in-decoder.ts';
import { charTypmod, unescapeText } from './copy-text-fields.ts';
import { CopyColumnSink } from './copy-column-sinks.ts';
import { compileCleanRecordLoop, type CleanRecordHost, type CleanRecordLoop } from './copy-record-compiler.ts';

/** rows per TypedBatch */
export const TYPED_BATCH_ROWS = 16384;

const QUOTED = 1;
const SCRATCH = 2;
const BACKSLASH = 4;

const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** the field bounds of one record, as the readers find them */
class RecordFields {
  count = 0;
  starts = new Int32Array(16);
  ends = new Int32Array(16);
  flags = new Uint8Array(16);
  scratch = new Uint8Array(1024);
  scratchPos = 0;

  push(start: number, end: number, flags: number): void {
    const n = this.count;
    if (n === this.starts.length) this.grow();
    this.starts[n] = start;
    this.ends[n] = end;
    this.flags[n] = flags;
    this.count = n + 1;
  }

  /**
   * doubles the bounds arrays. A method of its own: a closure in push() capturing its locals made V8 allocate
   * a context on every push (16 per lineitem record, ≈ 600 bytes: most of a COPY's young-generation garbage)
   */
  private grow(): void {
    const n = this.starts.length * 2;
    const starts = new Int32Array(n);
    starts.set(this.starts);
    const ends = new Int32Array(n);
    ends.set(this.ends);
    const flags = new Uint8Array(n);
    flags.set(this.flags);
    this.starts = starts;
    this.ends = ends;
    this.flags = flags;
  }

  scratchByte(b: number): void {
    if (this.scratchPos === this.scratch.length) {
      const grown = new Uint8Array(this.scratch.length * 2);
      grown.set(this.scratch);
      this.scratch = grown;
    }
    this.scratch[this.scratchPos++] = b;
  }
}

export class CopyTypedDecoder implements CleanRecordHost {
  private readonly fields = new RecordFields();
  private readonly sinks: CopyColumnSink[];
  private readonly csv: boolean;
  private readonly delimiter: number;
  private readonly quote: number;
  private readonly escape: number;
  private readonly nullBytes: Uint8Array;
  private readonly forceNotNull: boolean[];
  private readonly forceNull: boolean[];
  /** records read so far (also updated by the generated clean-record loop, as are rows and the clean counters) */
  line = 0;
  /** newlines inside quotes of the csv record just read: PostgreSQL counts them as lines (CopyReadLineText) */
  private quotedNewlines = 0;
  rows = 0;
  /**
   * clean records (no quote in csv, no backslash in text) take a path without RecordFields: csv with the
   * empty NULL string, text with a NULL string holding a backslash (no field of a clean record is NULL then)
   */
  private readonly cleanPath: boolean;
  /** the quote (csv) or backslash (text) byte whose absence makes a record clean */
  private readonly special: number;
  /**
   * records tried on the clean path in this batch, and those found not clean: when over a quarter were not
   * (TPC-H lineitem csv: 43 % have a quoted comment), the next batch tries only every 16th record, since a
   * record that is not clean is read twice
   */
  /**
   * the clean path parses fields as it finds their ends (CopyColumnSink.scan): not when the delimiter is a byte of
   * a number's or a date's spelling (csv allows a digit, `-` or `.`), which only splitting first reads right
   */
  private readonly scanFields: boolean;
  /** records decoded on the clean path (tests pin which records take it) */
  cleanDecoded = 0;
  cleanTried = 0;
  private cleanMissed = 0;
  cleanRarely = false;
  /**
   * cleanRecord generated for this table's columns (copy-record-compiler.ts: each column's parser inlined, no
   * per-field dispatch); null where fields are split before parsing (scanFields false) or the clean path is off
   */
  private readonly cleanLoop: CleanRecordLoop | null;
  /** records decoded by cleanLoop (tests pin which records take it) */
  private loopDecoded = 0;

  private headerPending: boolean;
  private ended = false;
  private readonly done: TypedBatch[] = [];

  /**
   * `clean` false: every record through the general readers; `compiled` false: clean records through cleanRecord
   * rather than the generated loop (tests compare the paths)
   */
  constructor(private readonly options: CopyOptions, private readonly target: CopyTarget, private readonly settings: OutputSettings, private readonly batchRows = TYPED_BATCH_ROWS, clean = true, compiled = true) {
    this.csv = options.format === 'csv';
    this.delimiter = options.delimiter.charCodeAt(0);
    this.quote = options.quote.charCodeAt(0);
    this.escape = options.escape.charCodeAt(0);
    this.nullBytes = encoder.encode(options.nullString);
    this.forceNotNull = target.columns.map((c) => options.forceNotNull.includes(c.name));
    this.forceNull = target.columns.map((c) => options.forceNull.includes(c.name));
    this.headerPending = options.header;
    this.sinks = target.columns.map((c) => new CopyColumnSink(c.type, batchRows));
    this.special = this.csv ? this.quote : 92;
    this.cleanPath = clean && (this.csv ? this.nullBytes.length === 0 : this.nullBytes.includes(92));
    this.scanFields = !((this.delimiter >= 48 && this.delimiter <= 57) || this.delimiter === 45 || this.delimiter === 46);
    this.cleanLoop = this.cleanPath && this.scanFields && compiled
      ? compileCleanRecordLoop({
        csv: this.csv, delimiter: this.delimiter, quote: this.quote, escape: this.escape, forceNull: this.forceNull,
        forceNotNull: this.forceNotNull, batchRows,
      }, this.sinks)
      : null;
  }

  /** records read so far (header and end marker included): the line number errors name */
  get lines(): number {
    return this.line;
  }

  /** records decoded on the clean path so far */
  get cleanRecords(): number {
    return this.cleanDecoded;
  }

  /** records decoded by the generated clean-record loop so far (a part of cleanRecords) */
  get compiledRecords(): number {
    return this.loopDecoded;
  }

  /** true once `\.` was read (the rest of the input is ignored) */
  get finished(): boolean {
    return this.ended;
  }

  /**
   * decodes every complete record of buf[start, buf.length) (UTF-8 already checked) and returns where the
   * first incomplete one starts; `eof`: buf ends with the input (its last record has had a newline added)
   */
  decode(buf: Uint8Array, start: number, eof: boolean): number {
    const len = buf.length;
    let pos = start;
    const loop = this.cleanLoop;
    while (pos < len && !this.ended) {
      if (loop !== null && !this.cleanRarely && !this.headerPending) {
        // runs of clean records; it stops before a record the lines below take (then it is called again)
        const before = this.cleanDecoded;
        const next = loop(this, buf, pos, len);
        this.loopDecoded += this.cleanDecoded - before;
        if (next !== pos) {
          pos = next;
          continue;
        }
      }
      if (this.cleanPath) {
        const next = this.cleanRecord(buf, pos, len);
        if (next >= 0) {
          pos = next;
          continue;
        }
      }
      const nl = this.csv ? this.readCsv(buf, pos, len) : this.readText(buf, pos, len);
      if (nl < 0) {
        if (eof && this.csv) throw pgError(SqlState.bad_copy_file_format, 'unterminated CSV quoted field');
        break;
      }
      const recordStart = pos;
      pos = nl + 1;
      this.line += 1 + this.quotedNewlines;
      if (isEndMarker(buf, recordStart, nl)) {
        this.ended = true;
        break;
      }
      if (this.headerPending) {
        this.headerPending = false;
        continue;
      }
      this.convert(buf);
    }
    return pos;
  }

  /** batches completed since the last call */
  take(): TypedBatch[] {
    return this.done.splice(0);
  }

  /** the rows of the last, partial batch (`more` false: the decoder is not used afterwards) */
  finish(more = true): TypedBatch | null {
    if (this.rows === 0) return null;
    const b = new TypedBatch(this.rows, this.sinks.map((s) => s.finish(more)));
    this.rows = 0;
    return b;
  }

  /**
   * the record at `start` when it is complete and clean (see cleanPath): decoded, and the start of the next
   * one returned; -1 otherwise (the general readers take it). Fields are split and converted in one walk
   * along the record, with the errors in PostgreSQL's order: extra data before any conversion error, a
   * missing column after the conversions of the columns before it. csv: a record whose last field is quoted
   * with nothing to undo inside (no quote, escape or newline) is clean too — TPC-H lineitem quotes 43 % of its
   * comments (commas, edge blanks), which sent the whole load to the general readers (see cleanRarely).
   */
  private cleanRecord(buf: Uint8Array, start: number, len: number): number {
    if (this.cleanRarely && (this.rows & 15) !== 0) return -1;
    // one pass to the newline, watching for the special byte (a native indexOf per record cost more)
    const special = this.special;
    let nl = start;
    /** csv: the opening quote of a simply quoted last field (-1: none); its value is buf[open + 1, close) */
    let open = -1;
    let close = -1;
    this.cleanTried++;
    for (; nl < len; nl++) {
      const b = buf[nl]!;
      if (b === 10) break;
      if (b === special) {
        close = this.csv ? simpleQuotedLastField(buf, start, nl, len, this.delimiter, special, this.escape) : -1;
        if (close < 0) {
          this.cleanMissed++;
          return -1;
        }
        open = nl;
        nl = close + 1;
        break;
      }
    }
    if (nl >= len) return -1;
    this.line++;
    if (isEndMarker(buf, start, nl)) {
      this.ended = true;
      return nl + 1;
    }
    if (this.headerPending) {
      this.headerPending = false;
      return nl + 1;
    }
    // the unquoted fields end at `end`: before the delimiter ahead of the quoted field, or at the record's end
    const end = open >= 0 ? open - 1 : nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
    const cols = this.target.columns;
    const n = cols.length;
    const delimiter = this.delimiter;
    const csv = this.csv;
    const scan = this.scanFields;
    let p = start;
    for (let c = 0; c < n; c++) {
      const sink = this.sinks[c]!;
      if (p === open) {
        // the quoted field: '' is the NULL string only under FORCE_NULL
        if (this.forceNull[c]! && close === open + 1) sink.appendNull();
        else if (!sink.fast(buf, open + 1, close)) {
          this.checkFieldCount(buf, start, open);
          this.slow(c, buf, open + 1, close, false);
        }
        if (c + 1 < n) throw pgError(SqlState.bad_copy_file_format, `missing data for column "${cols[c + 1]!.name}"`, { where: `COPY ${this.target.table}, line ${this.line}` });
        p = -1;
        break;
      }
      if (p > end) throw pgError(SqlState.bad_copy_file_format, `missing data for column "${cols[c]!.name}"`, { where: `COPY ${this.target.table}, line ${this.line}` });
      // csv: an empty unquoted field is the NULL string ''
      if (csv && (p === end || buf[p] === delimiter) && !this.forceNotNull[c]!) {
        sink.appendNull();
        p++;
        continue;
      }
      // the field's end found while parsing it (copy-field-scanners.ts), else split first
      let e = scan ? sink.scan(buf, p, end, delimiter) : -1;
      if (e < 0) {
        e = p;
        while (e < end && buf[e] !== delimiter) e++;
        if (!sink.fast(buf, p, e)) {
          this.checkFieldCount(buf, start, open >= 0 ? open : end);
          this.slow(c, buf, p, e, false);
        }
      }
      p = e + 1;
    }
    // fields left over: unquoted ones before `end`, or the quoted one
    if (p >= 0 && (p <= end || open >= 0)) throw pgError(SqlState.bad_copy_file_format, 'extra data after last expected column', { where: `COPY ${this.target.table}, line ${this.line}` });
    this.cleanDecoded++;
    this.rowDone();
    return nl + 1;
  }

  /** a clean record with more fields than columns: PostgreSQL says so before converting any field */
  private checkFieldCount(buf: Uint8Array, start: number, end: number): void {
    let fields = 1;
    for (let i = start; i < end; i++) if (buf[i] === this.delimiter) fields++;
    if (fields > this.target.columns.length) throw pgError(SqlState.bad_copy_file_format, 'extra data after last expected column', { where: `COPY ${this.target.table}, line ${this.line}` });
  }

  /** one CSV record from `start`: field bounds into this.fields; the index of its newline, or -1 when incomplete */
  private readCsv(buf: Uint8Array, start: number, len: number): number {
    const { delimiter, quote, escape } = this;
    const f = this.fields;
    f.count = 0;
    f.scratchPos = 0;
    this.quotedNewlines = 0;
    let i = start;
    for (;;) {
      const fs = i;
      let c = 0;
      while (i < len) {
        c = buf[i]!;
        if (c === delimiter || c === 10 || c === quote) break;
        i++;
      }
      if (i >= len) return -1;
      if (c !== quote) {
        // the record's trailing \r is not data
        f.push(fs, c === 10 && i > fs && buf[i - 1] === 13 ? i - 1 : i, 0);
        if (c === 10) return i;
        i++;
        continue;
      }
      if (i === fs) {
        // the usual quoted field, "…" with no quote, escape or newline inside and a delimiter or the newline
        // after it: its bytes stay where they are (no copy into the scratch buffer)
        let k = i + 1;
        while (k < len) {
          const b = buf[k]!;
          if (b === quote || b === escape || b === 10) break;
          k++;
        }
        if (k + 1 < len && buf[k] === quote) {
          const after = buf[k + 1]!;
          if (after === delimiter || after === 10) {
            f.push(i + 1, k, QUOTED);
            if (after === 10) return k + 1;
            i = k + 2;
            continue;
          }
        }
      }
      // quoted: the field's bytes are gathered in the scratch buffer (doubled quotes and escapes undone)
      const ss = f.scratchPos;
      for (let k = fs; k < i; k++) f.scratchByte(buf[k]!);
      let inQuote = true;
      let seg = ss;
      i++;
      for (;;) {
        if (i >= len) return -1;
        c = buf[i]!;
        if (inQuote) {
          if (c === escape || c === quote) {
            if (i + 1 >= len) return -1;
            // PostgreSQL: inside quotes the escape takes the next byte when it is the quote or the escape itself
            const next = buf[i + 1]!;
            if (c === escape && (next === quote || next === escape)) {
              f.scratchByte(next);
              i += 2;
              continue;
            }
            if (c === quote) {
              inQuote = false;
              seg = f.scratchPos;
              i++;
              continue;
            }
          }
          if (c === 10) this.quotedNewlines++;
          f.scratchByte(c);
          i++;
        } else if (c === quote) {
          inQuote = true;
          i++;
        } else if (c === delimiter || c === 10) {
          const fe = c === 10 && f.scratchPos > seg && f.scratch[f.scratchPos - 1] === 13 ? f.scratchPos - 1 : f.scratchPos;
          f.push(ss, fe, QUOTED | SCRATCH);
          if (c === 10) return i;
          i++;
          break;
        } else {
          f.scratchByte(c);
          i++;
        }
      }
    }
  }

  /** one text-format record: split at the delimiter, a backslash pair is data (unescaped on conversion) */
  private readText(buf: Uint8Array, start: number, len: number): number {
    const nl = buf.indexOf(10, start);
    if (nl < 0 || nl >= len) return -1;
    const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
    const f = this.fields;
    const delimiter = this.delimiter;
    f.count = 0;
    let fs = start;
    let flags = 0;
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (c === 92 && i + 1 < end) {
        flags = BACKSLASH;
        i++;
      } else if (c === delimiter) {
        f.push(fs, i, flags);
        fs = i + 1;
        flags = 0;
      }
    }
    f.push(fs, end, flags);
    return nl;
  }

  private isNullText(src: Uint8Array, start: number, end: number): boolean {
    const nb = this.nullBytes;
    if (end - start !== nb.length) return false;
    for (let k = 0; k < nb.length; k++) if (src[start + k] !== nb[k]) return false;
    return true;
  }

  /** the record in this.fields → one row appended to the sinks */
  private convert(buf: Uint8Array): void {
    const f = this.fields;
    const cols = this.target.columns;
    const n = cols.length;
    // PostgreSQL's order (NextCopyFrom): extra data first, a missing column once the columns before it converted
    if (f.count > n) throw pgError(SqlState.bad_copy_file_format, 'extra data after last expected column', { where: `COPY ${this.target.table}, line ${this.line}` });
    for (let c = 0; c < n; c++) {
      if (c >= f.count) throw pgError(SqlState.bad_copy_file_format, `missing data for column "${cols[c]!.name}"`, { where: `COPY ${this.target.table}, line ${this.line}` });
      const flags = f.flags[c]!;
      const src = (flags & SCRATCH) !== 0 ? f.scratch : buf;
      const s = f.starts[c]!;
      const e = f.ends[c]!;
      const sink = this.sinks[c]!;
      if (this.isNullText(src, s, e) && (this.csv ? ((flags & QUOTED) !== 0 ? this.forceNull[c]! : !this.forceNotNull[c]!) : true)) {
        sink.appendNull();
        continue;
      }
      if ((flags & BACKSLASH) !== 0 || !sink.fast(src, s, e)) this.slow(c, src, s, e, (flags & BACKSLASH) !== 0);
    }
    this.rowDone();
  }

  private rowDone(): void {
    if (++this.rows === this.batchRows) this.batchDone();
  }

  /** the batch is full: handed over, every sink starts a new one */
  batchDone(): void {
    this.done.push(new TypedBatch(this.rows, this.sinks.map((s) => s.finish())));
    this.rows = 0;
    this.cleanRarely = this.cleanMissed * 4 > this.cleanTried;
    this.cleanTried = this.cleanMissed = 0;
  }

  /** the type's input function, with copy-in-decoder.ts's error context */
  private slow(c: number, src: Uint8Array, s: number, e: number, unescape: boolean): void {
    let text = utf8.decode(src.subarray(s, e));
    if (unescape) text = unescapeText(text);
    const col = this.target.columns[c]!;
    let v: unknown;
    try {
      v = charTypmod(col.type, textIn(col.type.oid, col.type.typmod, text, this.settings));
    } catch (err) {
      const g = toGatewayError(err);
      throw new GatewayError(g.code, g.message, { where: `COPY ${this.target.table}, line ${this.line}, column ${col.name}: "${text}"` });
    }
    this.sinks[c]!.appendValue(v);
  }
}

/**
 * csv, a quote at buf[q] met on the clean path: when it opens the record's last field — at the record's start or
 * right after a delimiter — and that field closes with the quote right before the newline, with no quote, escape or
 * newline inside (nothing to undo, no line inside), the index of the closing quote; -1 otherwise (also when the
 * record is not complete in buf[, len))
 */
function simpleQuotedLastField(buf: Uint8Array, start: number, q: number, len: number, delimiter: number, quote: number, escape: number): number {
  if (q !== start && buf[q - 1] !== delimiter) return -1;
  let k = q + 1;
  while (k < len) {
    const b = buf[k]!;
    if (b === quote || b === escape || b === 10) break;
    k++;
  }
  return k + 1 < len && buf[k] === quote && buf[k + 1] === 10 ? k : -1;
}

/** the record [start, end) is the end-of-data marker `\.` (with an optional \r) */
function isEndMarker(buf: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len !== 2 && len !== 3) return false;
  if (buf[start] !== 92 || buf[start + 1] !== 46) return false;
  return len === 2 || buf[start + 2] === 13;
}

function checkUtf8(buf: Uint8Array, start: number, end: number): void {
  if (end > start && !isUtf8(buf.subarray(start, end))) {
    throw pgError(SqlState.character_not_in_repertoire, 'invalid byte sequence for encoding "UTF8"');
  }
}

/**
 * text / csv CopyData payloads → TypedBatches of TYPED_BATCH_ROWS rows (the last one shorter), columns in
 * target order. Records are decoded in place in each payload; the unfinished one at its end is carried to
 * the next. Bytes are checked as UTF-8 in whole lines (a newline never sits inside a multi-byte character).
 */
export async function* decodeCopyInTyped(data: AsyncIterable<Uint8Array>, options: CopyOptions, target: CopyTarget, settings: OutputSettings, batchRows = TYPED_BATCH_ROWS): AsyncIterable<TypedBatch> {
  const decoder = new CopyTypedDecoder(options, target, settings, batchRows);
  /** the unfinished record carried over from the previous payloads (a copy: payloads are not ours to keep) */
  let rest: Uint8Array | null = null;
  for await (const chunk of data) {
    let start = 0;
    if (rest !== null) {
      // finish the carried record with this payload's first line(s): only that piece is copied
      let from = 0;
      let nl = chunk.indexOf(10);
      for (;;) {
        const piece = nl < 0 ? chunk.subarray(from) : chunk.subarray(from, nl + 1);
        const merged: Uint8Array = new Uint8Array(rest.length + piece.length);
        merged.set(rest);
        merged.set(piece, rest.length);
        if (nl < 0) {
          rest = merged;
          break;
        }
        checkUtf8(merged, 0, merged.length);
        const pos = decoder.decode(merged, 0, false);
        if (decoder.finished || pos === merged.length) {
          rest = null;
          start = nl + 1;
          break;
        }
        // a quoted newline: the record goes on
        rest = pos === 0 ? merged : merged.slice(pos);
        from = nl + 1;
        nl = chunk.indexOf(10, from);
      }
      if (rest !== null && !decoder.finished) continue;
    }
    if (!decoder.finished) {
      const lastNewline = chunk.lastIndexOf(10);
      checkUtf8(chunk, start, lastNewline + 1);
      const pos = decoder.decode(chunk, start, false);
      if (pos < chunk.length) rest = chunk.slice(pos);
    }
    for (const b of decoder.take()) yield b;
    if (decoder.finished) {
      const last = decoder.finish();
      if (last !== null) yield last;
      return;
    }
  }
  if (rest !== null && rest.length > 0) {
    checkUtf8(rest, 0, rest.length);
    const buf = new Uint8Array(rest.length + 1);
    buf.set(rest);
    buf[rest.length] = 10;
    decoder.decode(buf, 0, true);
    for (const b of decoder.take()) yield b;
  }
  const last = decoder.finish();
  if (last !== null) yield last;
}
