/**
 * One COPY FROM target column: text fields (UTF-8 bytes) → a typed column builder. A fast path parses the
 * canonical spellings straight from the bytes — `[-]digits` for integers, `[-]digits[.digits]` within the
 * numeric's precision and scale, `YYYY-MM-DD` dates, strings within their char(n)/varchar(n) length —
 * and returns false for anything else, which then goes through the type's input function (text-io.ts)
 * exactly as before: PostgreSQL's rounding, whitespace, exponents, infinity, BC and errors are all theirs.
 */
import { Oid, type SqlType } from '../../common/pgtypes/oids.ts';
import {
  DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder, ValuesBuilder, type ColumnBuilder,
} from '../../iceberg/write/typed-column-builders.ts';
import type { TypedColumn } from '../../iceberg/write/typed-columns.ts';
import {
  boundedTextScanner, dateParser, dateScanner, decimalParser, decimalScanner, int32Parser, int32Scanner, int64Parser, int64Scanner,
  textScanner, type FieldScanner, type ValueParser,
} from './copy-field-scanners.ts';

/**
 * how the record loop generated per schema (copy-record-compiler.ts) reads a column: a number or date through its
 * parser, a string by its bytes (`maxChars` -1: any length; `pad`: char(n), blank-padded), or not at all (null)
 */
export type LoopColumn = { readonly kind: 'value'; readonly parser: ValueParser } | { readonly kind: 'text'; readonly maxChars: number; readonly pad: boolean };

const enum Mode { Values, Int2, Int4, Int8, Numeric, Date, Text, Varchar, Bpchar }

/** days from 1970-01-01 to PostgreSQL's epoch 2000-01-01 (binary dates count from it) */
const PG_EPOCH_DAYS = 10957;

/**
 * the column's canonical spellings go to a typed buffer (every type but the JS-values ones): a load of
 * such columns makes only transferable buffers (copy-parallel-decoder.ts)
 */
export function hasTypedSink(type: SqlType): boolean {
  switch (type.oid) {
    case Oid.int2: case Oid.int4: case Oid.int8: case Oid.date: case Oid.text: case Oid.varchar: case Oid.bpchar: return true;
    case Oid.numeric: {
      if (type.typmod < 4) return false;
      const precision = ((type.typmod - 4) >> 16) & 0xffff;
      return precision <= 38 && ((type.typmod - 4) & 0xffff) <= precision;
    }
    default: return false;
  }
}

export class CopyColumnSink {
  private readonly mode: Mode;
  private builder: ColumnBuilder;
  /** numeric: the scale */
  private readonly scale: number;
  private readonly precision: number;
  /** varchar(n) / char(n): n */
  private readonly maxChars: number;

  constructor(readonly type: SqlType, private readonly capacity: number) {
    let mode = Mode.Values;
    let precision = 0;
    let scale = 0;
    switch (type.oid) {
      case Oid.int2: mode = Mode.Int2; break;
      case Oid.int4: mode = Mode.Int4; break;
      case Oid.int8: mode = Mode.Int8; break;
      case Oid.date: mode = Mode.Date; break;
      case Oid.text: mode = Mode.Text; break;
      case Oid.varchar: mode = type.typmod >= 4 ? Mode.Varchar : Mode.Text; break;
      case Oid.bpchar: mode = type.typmod >= 4 ? Mode.Bpchar : Mode.Text; break;
      case Oid.numeric:
        if (type.typmod >= 4) {
          precision = ((type.typmod - 4) >> 16) & 0xffff;
          scale = (type.typmod - 4) & 0xffff;
          if (precision <= 38 && scale <= precision) mode = Mode.Numeric;
        }
        break;
    }
    this.mode = mode;
    this.precision = precision;
    this.scale = scale;
    this.maxChars = type.typmod - 4;
    this.builder = this.newBuilder();
    this.chooseFast();
  }

  private newBuilder(): ColumnBuilder {
    switch (this.mode) {
      case Mode.Int2: case Mode.Int4: return new Int32Builder(this.capacity, 'int');
      case Mode.Date: return new Int32Builder(this.capacity, 'date');
      case Mode.Int8: return new Int64Builder(this.capacity);
      case Mode.Numeric: return new DecimalBuilder(this.capacity, this.precision, this.scale);
      case Mode.Text: case Mode.Varchar: case Mode.Bpchar: return new Utf8Builder(this.capacity, this.mode === Mode.Text ? 16 : Math.max(1, Math.min(this.maxChars, 32)));
      default: return new ValuesBuilder(this.capacity);
    }
  }

