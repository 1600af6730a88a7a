/**
 * format(), quote_ident/quote_literal/quote_nullable, md5/sha*, chr/ascii, to_hex and encode/decode
 * (hex, base64, escape), with PostgreSQL 15's error texts.
 * @see https://www.postgresql.org/docs/15/functions-string.html#FUNCTIONS-STRING-FORMAT
 */
import { createHash } from 'node:crypto';
import { Oid } from '../common/pgtypes/oids.ts';
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { EvalContext, RoutineDef, ScalarFunctionDef } from './registry-types.ts';
import { castToText, textOutput } from './text-io.ts';
import { charCount } from './string-support.ts';
import type { SqlType } from '../common/pgtypes/oids.ts';

const { text, int4, int8, bytea } = Oid;

const RESERVED = new Set(('all analyse analyze and any array as asc asymmetric authorization between bigint binary bit boolean both case cast char ' +
  'character check coalesce collate collation column concurrently constraint create cross current_catalog current_date current_role ' +
  'current_schema current_time current_timestamp current_user dec decimal default deferrable desc distinct do else end except exists ' +
  'extract false fetch float for foreign freeze from full grant greatest group grouping having ilike in initially inner inout int integer ' +
  'intersect interval into is isnull join lateral leading least left like limit localtime localtimestamp national natural nchar none ' +
  'normalize not notnull null nullif numeric offset on only or order out outer overlaps overlay placing position precision primary real ' +
  'references returning right row select session_user setof similar smallint some substring symmetric table tablesample then time ' +
  'timestamp to trailing treat trim true union unique user using values varchar variadic verbose when where window with xmlattributes ' +
  'xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable').split(' '));

