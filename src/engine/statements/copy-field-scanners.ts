/**
 * COPY FROM's clean-record path (copy-typed-decoder.ts cleanRecord) without a separate split: a scanner reads
 * one field from its start, finding the field's end as it parses, so a number's or a date's bytes are walked once
 * (split-then-parse walked them twice: ≈ 60 % of a TPC-H lineitem record's bytes are numbers and dates).
 * It appends the value and returns the field's end — the index of the delimiter after it, or `end` — when the field
 * is in its canonical spelling (copy-column-sinks.ts derives its whole-field `fast` parsers from these), and -1 with
 * nothing appended otherwise: the caller then finds the end itself and takes the type's input function.
 */
import type { DecimalBuilder, Int32Builder, Int64Builder, Utf8Builder } from '../../iceberg/write/typed-column-builders.ts';
import { daysFromCivil, MONTH_DAYS } from './copy-civil-days.ts';

/** src[start, …) up to the delimiter or `end` → appended, the field's end; -1 when not canonical (nothing appended) */
export type FieldScanner = (src: Uint8Array, start: number, end: number, delimiter: number) => number;

/** `[-]digits` of at most 9 digits within ±max (int2: 32767, int4: 2147483647) */
export function int32Scanner(b: Int32Builder, max: number): FieldScanner {
  return (src, start, end, delimiter) => {
    let i = start;
    const neg = i < end && src[i] === 45;
    if (neg) i++;
    const d0 = i;
    let v = 0;
    for (; i < end; i++) {
      const d = src[i]! - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === d0 || i - d0 > 9 || (i < end && src[i] !== delimiter) || v > max + (neg ? 1 : 0)) return -1;
    b.append(neg ? -v : v);
    return i;
  };
}

/** `[-]digits` of at most 15 digits (exact as a double) */
export function int64Scanner(b: Int64Builder): FieldScanner {
  return (src, start, end, delimiter) => {
    let i = start;
    const neg = i < end && src[i] === 45;
    if (neg) i++;
    const d0 = i;
    let v = 0;
    for (; i < end; i++) {
      const d = src[i]! - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    if (i === d0 || i - d0 > 15 || (i < end && src[i] !== delimiter)) return -1;
    b.appendNumber(neg ? -v : v);
    return i;
  };
}

/** `[-]digits[.digits]` within the scale, the precision and 15 digits in all */
export function decimalScanner(b: DecimalBuilder, precision: number, scale: number): FieldScanner {
  const intDigits = precision - scale;
  const scales = Array.from({ length: scale + 1 }, (_, k) => 10 ** (scale - k));
  return (src, start, end, delimiter) => {
    let i = start;
    const neg = i < end && src[i] === 45;
    if (neg) i++;
    let v = 0;
    const w0 = i;
    for (; i < end; i++) {
      const d = src[i]! - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
    }
    const whole = i - w0;
    let frac = 0;
    if (i < end && src[i] === 46) {
      const f0 = ++i;
      for (; i < end; i++) {
        const d = src[i]! - 48;
        if (d < 0 || d > 9) break;
        v = v * 10 + d;
      }
      frac = i - f0;
    }
    // more digits than the scale (PostgreSQL rounds), than the precision allows (22003) or than a double holds
    // exactly, or anything else before the delimiter: the input function decides
    if ((i < end && src[i] !== delimiter) || whole + frac === 0 || frac > scale || whole > intDigits || whole + scale > 15) return -1;
    b.appendUnscaled(neg ? -v * scales[frac]! : v * scales[frac]!);
    return i;
  };
}

function digit(src: Uint8Array, i: number): number {
  const d = src[i]! - 48;
  return d >= 0 && d <= 9 ? d : -1;
}

/** `YYYY-MM-DD` (a real day of year 1 or later) → days from 1970-01-01 */
export function dateScanner(b: Int32Builder): FieldScanner {
  return (src, start, end, delimiter) => {
    const e = start + 10;
    if (e > end || (e < end && src[e] !== delimiter) || src[start + 4] !== 45 || src[start + 7] !== 45) return -1;
    const y0 = digit(src, start), y1 = digit(src, start + 1), y2 = digit(src, start + 2), y3 = digit(src, start + 3);
    const m0 = digit(src, start + 5), m1 = digit(src, start + 6), d0 = digit(src, start + 8), d1 = digit(src, start + 9);
    if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 0) return -1;
    const y = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
    const m = m0 * 10 + m1;
    const d = d0 * 10 + d1;
    if (y < 1 || m < 1 || m > 12 || d < 1) return -1;
    const leap = m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    if (d > MONTH_DAYS[m]! + (leap ? 1 : 0)) return -1;
    b.append(daysFromCivil(y, m, d));
    return e;
  };
}

/** text: any bytes up to the delimiter */
export function textScanner(b: Utf8Builder): FieldScanner {
  return (src, start, end, delimiter) => {
    let e = start;
    while (e < end && src[e] !== delimiter) e++;
    b.appendBytes(src, start, e);
    return e;
  };
}

/** varchar(n) / char(n) (`pad`: blank-padded to n): at most n characters (UTF-8: bytes that are not continuations) */
export function boundedTextScanner(b: Utf8Builder, maxChars: number, pad: boolean): FieldScanner {
  return (src, start, end, delimiter) => {
    // the bytes ORed on the way: all ASCII (TPC-H's text), the byte count is the character count (no second walk)
    let e = start;
    let high = 0;
    for (; e < end; e++) {
      const c = src[e]!;
      if (c === delimiter) break;
      high |= c;
    }
    let chars = e - start;
    if (high >= 0x80 && (chars > maxChars || pad)) {
      chars = 0;
      for (let k = start; k < e; k++) if ((src[k]! & 0xc0) !== 0x80) chars++;
    }
    if (chars > maxChars) return -1;
    b.appendBytes(src, start, e, pad ? maxChars - chars : 0);
    return e;
  };
}
