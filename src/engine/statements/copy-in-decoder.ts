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
import type { SqlType } from '../../common/pgtypes/oids.ts';
import type { CopyOptions } from './copy-options.ts';

export interface CopyTarget {
  readonly table: string;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly type: SqlType }>;
}

/** yields rows (arrays of values in target column order) from the raw CopyData payloads */
export async function* decodeCopyIn(data: AsyncIterable<Uint8Array>, options: CopyOptions, target: CopyTarget, settings: OutputSettings): AsyncIterable<unknown[]> {
  if (options.format === 'binary') {
    yield* decodeBinary(data, target);
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let buffer = '';
  let line = 0;
  let headerPending = options.header;
  const csv = options.format === 'csv';
  for await (const chunk of data) {
    buffer += decoder.decode(chunk, { stream: true });
    let start = 0;
    for (;;) {
      const end = csv ? csvRecordEnd(buffer, start, options) : buffer.indexOf('\n', start);
      if (end < 0) break;
      const raw = buffer.slice(start, end).replace(/\r$/, '');
      start = end + 1;
      line++;
      if (raw === '\\.') return;
      if (headerPending) {
        headerPending = false;
        continue;
      }
      yield parseRow(raw, line, options, target, settings);
    }
    buffer = buffer.slice(start);
  }
  buffer += decoder.decode();
  if (buffer.length > 0 && buffer !== '\\.') {
    line++;
    if (!headerPending) yield parseRow(buffer.replace(/\r$/, ''), line, options, target, settings);
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
      row[c] = text === null ? null : textIn(col.type.oid, col.type.typmod, text, settings);
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

async function* decodeBinary(data: AsyncIterable<Uint8Array>, target: CopyTarget): AsyncIterable<unknown[]> {
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
    for (;;) {
      if (buf.length - pos < 2) break;
      const count = view.getInt16(pos);
      if (count === -1) return;
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
        row[c] = binaryIn(target.columns[c]!.type.oid, buf.subarray(p, p + len));
        p += len;
      }
      if (!complete) break;
      pos = p;
      line++;
      yield row;
    }
  }
  if (!headerDone) throw pgError(SqlState.bad_copy_file_format, 'COPY file signature not recognized');
}