  get length(): number {
    return this.builder.length;
  }

  /** the builder rows go to now (a new one per batch; a values builder once a value did not fit the typed one) */
  get current(): ColumnBuilder {
    return this.builder;
  }

  /**
   * how copy-record-compiler.ts reads this column into its typed builder (the parsers `scan` and `fast` are made
   * of); null for a column of JS values. The current builder is the typed one only while `parses`.
   */
  get loopColumn(): LoopColumn | null {
    switch (this.mode) {
      case Mode.Int2: return { kind: 'value', parser: int32Parser(32767) };
      case Mode.Int4: return { kind: 'value', parser: int32Parser(2147483647) };
      case Mode.Int8: return { kind: 'value', parser: int64Parser };
      case Mode.Numeric: return { kind: 'value', parser: decimalParser(this.precision, this.scale) };
      case Mode.Date: return { kind: 'value', parser: dateParser };
      case Mode.Text: return { kind: 'text', maxChars: -1, pad: false };
      case Mode.Varchar: case Mode.Bpchar: return { kind: 'text', maxChars: this.maxChars, pad: this.mode === Mode.Bpchar };
      default: return null;
    }
  }

  /** the current builder is the typed one loopColumn describes */
  get parses(): boolean {
    return this.scan !== noScan;
  }

  appendNull(): void {
    this.builder.appendNull();
  }

  /** a value from the type's input function; a typed buffer that cannot hold it becomes a values column */
  appendValue(v: unknown): void {
    if (this.builder.value(v)) return;
    this.builder = ValuesBuilder.from(this.builder, this.capacity);
    this.builder.value(v);
    this.chooseFast();
  }

  /** the rows so far as a column; the next rows go into a new buffer (`more` false: there are none, no buffer is made) */
  finish(more = true): TypedColumn {
    const col = this.builder.finish();
    if (!more) return col;
    this.builder = this.newBuilder();
    this.chooseFast();
    return col;
  }

  /**
   * the field src[start, end) in its canonical spelling → appended, true; otherwise false (nothing appended).
   * One small function per type, chosen once (a switch over all types in one function ran 2× slower), and
   * false for every field once the column became JS values.
   */
  fast: (src: Uint8Array, start: number, end: number) => boolean = () => false;

  /**
   * fast's rules on a field whose end is not known yet (copy-field-scanners.ts): appended and the field's end
   * returned, or -1 (nothing appended). The delimiter must not be a byte a number or a date is spelled with.
   */
  scan: FieldScanner = noScan;

  /**
   * a binary COPY field (PostgreSQL's send format) src[start, end) → appended, true; otherwise false (the
   * caller goes through binaryIn). Fixed-size integers and dates, numerics within the column's scale and 15
   * digits, and ASCII strings (then the text rules for char(n)/varchar(n)).
   */
  binary: (src: Uint8Array, view: DataView, start: number, end: number) => boolean = () => false;

  private chooseFast(): void {
    this.chooseText();
    this.binary = this.chooseBinary();
  }

