/**
 * § Appendix D binary single-value serialization, for the lower/upper bounds of data files:
 * int/date/float 4-byte LE, long/time/timestamp(tz)/double 8-byte LE, string UTF-8, uuid 16 bytes BE,
 * binary raw, decimal minimal big-endian two's complement of the unscaled value, boolean 0x00/0x01.
 * Strings and binaries are truncated to 16 (code points / bytes) as Iceberg's default metrics mode
 * `truncate(16)` does; a truncated upper bound is rounded up (last code point / byte incremented) or dropped.
 */
import type { PrimitiveType } from '../spec/schema.ts';
import type { Numeric } from '../../common/pgtypes/numeric.ts';

export const TRUNCATE_LENGTH = 16;

/** minimal big-endian two's complement bytes of n (BigInteger.toByteArray) */
export function bigIntToMinimalBE(n: bigint): Uint8Array {
  const bytes: number[] = [];
  let v = n;
  for (;;) {
    const b = Number(v & 0xffn);
    bytes.unshift(b);
    v >>= 8n;
    if ((v === 0n && (b & 0x80) === 0) || (v === -1n && (b & 0x80) !== 0)) break;
  }
  return Uint8Array.from(bytes);
}

export function uuidToBytes(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s.replace(/-/g, ''), 'hex'));
}

const enc = new TextEncoder();

/** value (already in the column's JS representation, non-null) → bound bytes */
export function singleValueBytes(t: PrimitiveType, v: unknown): Uint8Array {
  switch (t.name) {
    case 'boolean': return Uint8Array.of(v === true ? 1 : 0);
    case 'int': case 'date': {
      const b = new Uint8Array(4);
      new DataView(b.buffer).setInt32(0, v as number, true);
      return b;
    }
    case 'float': {
      const b = new Uint8Array(4);
      new DataView(b.buffer).setFloat32(0, v as number, true);
      return b;
    }
    case 'double': {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, v as number, true);
      return b;
    }
    case 'long': case 'time': case 'timestamp': case 'timestamptz': {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setBigInt64(0, BigInt(v as number | bigint), true);
      return b;
    }
    case 'string': return enc.encode(v as string);
    case 'uuid': return uuidToBytes(v as string);
    case 'binary': case 'fixed': return Uint8Array.from(v as Uint8Array);
    case 'decimal': return bigIntToMinimalBE((v as Numeric).unscaled);
    default: throw new Error(`no single-value serialization for ${t.name}`);
  }
}

/** lower bound of a string: its first 16 code points */
export function truncateStringLower(s: string): string {
  const cps = Array.from(s);
  return cps.length <= TRUNCATE_LENGTH ? s : cps.slice(0, TRUNCATE_LENGTH).join('');
}

/** upper bound of a string: first 16 code points with the last one incremented; null when none can be */
export function truncateStringUpper(s: string): string | null {
  const cps = Array.from(s);
  if (cps.length <= TRUNCATE_LENGTH) return s;
  const head = cps.slice(0, TRUNCATE_LENGTH);
  for (let i = head.length - 1; i >= 0; i--) {
    let cp = head[i]!.codePointAt(0)! + 1;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xe000; // skip surrogates
    if (cp <= 0x10ffff) return head.slice(0, i).join('') + String.fromCodePoint(cp);
  }
  return null;
}

export function truncateBinaryLower(b: Uint8Array): Uint8Array {
  return b.length <= TRUNCATE_LENGTH ? b : b.subarray(0, TRUNCATE_LENGTH);
}

export function truncateBinaryUpper(b: Uint8Array): Uint8Array | null {
  if (b.length <= TRUNCATE_LENGTH) return b;
  const head = Uint8Array.from(b.subarray(0, TRUNCATE_LENGTH));
  for (let i = head.length - 1; i >= 0; i--) {
    if (head[i]! < 0xff) {
      head[i]! += 1;
      return head.subarray(0, i + 1);
    }
  }
  return null;
}

/** unsigned lexicographic byte comparison (Iceberg orders binary and UTF-8 strings this way) */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
