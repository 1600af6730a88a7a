/**
 * COPY … FROM STDIN decoders: text, csv and binary CopyData streams → rows of column values, with
 * PostgreSQL's errors (22P04 bad_copy_file_format, 22P02 from the type input functions) naming the line.
 * Streaming: input is decoded chunk by chunk and rows are handed out in batches.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9
 */
import { GatewayError, pgError, toGatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { OutputSettings } from '../../wire/handler.ts';
import { binaryIn, textIn } from '../../common/pgtypes/index.ts';
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import { bpcharLength, varcharLength } from '../../functions/index.ts';
import type { CopyOptions } from './copy-options.ts';

/**
 * char(n) / varchar(n) columns: the input functions with the column's typmod blank-pad char(n) and raise
 * 22001 for values too long, as INSERT's assignment coercion does (textIn leaves strings as they are)
 */
function charTypmod(type: SqlType, v: unknown): unknown {
  if (type.typmod < 4 || typeof v !== 'string') return v;
  if (type.oid === Oid.bpchar) return bpcharLength(v, type.typmod, false);
  if (type.oid === Oid.varchar) return varcharLength(v, type.typmod, false);
  return v;
}

export interface CopyTarget {
  readonly table: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: SqlType }>;
}

/**
 * yields the rows (arrays of values in target column order) decoded from each CopyData payload, one array
 * of rows per payload: handing rows out one by one through an async generator costs more than decoding them
 */
