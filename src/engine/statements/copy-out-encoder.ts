/**
 * COPY … TO STDOUT row encoders: text, csv and binary, one CopyData payload per row as PostgreSQL sends.
 * @see https://www.postgresql.org/docs/current/sql-copy.html#id-1.9.3.55.9
 */
import type { Batch } from '../../common/batch.ts';
import type { OutputSettings } from '../../wire/handler.ts';
import { binaryOut, textOut } from '../../common/pgtypes/index.ts';
import type { CopyOptions } from './copy-options.ts';

const encoder = new TextEncoder();
const BINARY_SIGNATURE = new Uint8Array([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);

export interface CopyColumn {
  readonly name: string;
  readonly typeOid: number;
}

export type RenderText = (typeOid: number, value: unknown) => string | null;

export class CopyOutEncoder {
  private readonly forceQuote: boolean[];

  constructor(
    private readonly columns: readonly CopyColumn[],
    private readonly options: CopyOptions,
    private readonly settings: OutputSettings,
    private readonly renderText: RenderText,
  ) {
    this.forceQuote = columns.map((c) => options.forceQuote === '*' || options.forceQuote.includes(c.name));
  }

  /** the binary file header, or the CSV/text header line, or null */
  header(): Uint8Array | null {
    if (this.options.format === 'binary') {
      const out = new Uint8Array(BINARY_SIGNATURE.length + 8);
      out.set(BINARY_SIGNATURE, 0);
      return out;
    }
    if (!this.options.header) return null;
    const names = this.columns.map((c) => (this.options.format === 'csv' ? this.csvField(c.name, false) : this.textField(c.name)));
    return encoder.encode(names.join(this.options.delimiter) + '\n');
  }

  trailer(): Uint8Array | null {
    return this.options.format === 'binary' ? new Uint8Array([0xff, 0xff]) : null;
  }

  *rows(batch: Batch): Iterable<Uint8Array> {
    for (let r = 0; r < batch.length; r++) yield this.row(batch, r);
  }

  private row(batch: Batch, r: number): Uint8Array {
    if (this.options.format === 'binary') return this.binaryRow(batch, r);
    const fields: string[] = [];
    for (let c = 0; c < this.columns.length; c++) {
      const v = batch.columns[c]?.[r] ?? null;
      if (v === null) {
        fields.push(this.options.nullString);
        continue;
      }
      const text = this.text(c, v);
      fields.push(this.options.format === 'csv' ? this.csvField(text, this.forceQuote[c] === true) : this.textField(text));
    }
    return encoder.encode(fields.join(this.options.delimiter) + '\n');
  }

  private text(c: number, v: unknown): string {
    const oid = this.columns[c]!.typeOid;
    return this.renderText(oid, v) ?? textOut(oid, v, this.settings);
  }

  private textField(s: string): string {
    let out = '';
    const delim = this.options.delimiter;
    for (const ch of s) {
      if (ch === '\\') out += '\\\\';
      else if (ch === '\n') out += '\\n';
      else if (ch === '\r') out += '\\r';
      else if (ch === '\t' && delim === '\t') out += '\\t';
      else if (ch === delim) out += '\\' + ch;
      else if (ch === '\b') out += '\\b';
      else if (ch === '\f') out += '\\f';
      else if (ch === '\v') out += '\\v';
      else out += ch;
    }
    return out;
  }

  private csvField(s: string, force: boolean): string {
    const { quote, escape, delimiter, nullString } = this.options;
    const needs =
      force ||
      s === nullString ||
      s.includes(delimiter) ||
      s.includes(quote) ||
      s.includes('\n') ||
      s.includes('\r') ||
      s === '\\.';
    if (!needs) return s;
    let out = quote;
    for (const ch of s) out += ch === quote || ch === escape ? escape + ch : ch;
    return out + quote;
  }

  private binaryRow(batch: Batch, r: number): Uint8Array {
    const parts: Uint8Array[] = [];
    let size = 2;
    for (let c = 0; c < this.columns.length; c++) {
      const v = batch.columns[c]?.[r] ?? null;
      const bytes = v === null ? null : binaryOut(this.columns[c]!.typeOid, v);
      parts.push(bytes ?? new Uint8Array(0));
      size += 4 + (bytes?.length ?? 0);
      if (bytes === null) parts[parts.length - 1] = NULL_MARK;
    }
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    view.setInt16(0, this.columns.length);
    let pos = 2;
    for (const p of parts) {
      if (p === NULL_MARK) {
        view.setInt32(pos, -1);
        pos += 4;
        continue;
      }
      view.setInt32(pos, p.length);
      out.set(p, pos + 4);
      pos += 4 + p.length;
    }
    return out;
  }
}

const NULL_MARK = new Uint8Array(0);
