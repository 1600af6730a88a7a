/**
 * textInput / textOutput: a type's input and output functions as the function library calls them
 * (I/O casts, ||, concat, format, string_agg of non-text), with the session's DateStyle, IntervalStyle,
 * TimeZone and extra_float_digits. Delegates to common/pgtypes.
 */
import type { EvalContext } from './registry-types.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { Numeric } from '../common/pgtypes/numeric.ts';
import { invalidTextRepresentation, outOfRange } from '../common/errors.ts';

/** The text form of a non-null value of type `oid` (the type's output function). */
export function textOutput(oid: number, v: unknown, _ctx: EvalContext | undefined): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (Numeric.isNumeric(v)) return v.toString();
  if (typeof v === 'number') {
    if (oid === Oid.float4 || oid === Oid.float8) return floatOut(v);
    return String(v);
  }
  return String(v);
}

function floatOut(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0';
  const s = String(v);
  const m = /^(-?)(\d(?:\.\d+)?)e([+-])(\d+)$/.exec(s);
  if (m !== null) return `${m[1]}${m[2]}e${m[3]}${m[4]!.padStart(2, '0')}`;
  const abs = Math.abs(v);
  if (abs >= 1e15 || (abs !== 0 && abs < 1e-4)) {
    const e = v.toExponential();
    const mm = /^(-?[\d.]+)e([+-])(\d+)$/.exec(e)!;
    return `${mm[1]}e${mm[2]}${mm[3]!.padStart(2, '0')}`;
  }
  return s;
}

const INT_RE = /^\s*[+-]?\d+\s*$/;

/** The value of `text` as type `oid` (the type's input function). */
export function textInput(oid: number, _typmod: number, text: string, _ctx: EvalContext | undefined): unknown {
  switch (oid) {
    case Oid.int2:
    case Oid.int4: {
      if (!INT_RE.test(text)) throw invalidTextRepresentation(oid === Oid.int2 ? 'smallint' : 'integer', text);
      const n = Number(text.trim());
      const lim = oid === Oid.int2 ? 32768 : 2147483648;
      if (n < -lim || n >= lim) throw outOfRange(`value "${text}" is out of range for type ${oid === Oid.int2 ? 'smallint' : 'integer'}`.replace(' out of range', ''));
      return n === 0 ? 0 : n;
    }
    case Oid.int8: {
      if (!INT_RE.test(text)) throw invalidTextRepresentation('bigint', text);
      return BigInt(text.trim());
    }
    case Oid.numeric:
      return Numeric.parse(text);
    case Oid.float4:
    case Oid.float8: {
      const t = text.trim().toLowerCase();
      const n = t === 'nan' ? NaN : t === 'infinity' || t === 'inf' || t === '+infinity' ? Infinity : t === '-infinity' || t === '-inf' ? -Infinity : Number(t);
      if (Number.isNaN(n) && t !== 'nan') throw invalidTextRepresentation(oid === Oid.float4 ? 'real' : 'double precision', text);
      return oid === Oid.float4 ? Math.fround(n) : n;
    }
    case Oid.bool: {
      const t = text.trim().toLowerCase();
      if (['t', 'tr', 'tru', 'true', 'y', 'ye', 'yes', 'on', '1'].includes(t)) return true;
      if (['f', 'fa', 'fal', 'fals', 'false', 'n', 'no', 'of', 'off', '0'].includes(t)) return false;
      throw invalidTextRepresentation('boolean', text);
    }
    default:
      return text;
  }
}
