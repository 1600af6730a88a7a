/**
 * COPY FROM's field parsers, kept as JS source templates: a scanner reads one field from its start, finding the
 * field's end as it parses, so a number's or a date's bytes are walked once (split-then-parse walked them twice:
 * ≈ 60 % of a TPC-H lineitem record's bytes are numbers and dates). It appends the value and sets the field's end —
 * the index of the delimiter after it, or `end` — when the field is in its canonical spelling, and -1 with nothing
 * appended otherwise: the caller then finds the end itself and takes the type's input function.
 *
 * Sources, not closures, so that one definition serves two callers: the per-column closures of
 * copy-column-sinks.ts (`compileScanner`; its whole-field `fast` parsers are the same closures with a delimiter no
 * byte equals) and the record reader generated per table schema (copy-record-compiler.ts), which inlines every
 * column's parser into one loop instead of calling 16 scanners from one megamorphic call site per row.
 */
import type { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from '../../iceberg/write/typed-column-builders.ts';
import { CIVIL_DAYS_BEFORE_MONTH, CIVIL_LEAP, CIVIL_MONTH_LENGTH, CIVIL_YEAR_DAYS } from './copy-civil-days.ts';
import { BoundedMemo } from '../../common/bounded-memo.ts';

/** src[start, …) up to the delimiter or `end` → appended, the field's end; -1 when not canonical (nothing appended) */
export type FieldScanner = (src: Uint8Array, start: number, end: number, delimiter: number) => number;

/**
 * the JS expressions / variable names a source is spliced with. `src`, `start`, `end` and `delimiter` are read
 * only; `result` is a variable the source assigns (the field's end, or -1), `value` one it assigns the parsed
 * value to (ValueParser), `builder` the column's typed builder (ScannerSource). A source is one block statement
 * whose own variables are block-scoped, so sources of several columns can follow each other in one function. It
 * may call the helpers of SCANNER_HELPERS by name.
 */
export interface ScanNames {
  readonly src: string;
  readonly start: string;
  readonly end: string;
  readonly delimiter: string;
  readonly result: string;
  readonly value: string;
  readonly builder: string;
}

/** a field scanner as source (see ScanNames): parses, appends, sets `result` */
export type ScannerSource = (n: ScanNames) => string;

/**
 * a number or date field parser as source, in two steps: `parse` sets `result` (-1: not canonical) and, when
 * not -1, `value`; `append` appends `value` to `builder` (the generated record loop parses a whole record before
 * it appends anything, so a record it leaves to the decoder left no trace)
 */
export interface ValueParser {
  readonly parse: (n: ScanNames) => string;
  readonly append: (builder: string, value: string) => string;
}

/** 10^k for k = 0…15: a numeric's unscaled value from the digits read (exact as doubles) */
const POW10: readonly number[] = Array.from({ length: 16 }, (_, k) => 10 ** k);

/** the names every source may use, and their values (the parameters of the generated functions) */
export const SCANNER_HELPERS: Readonly<Record<string, unknown>> = { CIVIL_DAYS_BEFORE_MONTH, CIVIL_LEAP, CIVIL_MONTH_LENGTH, CIVIL_YEAR_DAYS, POW10 };

/** `[-]digits` of at most 9 digits within ±max (int2: 32767, int4: 2147483647) */
export function int32Parser(max: number): ValueParser {
  return {
    parse: ({ src, start, end, delimiter, result, value }) => `{
    let i = ${start};
    const neg = i < ${end} && ${src}[i] === 45;
    if (neg) i++;
    const d0 = i;
    let v = 0;
    for (; i < ${end}; i++) {
      const d = ${src}[i] - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === d0 || i - d0 > 9 || (i < ${end} && ${src}[i] !== ${delimiter}) || v > (neg ? ${max + 1} : ${max})) ${result} = -1;
    else {
      ${value} = neg ? -v : v;
      ${result} = i;
    }
  }`,
    append: (builder, value) => `${builder}.append(${value});`,
  };
}

/** `[-]digits` of at most 15 digits (exact as a double) */
export const int64Parser: ValueParser = {
  parse: ({ src, start, end, delimiter, result, value }) => `{
    let i = ${start};
    const neg = i < ${end} && ${src}[i] === 45;
    if (neg) i++;
    const d0 = i;
    let v = 0;
    for (; i < ${end}; i++) {
      const d = ${src}[i] - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === d0 || i - d0 > 15 || (i < ${end} && ${src}[i] !== ${delimiter})) ${result} = -1;
    else {
      ${value} = neg ? -v : v;
      ${result} = i;
    }
  }`,
  append: (builder, value) => `${builder}.appendNumber(${value});`,
};

/**
 * `[-]digits[.digits]` within the scale, the precision and 15 digits in all → the unscaled value. More digits than
 * the scale (PostgreSQL rounds), than the precision allows (22003) or than a double holds exactly, or anything else
 * before the delimiter: the input function decides.
 */
export function decimalParser(precision: number, scale: number): ValueParser {
  return {
    parse: ({ src, start, end, delimiter, result, value }) => `{
    let i = ${start};
    const neg = i < ${end} && ${src}[i] === 45;
    if (neg) i++;
    let v = 0;
    const w0 = i;
    for (; i < ${end}; i++) {
      const d = ${src}[i] - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    const whole = i - w0;
    let frac = 0;
    if (i < ${end} && ${src}[i] === 46) {
      const f0 = ++i;
      for (; i < ${end}; i++) {
        const d = ${src}[i] - 48;
        if (d < 0 || d > 9) break;
        v = v * 10 + d;
      }
      frac = i - f0;
    }
    if ((i < ${end} && ${src}[i] !== ${delimiter}) || whole + frac === 0 || frac > ${scale} || whole > ${precision - scale} || whole + ${scale} > 15) ${result} = -1;
    else {
      const u = v * POW10[${scale} - frac];
      ${value} = neg ? -u : u;
      ${result} = i;
    }
  }`,
    append: (builder, value) => `${builder}.appendUnscaled(${value});`,
  };
}

/**
 * `YYYY-MM-DD` (a real day of year 1 or later) → days from 1970-01-01. The digits are read inline (x - 48 as an
 * unsigned number is below 10 for a digit only) and the day comes from copy-civil-days.ts's tables: the record
 * loop is too big for V8 to inline calls into it (a digit helper and days_from_civil were 13 % of decoding
 * TPC-H lineitem).
 */
export const dateParser: ValueParser = {
  parse: ({ src, start, end, delimiter, result, value }) => `{
    const s = ${start};
    const e = s + 10;
    ${result} = -1;
    if (e <= ${end} && (e === ${end} || ${src}[e] === ${delimiter}) && ${src}[s + 4] === 45 && ${src}[s + 7] === 45) {
      const y0 = ${src}[s] - 48, y1 = ${src}[s + 1] - 48, y2 = ${src}[s + 2] - 48, y3 = ${src}[s + 3] - 48;
      const m0 = ${src}[s + 5] - 48, m1 = ${src}[s + 6] - 48, d0 = ${src}[s + 8] - 48, d1 = ${src}[s + 9] - 48;
      if ((y0 >>> 0) < 10 && (y1 >>> 0) < 10 && (y2 >>> 0) < 10 && (y3 >>> 0) < 10 && (m0 >>> 0) < 10 && (m1 >>> 0) < 10 && (d0 >>> 0) < 10 && (d1 >>> 0) < 10) {
        const y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
        const m = m0 * 10 + m1;
        const d = d0 * 10 + d1;
        if (y >= 1 && m >= 1 && m <= 12 && d >= 1) {
          const k = CIVIL_LEAP[y] * 13 + m;
          if (d <= CIVIL_MONTH_LENGTH[k]) {
            ${value} = CIVIL_YEAR_DAYS[y] + CIVIL_DAYS_BEFORE_MONTH[k] + d - 1;
            ${result} = e;
          }
        }
      }
    }
  }`,
  append: (builder, value) => `${builder}.append(${value});`,
};

/** a parser as a scanner: parse, then append when canonical */
function scannerOf(parser: ValueParser): ScannerSource {
  return (n) => `{
    let ${n.value} = 0;
    ${parser.parse(n)}
    if (${n.result} >= 0) ${parser.append(n.builder, n.value)}
  }`;
}

/** text: any bytes up to the delimiter */
const textScannerSource: ScannerSource = ({ src, start, end, delimiter, builder, result }) => `{
    let e = ${start};
    while (e < ${end} && ${src}[e] !== ${delimiter}) e++;
    ${builder}.appendBytes(${src}, ${start}, e);
    ${result} = e;
  }`;

/**
 * varchar(n) / char(n) (`pad`: blank-padded to n): at most n characters (UTF-8: bytes that are not continuations).
 * The bytes are ORed on the way: all ASCII (TPC-H's text), the byte count is the character count (no second walk).
 */
function boundedTextScannerSource(maxChars: number, pad: boolean): ScannerSource {
  return ({ src, start, end, delimiter, builder, result }) => `{
    let e = ${start};
    let high = 0;
    for (; e < ${end}; e++) {
      const c = ${src}[e];
      if (c === ${delimiter}) break;
      high |= c;
    }
    let chars = e - ${start};
    if (high >= 0x80${pad ? '' : ` && chars > ${maxChars}`}) {
      chars = 0;
      for (let k = ${start}; k < e; k++) if ((${src}[k] & 0xc0) !== 0x80) chars++;
    }
    if (chars > ${maxChars}) ${result} = -1;
    else {
      ${builder}.appendBytes(${src}, ${start}, e${pad ? `, ${maxChars} - chars` : ''});
      ${result} = e;
    }
  }`;
}

/**
 * a factory per scanner source text: a source compiled once, its closures made per builder (they share one code;
 * sinks make new ones per batch). Bounded: numeric(p,s) and varchar(n) make one source per p, s and n.
 */
const factories = new BoundedMemo<string, (builder: unknown) => FieldScanner>(256);

function scannerFactory(body: string): (builder: unknown) => FieldScanner {
  const names = Object.keys(SCANNER_HELPERS);
  const make = new Function(...names, `return (b) => function scanField(src, start, end, delimiter) {\n  let r = -1;\n  ${body}\n  return r;\n};`) as (...helpers: unknown[]) => (builder: unknown) => FieldScanner;
  return make(...names.map((k) => SCANNER_HELPERS[k]));
}

/** the scanner of `source` appending to `builder`, as a closure */
export function compileScanner(source: ScannerSource, builder: unknown): FieldScanner {
  const body = source({ src: 'src', start: 'start', end: 'end', delimiter: 'delimiter', builder: 'b', result: 'r', value: 'value' });
  return factories.get(body, scannerFactory)(builder);
}

/** `[-]digits` of at most 9 digits within ±max (int2: 32767, int4: 2147483647) */
export function int32Scanner(b: Int32Builder, max: number): FieldScanner {
  return compileScanner(scannerOf(int32Parser(max)), b);
}

/** `[-]digits` of at most 15 digits (exact as a double) */
export function int64Scanner(b: Int64Builder): FieldScanner {
  return compileScanner(scannerOf(int64Parser), b);
}

/** `[-]digits[.digits]` within the scale, the precision and 15 digits in all */
export function decimalScanner(b: DecimalBuilder, precision: number, scale: number): FieldScanner {
  return compileScanner(scannerOf(decimalParser(precision, scale)), b);
}

/** `YYYY-MM-DD` (a real day of year 1 or later) → days from 1970-01-01 */
export function dateScanner(b: Int32Builder): FieldScanner {
  return compileScanner(scannerOf(dateParser), b);
}

/** text: any bytes up to the delimiter */
export function textScanner(b: Utf8Builder): FieldScanner {
  return compileScanner(textScannerSource, b);
}

/** varchar(n) / char(n) (`pad`: blank-padded to n): at most n characters */
export function boundedTextScanner(b: Utf8Builder, maxChars: number, pad: boolean): FieldScanner {
  return compileScanner(boundedTextScannerSource(maxChars, pad), b);
}