  private chooseBinary(): (src: Uint8Array, view: DataView, start: number, end: number) => boolean {
    const b = this.builder;
    const mode = this.mode;
    if (b instanceof Int32Builder && mode === Mode.Int2) {
      return (_src, view, start, end) => {
        if (end - start !== 2) return false;
        b.append(view.getInt16(start));
        return true;
      };
    }
    if (b instanceof Int32Builder && mode === Mode.Int4) {
      return (_src, view, start, end) => {
        if (end - start !== 4) return false;
        b.append(view.getInt32(start));
        return true;
      };
    }
    if (b instanceof Int32Builder && mode === Mode.Date) {
      return (_src, view, start, end) => {
        if (end - start !== 4) return false;
        const d = view.getInt32(start);
        // ±infinity (INT32_MAX / INT32_MIN) go through binaryIn
        if (d === 0x7fffffff || d === -0x80000000) return false;
        b.append(d + PG_EPOCH_DAYS);
        return true;
      };
    }
    if (b instanceof Int64Builder) {
      return (_src, view, start, end) => {
        if (end - start !== 8) return false;
        const hi = view.getInt32(start);
        if (hi >= 0x200000 || hi < -0x200000) return false;
        b.appendNumber(hi * 2 ** 32 + view.getUint32(start + 4));
        return true;
      };
    }
    if (b instanceof DecimalBuilder) {
      const scale = this.scale;
      const limit = 10 ** this.precision;
      return (_src, view, start, end) => {
        if (end - start < 8) return false;
        const ndigits = view.getInt16(start);
        const weight = view.getInt16(start + 2);
        const sign = view.getUint16(start + 4);
        const dscale = view.getUint16(start + 6);
        if (ndigits < 0 || ndigits > 3 || end - start !== 8 + 2 * ndigits || (sign !== 0 && sign !== 0x4000) || dscale > scale) return false;
        let acc = 0;
        for (let i = 0; i < ndigits; i++) {
          const d = view.getInt16(start + 8 + 2 * i);
          if (d < 0 || d > 9999) return false;
          acc = acc * 10000 + d;
        }
        // value = acc × 10^(4·(weight − ndigits + 1)); unscaled at the column's scale
        const p = scale + 4 * (weight - ndigits + 1);
        let v: number;
        if (p >= 0) {
          if (p > 15) return acc === 0 ? (b.appendUnscaled(0), true) : false;
          v = acc * 10 ** p;
        } else {
          const div = 10 ** Math.min(-p, 16);
          if (acc % div !== 0) return false;
          v = acc / div;
        }
        if (v >= limit || v > Number.MAX_SAFE_INTEGER) return false;
        b.appendUnscaled(sign === 0 ? v : -v);
        return true;
      };
    }
    if (b instanceof Utf8Builder) {
      const text = this.fast;
      return (src, _view, start, end) => {
        // ASCII needs no UTF-8 check; the text format's rules then apply (char(n) padding, lengths)
        for (let k = start; k < end; k++) if (src[k]! >= 0x80) return false;
        return text(src, start, end);
      };
    }
    return () => false;
  }

  private chooseText(): void {
    const b = this.builder;
    const mode = this.mode;
    this.scan = noScan;
    if (b instanceof Int32Builder && (mode === Mode.Int2 || mode === Mode.Int4)) {
      const max = mode === Mode.Int2 ? 32767 : 2147483647;
      this.scan = int32Scanner(b, max);
      this.fast = wholeField(this.scan);
    } else if (b instanceof Int64Builder) {
      this.scan = int64Scanner(b);
      this.fast = wholeField(this.scan);
    } else if (b instanceof DecimalBuilder) {
      this.scan = decimalScanner(b, this.precision, this.scale);
      this.fast = wholeField(this.scan);
    } else if (b instanceof Int32Builder && mode === Mode.Date) {
      this.scan = dateScanner(b);
      this.fast = wholeField(this.scan);
    } else if (b instanceof Utf8Builder && mode === Mode.Text) {
      this.scan = textScanner(b);
      this.fast = (src, start, end) => {
        b.appendBytes(src, start, end);
        return true;
      };
    } else if (b instanceof Utf8Builder && (mode === Mode.Varchar || mode === Mode.Bpchar)) {
      const maxChars = this.maxChars;
      const pad = mode === Mode.Bpchar;
      this.scan = boundedTextScanner(b, maxChars, pad);
      this.fast = (src, start, end) => {
        let chars = end - start;
        if (chars > maxChars || pad) {
          // UTF-8: characters are the bytes that are not continuation bytes (char(n) pads by characters)
          chars = 0;
          for (let k = start; k < end; k++) if ((src[k]! & 0xc0) !== 0x80) chars++;
          if (chars > maxChars) return false;
        }
        b.appendBytes(src, start, end, pad ? maxChars - chars : 0);
        return true;
      };
    } else this.fast = () => false;
  }
}

const noScan: FieldScanner = () => -1;

/**
 * `fast` for a field whose end is known: the scanner with a delimiter no byte equals, so it must consume the whole
 * field (it appends only when it does). Text keeps its own `fast`: its scanner would walk bytes `fast` never reads.
 */
function wholeField(scan: FieldScanner): (src: Uint8Array, start: number, end: number) => boolean {
  return (src, start, end) => scan(src, start, end, -1) === end;
}