/** quote_identifier: quotes unless all lower-case letters/digits/_ (not starting with a digit) and not a keyword. */
export function quoteIdent(s: string): string {
  if (/^[a-z_][a-z0-9_$]*$/.test(s) && !RESERVED.has(s)) return s;
  return '"' + s.replace(/"/g, '""') + '"';
}

/** quote_literal: doubles quotes; a backslash makes it an E'' literal with backslashes doubled. */
export function quoteLiteral(s: string): string {
  const body = s.replace(/'/g, "''");
  return s.includes('\\') ? `E'${body.replace(/\\/g, '\\\\')}'` : `'${body}'`;
}

function formatError(msg: string, hint?: string): GatewayError {
  return new GatewayError(SqlState.invalid_parameter_value, msg, hint === undefined ? {} : { hint });
}

/** format(fmt, args...) with %s %I %L %%, positions (%2$s), widths (%-10s, %*s, %*2$s). */
export function formatText(fmt: string, args: readonly unknown[], types: readonly SqlType[], ctx: EvalContext | undefined): string {
  let out = '';
  let next = 0;
  const argText = (i: number): string | null => {
    if (i >= args.length) throw formatError('too few arguments for format()');
    const v = args[i];
    return v === null || v === undefined ? null : textOutput(types[i]?.oid ?? text, v, ctx);
  };
  const intArg = (i: number): number => {
    const t = argText(i);
    return t === null ? 0 : Number(t);
  };
  for (let i = 0; i < fmt.length; i++) {
    const c = fmt[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    i++;
    if (i >= fmt.length) throw formatError('unterminated format() type specifier', 'For a single "%" use "%%".');
    if (fmt[i] === '%') {
      out += '%';
      continue;
    }
    // [argpos$][flags][width][type]
    let m = /^(\d+)\$/.exec(fmt.slice(i));
    let argPos: number | undefined;
    if (m !== null) {
      argPos = Number(m[1]);
      if (argPos === 0) throw formatError('format specifies argument 0, but arguments are numbered from 1');
      i += m[0].length;
    }
    let left = false;
    while (fmt[i] === '-') {
      left = true;
      i++;
    }
    let width = 0;
    if (fmt[i] === '*') {
      i++;
      m = /^(\d+)\$/.exec(fmt.slice(i));
      let wpos: number;
      if (m !== null) {
        wpos = Number(m[1]) - 1;
        i += m[0].length;
      } else wpos = next++;
      width = intArg(wpos);
      next = Math.max(next, wpos + 1);
      if (width < 0) {
        left = true;
        width = -width;
      }
    } else {
      m = /^\d+/.exec(fmt.slice(i));
      if (m !== null) {
        width = Number(m[0]);
        i += m[0].length;
      }
    }
    const type = fmt[i];
    if (type === undefined) throw formatError('unterminated format() type specifier', 'For a single "%" use "%%".');
    if (type !== 's' && type !== 'I' && type !== 'L') {
      throw formatError(`unrecognized format() type specifier "${type}"`, 'For a single "%" use "%%".');
    }
    const idx = argPos !== undefined ? argPos - 1 : next;
    next = idx + 1;
    const v = argText(idx);
    let piece: string;
    if (type === 's') piece = v ?? '';
    else if (type === 'I') {
      if (v === null) throw new GatewayError(SqlState.null_value_not_allowed, 'null values cannot be formatted as an SQL identifier');
      piece = quoteIdent(v);
    } else piece = v === null ? 'NULL' : quoteLiteral(v);
    const len = charCount(piece);
    if (len < width) piece = left ? piece + ' '.repeat(width - len) : ' '.repeat(width - len) + piece;
    out += piece;
  }
  return out;
}

function chr(code: number): string {
  if (code === 0) throw new GatewayError(SqlState.program_limit_exceeded, 'null character not permitted');
  if (code < 0) throw new GatewayError(SqlState.invalid_parameter_value, 'character number must be positive');
  if (code > 0x10ffff) throw new GatewayError(SqlState.program_limit_exceeded, `requested character too large for encoding: ${code}`);
  if (code >= 0xd800 && code <= 0xdfff) throw new GatewayError(SqlState.program_limit_exceeded, `requested character not valid for encoding: ${code}`);
  return String.fromCodePoint(code);
}

function toHex(v: number | bigint): string {
  return typeof v === 'bigint' ? BigInt.asUintN(64, v).toString(16) : (v >>> 0).toString(16);
}

function unrecognizedEncoding(name: string): GatewayError {
  return new GatewayError(SqlState.invalid_parameter_value, `unrecognized encoding: "${name}"`);
}

/** encode(bytea, 'hex'|'base64'|'escape'); base64 wraps lines at 76 characters as PostgreSQL does. */
export function encode(b: Uint8Array, format: string): string {
  switch (format.toLowerCase()) {
    case 'hex':
      return Buffer.from(b).toString('hex');
    case 'base64':
      return (Buffer.from(b).toString('base64').match(/.{1,76}/g) ?? []).join('\n');
    case 'escape': {
      let out = '';
      for (const x of b) {
        if (x === 0x5c) out += '\\\\';
        else if (x === 0 || x >= 0x80) out += '\\' + x.toString(8).padStart(3, '0');
        else out += String.fromCharCode(x);
      }
      return out;
    }
    default:
      throw unrecognizedEncoding(format);
  }
}

export function decode(s: string, format: string): Uint8Array {
  switch (format.toLowerCase()) {
    case 'hex': {
      const clean = s.replace(/[ \t\n\r]/g, '');
      const bad = /[^0-9a-fA-F]/.exec(clean);
      if (bad !== null) throw new GatewayError(SqlState.invalid_parameter_value, `invalid hexadecimal digit: "${bad[0]}"`);
      if (clean.length % 2 !== 0) throw new GatewayError(SqlState.invalid_parameter_value, 'invalid hexadecimal data: odd number of digits');
      return new Uint8Array(Buffer.from(clean, 'hex'));
    }
    case 'base64':
      return base64Decode(s);
    case 'escape': {
      const out: number[] = [];
      const bytes = Buffer.from(s, 'utf8');
      for (let i = 0; i < bytes.length; i++) {
        const x = bytes[i]!;
        if (x !== 0x5c) {
          out.push(x);
          continue;
        }
        if (bytes[i + 1] === 0x5c) {
          out.push(0x5c);
          i++;
          continue;
        }
        const oct = bytes.subarray(i + 1, i + 4).toString();
        if (!/^[0-3][0-7][0-7]$/.test(oct)) throw new GatewayError(SqlState.invalid_text_representation, 'invalid input syntax for type bytea');
        out.push(parseInt(oct, 8));
        i += 3;
      }
      return new Uint8Array(out);
    }
    default:
      throw unrecognizedEncoding(format);
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** b64_decode: whitespace skipped, '=' only as padding, 22023 on anything else. */
function base64Decode(s: string): Uint8Array {
  const out: number[] = [];
  let buf = 0;
  let pos = 0;
  let end = 0;
  for (const c of s) {
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    let b: number;
    if (c === '=') {
      if (end === 0) {
        if (pos === 2) end = 1;
        else if (pos === 3) end = 2;
        else throw new GatewayError(SqlState.invalid_parameter_value, 'unexpected "=" while decoding base64 sequence');
      }
      b = 0;
    } else {
      b = B64.indexOf(c);
      if (b < 0) throw new GatewayError(SqlState.invalid_parameter_value, `invalid symbol "${c}" found while decoding base64 sequence`);
    }
    buf = (buf << 6) + b;
    if (++pos === 4) {
      out.push((buf >> 16) & 255);
      if (end === 0 || end > 1) out.push((buf >> 8) & 255);
      if (end === 0 || end > 2) out.push(buf & 255);
      buf = 0;
      pos = 0;
    }
  }
  if (pos !== 0) {
    throw new GatewayError(SqlState.invalid_parameter_value, 'invalid base64 end sequence', { hint: 'Input data is missing padding, is truncated, or is otherwise corrupted.' });
  }
  return new Uint8Array(out);
}

function hash(alg: string, v: Uint8Array | string): Buffer {
  return createHash(alg).update(v).digest();
}

function fn(oid: number, name: string, args: number[], returns: number, impl: ScalarFunctionDef['impl'], extra: Partial<ScalarFunctionDef> = {}): ScalarFunctionDef {
  return { kind: 'scalar', oid, name, args, returns, volatility: 'i', impl, ...extra };
}

export const stringFormatFunctions: readonly RoutineDef[] = [
  fn(3539, 'format', [text, Oid.any], text, (a, ctx, t) => (a[0] === null ? null : formatText(a[0] as string, a.slice(1), t.slice(1), ctx)), { variadic: Oid.any, strict: false, volatility: 's' }),
  fn(3540, 'format', [text], text, (a, ctx) => (a[0] === null ? null : formatText(a[0] as string, [], [], ctx)), { strict: false, volatility: 's' }),
  fn(1282, 'quote_ident', [text], text, (a) => quoteIdent(a[0] as string)),
  fn(1283, 'quote_literal', [text], text, (a) => quoteLiteral(a[0] as string)),
  fn(1285, 'quote_literal', [Oid.anyelement], text, (a, ctx, t) => quoteLiteral(castToText(t[0]?.oid ?? text, a[0], ctx)), { volatility: 's' }),
  fn(1289, 'quote_nullable', [text], text, (a) => (a[0] === null ? 'NULL' : quoteLiteral(a[0] as string)), { strict: false }),
  fn(1290, 'quote_nullable', [Oid.anyelement], text, (a, ctx, t) => (a[0] === null ? 'NULL' : quoteLiteral(castToText(t[0]?.oid ?? text, a[0], ctx))), { strict: false, volatility: 's' }),
  fn(2311, 'md5', [text], text, (a) => hash('md5', a[0] as string).toString('hex')),
  fn(2321, 'md5', [bytea], text, (a) => hash('md5', a[0] as Uint8Array).toString('hex')),
  fn(3419, 'sha224', [bytea], bytea, (a) => new Uint8Array(hash('sha224', a[0] as Uint8Array))),
  fn(3420, 'sha256', [bytea], bytea, (a) => new Uint8Array(hash('sha256', a[0] as Uint8Array))),
  fn(3421, 'sha384', [bytea], bytea, (a) => new Uint8Array(hash('sha384', a[0] as Uint8Array))),
  fn(3422, 'sha512', [bytea], bytea, (a) => new Uint8Array(hash('sha512', a[0] as Uint8Array))),
  fn(1621, 'chr', [int4], text, (a) => chr(a[0] as number)),
  fn(1620, 'ascii', [text], int4, (a) => (a[0] as string).codePointAt(0) ?? 0),
  fn(2089, 'to_hex', [int4], text, (a) => toHex(a[0] as number)),
  fn(2090, 'to_hex', [int8], text, (a) => toHex(a[0] as bigint)),
  fn(1946, 'encode', [bytea, text], text, (a) => encode(a[0] as Uint8Array, a[1] as string)),
  fn(1947, 'decode', [text, text], bytea, (a) => decode(a[0] as string, a[1] as string)),
];