export async function* decodeCopyIn(data: AsyncIterable<Uint8Array>, options: CopyOptions, target: CopyTarget, settings: OutputSettings): AsyncIterable<unknown[][]> {
  if (options.format === 'binary') {
    yield* decodeBinary(data, target);
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const csv = options.format === 'csv';
  const fields = csv ? new CsvFieldReader(options, target) : null;
  let buffer = '';
  let line = 0;
  let headerPending = options.header;
  for await (const chunk of data) {
    buffer += decoder.decode(chunk, { stream: true });
    const out: unknown[][] = [];
    let start = 0;
    for (;;) {
      const end = fields !== null ? fields.read(buffer, start) : buffer.indexOf('\n', start);
      if (end < 0) break;
      const recordStart = start;
      start = end + 1;
      line++;
      if (isEndMarker(buffer, recordStart, end)) {
        if (out.length > 0) yield out;
        return;
      }
      if (headerPending) {
        headerPending = false;
        continue;
      }
      if (fields !== null) out.push(fields.row(line, settings));
      else out.push(parseRow(buffer.slice(recordStart, end).replace(/\r$/, ''), line, options, target, settings));
    }
    buffer = buffer.slice(start);
    if (out.length > 0) yield out;
  }
  buffer += decoder.decode();
  if (buffer.length > 0 && buffer !== '\\.') {
    line++;
    if (!headerPending) yield [parseRow(buffer.replace(/\r$/, ''), line, options, target, settings)];
  }
}

/** the record [start, end) is the end-of-data marker `\.` (with an optional \r) */
function isEndMarker(buffer: string, start: number, end: number): boolean {
  const len = end - start;
  if (len !== 2 && len !== 3) return false;
  if (buffer.charCodeAt(start) !== 92 || buffer.charCodeAt(start + 1) !== 46) return false;
  return len === 2 || buffer.charCodeAt(start + 2) === 13;
}

/**
 * One pass over a CSV record straight from the decode buffer: fields are slices of it (no per-character
 * string building), the same quote/escape rules as csvRecordEnd + splitCsv (a quoted newline is data; a
 * trailing \r of the record is dropped). `read` returns the index of the record's newline, or -1 when the
 * buffer ends first (the caller waits for more input; the last, unterminated record goes through parseRow).
 */
class CsvFieldReader {
  private readonly texts: string[] = [];
  private readonly quoted: boolean[] = [];
  private readonly quote: number;
  private readonly escape: number;
  private readonly delimiter: number;
  private readonly quoteStr: string;
  private readonly forceNotNull: boolean[];
  private readonly forceNull: boolean[];

  constructor(private readonly options: CopyOptions, private readonly target: CopyTarget) {
    this.quote = options.quote.charCodeAt(0);
    this.escape = options.escape.charCodeAt(0);
    this.delimiter = options.delimiter.charCodeAt(0);
    this.quoteStr = options.quote;
    this.forceNotNull = target.columns.map((c) => options.forceNotNull.includes(c.name));
    this.forceNull = target.columns.map((c) => options.forceNull.includes(c.name));
  }

  read(buffer: string, start: number): number {
    const { quote, escape, delimiter, texts, quoted } = this;
    const len = buffer.length;
    texts.length = 0;
    quoted.length = 0;
    let text = '';
    let isQuoted = false;
    let inQuote = false;
    let seg = start;
    let i = start;
    while (i < len) {
      const ch = buffer.charCodeAt(i);
      if (inQuote) {
        if (ch === escape || ch === quote) {
          if (i + 1 >= len) return -1;
          if (buffer.charCodeAt(i + 1) === quote && (ch === escape || escape === quote)) {
            text += buffer.slice(seg, i) + this.quoteStr;
            i += 2;
            seg = i;
            continue;
          }
          if (ch === quote) {
            text += buffer.slice(seg, i);
            inQuote = false;
            seg = ++i;
            continue;
          }
        }
        i++;
      } else if (ch === quote) {
        text += buffer.slice(seg, i);
        inQuote = true;
        isQuoted = true;
        seg = ++i;
      } else if (ch === delimiter) {
        texts.push(text + buffer.slice(seg, i));
        quoted.push(isQuoted);
        text = '';
        isQuoted = false;
        seg = ++i;
      } else if (ch === 10) {
        // the record's trailing \r (outside quotes, so in this segment) is not data
        const segEnd = i > seg && buffer.charCodeAt(i - 1) === 13 ? i - 1 : i;
        texts.push(text + buffer.slice(seg, segEnd));
        quoted.push(isQuoted);
        return i;
      } else i++;
    }
    return -1;
  }

  /** the fields of the record just read → values, with parseRow's NULL rules and errors */
  row(line: number, settings: OutputSettings): unknown[] {
    const { texts, quoted, options, target } = this;
    const n = target.columns.length;
    if (texts.length < n) {
      throw pgError(SqlState.bad_copy_file_format, `missing data for column "${target.columns[texts.length]!.name}"`, { where: `COPY ${target.table}, line ${line}` });
    }
    if (texts.length > n) throw pgError(SqlState.bad_copy_file_format, 'extra data after last expected column', { where: `COPY ${target.table}, line ${line}` });
    const row = new Array<unknown>(n);
    const nullString = options.nullString;
    for (let c = 0; c < n; c++) {
      const text = texts[c]!;
      const isNull = text === nullString && (quoted[c] ? this.forceNull[c]! : !this.forceNotNull[c]!);
      if (isNull) {
        row[c] = null;
        continue;
      }
      const col = target.columns[c]!;
      try {
        row[c] = charTypmod(col.type, textIn(col.type.oid, col.type.typmod, text, settings));
      } catch (e) {
        const err = toGatewayError(e);
        throw new GatewayError(err.code, err.message, { where: `COPY ${target.table}, line ${line}, column ${col.name}: "${text}"` });
      }
    }
    return row;
  }
}

function parseRow(raw: string, line: number, options: CopyOptions, target: CopyTarget, settings: OutputSettings): unknown[] {
  const fields = options.format === 'csv' ? splitCsv(raw, options) : splitText(raw, options.delimiter);
  const where = `COPY ${target.table}, line ${line}`;
  const n = target.columns.length;
  if (fields.length < n) {
    throw pgError(SqlState.bad_copy_file_format, `missing data for column "${target.columns[fields.length]!.name}"`, { where });
  }
  if (fields.length > n) throw pgError(SqlState.bad_copy_file_format, 'extra data after last expected column', { where });
  const row = new Array<unknown>(n);
  for (let c = 0; c < n; c++) {
    const field = fields[c]!;
    const col = target.columns[c]!;
    let text: string | null;
    if (options.format === 'csv') {
      const quoted = (field as CsvField).quoted;
      text = (field as CsvField).text;
      if (!quoted && text === options.nullString && !options.forceNotNull.includes(col.name)) text = null;
      else if (quoted && text === options.nullString && options.forceNull.includes(col.name)) text = null;
    } else {
      text = field as string | null;
      if (text === options.nullString) text = null;
      else if (text !== null) text = unescapeText(text);
    }
    try {
      row[c] = text === null ? null : charTypmod(col.type, textIn(col.type.oid, col.type.typmod, text, settings));
    } catch (e) {
      const err = toGatewayError(e);
      throw new GatewayError(err.code, err.message, { where: `${where}, column ${col.name}: "${text}"` });
    }
  }
  return row;
}

function splitText(raw: string, delimiter: string): Array<string | null> {
  // a backslash-escaped delimiter is data, so split by scanning
  const out: string[] = [];
  let field = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length) {
      field += ch + raw[i + 1];
      i++;
    } else if (ch === delimiter) {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

function unescapeText(s: string): string {
  if (!s.includes('\\')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== '\\' || i + 1 >= s.length) {
      out += ch;
      continue;
    }
    const next = s[++i]!;
    switch (next) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'v': out += '\v'; break;
      case 'x': {
        const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
        if (m === null) out += 'x';
        else {
          out += String.fromCharCode(parseInt(m[0], 16));
          i += m[0].length;
        }
        break;
      }
      default:
        if (next >= '0' && next <= '7') {
          const m = /^[0-7]{1,3}/.exec(s.slice(i))!;
          out += String.fromCharCode(parseInt(m[0], 8));
          i += m[0].length - 1;
        } else out += next;
    }
  }
  return out;
}

interface CsvField {
  readonly text: string;
  readonly quoted: boolean;
}

/** index of the newline ending the CSV record that starts at `start` (quotes may span lines), or -1 */
function csvRecordEnd(buffer: string, start: number, options: CopyOptions): number {
  let inQuote = false;
  for (let i = start; i < buffer.length; i++) {
    const ch = buffer[i];
    if (inQuote) {
      if (ch === options.escape && options.escape !== options.quote && buffer[i + 1] === options.quote) i++;
      else if (ch === options.quote) {
        if (options.escape === options.quote && buffer[i + 1] === options.quote) i++;
        else inQuote = false;
      }
    } else if (ch === options.quote) inQuote = true;
    else if (ch === '\n') return i;
  }
  return -1;
}

function splitCsv(raw: string, options: CopyOptions): CsvField[] {
  const out: CsvField[] = [];
  let text = '';
  let quoted = false;
  let inQuote = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (inQuote) {
      if (ch === options.escape && raw[i + 1] === options.quote) {
        text += options.quote;
        i++;
        continue;
      }
      if (ch === options.quote) inQuote = false;
      else text += ch;
    } else if (ch === options.quote) {
      inQuote = true;
      quoted = true;
    } else if (ch === options.delimiter) {
      out.push({ text, quoted });
      text = '';
      quoted = false;
    } else text += ch;
  }
  if (inQuote) throw pgError(SqlState.bad_copy_file_format, 'unterminated CSV quoted field');
  out.push({ text, quoted });
  return out;
}

const SIGNATURE = [0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00];

async function* decodeBinary(data: AsyncIterable<Uint8Array>, target: CopyTarget): AsyncIterable<unknown[][]> {
  let buf: Uint8Array = new Uint8Array(0);
  let pos = 0;
  let headerDone = false;
  let line = 0;
  const where = () => `COPY ${target.table}, line ${line}`;
  for await (const chunk of data) {
    const merged = new Uint8Array(buf.length - pos + chunk.length);
    merged.set(buf.subarray(pos), 0);
    merged.set(chunk, buf.length - pos);
    buf = merged;
    pos = 0;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    if (!headerDone) {
      if (buf.length < 19) continue;
      if (!SIGNATURE.every((b, i) => buf[i] === b)) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
      const extLen = view.getInt32(15);
      if (buf.length < 19 + extLen) continue;
      pos = 19 + extLen;
      headerDone = true;
    }
    const out: unknown[][] = [];
    for (;;) {
      if (buf.length - pos < 2) break;
      const count = view.getInt16(pos);
      if (count === -1) {
        if (out.length > 0) yield out;
        return;
      }
      if (count !== target.columns.length) {
        line++;
        throw pgError(SqlState.bad_copy_file_format, `row field count is ${count}, expected ${target.columns.length}`, { where: where() });
      }
      let p = pos + 2;
      const row = new Array<unknown>(count);
      let complete = true;
      for (let c = 0; c < count; c++) {
        if (buf.length - p < 4) {
          complete = false;
          break;
        }
        const len = view.getInt32(p);
        p += 4;
        if (len === -1) {
          row[c] = null;
          continue;
        }
        if (buf.length - p < len) {
          complete = false;
          break;
        }
        try {
          row[c] = binaryIn(target.columns[c]!.type.oid, buf.subarray(p, p + len));
        } catch (e) {
          // PostgreSQL's CONTEXT for binary input names the line (tuple) and column, not the bytes
          const err = toGatewayError(e);
          throw new GatewayError(err.code, err.message, { where: `COPY ${target.table}, line ${line + 1}, column ${target.columns[c]!.name}` });
        }
        p += len;
      }
      if (!complete) break;
      pos = p;
      line++;
      out.push(row);
    }
    if (out.length > 0) yield out;
  }
  if (!headerDone) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
}
