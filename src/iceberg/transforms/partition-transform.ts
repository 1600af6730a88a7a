/**
 * Iceberg partition transforms (§ Partition Transforms): identity, bucket[N], truncate[W], year, month,
 * day, hour, void. `apply` takes a source value in its lakegate JS representation
 * (common/pgtypes/values.ts: int → number, long/timestamp → bigint µs, date → days, time → µs, decimal →
 * Numeric, uuid → string, binary → Uint8Array) and returns the partition value in the JS representation of
 * the transform's result type (bucket/year/month/hour → int number, day → date days); null → null.
 * `toHumanString` renders a value the way Iceberg's partition paths do (`2024-01-02`, `2024-01`, `3`).
 */
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergType, PrimitiveType } from '../spec/schema.ts';
import { bigIntToMinimalBE, uuidToBytes } from '../write/single-value-bytes.ts';
import { murmur3x86_32 } from './murmur3.ts';

export type TransformName = 'identity' | 'bucket' | 'truncate' | 'year' | 'month' | 'day' | 'hour' | 'void';

export interface PartitionTransform {
  readonly name: TransformName;
  /** N of bucket[N], W of truncate[W] */
  readonly param?: number;
  /** as written in the partition spec JSON: `bucket[16]`, `day`, … */
  readonly text: string;
  readonly resultType: PrimitiveType;
  apply(v: unknown): unknown;
  toHumanString(v: unknown): string;
}

const INT: PrimitiveType = { kind: 'primitive', name: 'int' };
const DATE: PrimitiveType = { kind: 'primitive', name: 'date' };
const US_PER_HOUR = 3_600_000_000n;
const US_PER_DAY = 86_400_000_000n;

const floorDiv = (a: bigint, b: bigint): bigint => { const q = a / b; return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q; };

/** 8-byte little-endian long, the hash input of int, long, date, time and timestamps */
function longBytes(v: bigint): Uint8Array {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigInt64(0, BigInt.asIntN(64, v), true);
  return b;
}

/** unscaled value of a decimal at the column's scale */
function unscaledAt(v: Numeric, scale: number): bigint {
  if (!v.isFinite()) throw pgError(SqlState.invalid_parameter_value, 'cannot partition a non-finite numeric value');
  return v.scale <= scale ? v.unscaled * 10n ** BigInt(scale - v.scale) : v.unscaled / 10n ** BigInt(v.scale - scale);
}

const enc = new TextEncoder();

/** § Appendix B hash of one value of primitive type `t` */
export function bucketHash(t: PrimitiveType, v: unknown): number {
  switch (t.name) {
    case 'int': case 'long': case 'date': case 'time': case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns':
      return murmur3x86_32(longBytes(BigInt(v as number | bigint)));
    case 'decimal': return murmur3x86_32(bigIntToMinimalBE(unscaledAt(v as Numeric, t.scale ?? 0)));
    case 'string': return murmur3x86_32(enc.encode(v as string));
    case 'uuid': return murmur3x86_32(uuidToBytes(v as string));
    case 'binary': case 'fixed': return murmur3x86_32(v as Uint8Array);
    default: throw pgError(SqlState.feature_not_supported, `bucket transform is not supported for type ${t.name}`);
  }
}

/** days since epoch → civil (year, month 1-12, day) */
function civil(days: number): [number, number, number] {
  const d = new Date(days * 86_400_000);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
}
const pad = (n: number, w = 2): string => (n < 0 ? '-' + String(-n).padStart(w, '0') : String(n).padStart(w, '0'));

/** µs (timestamp/timestamptz) or days (date) → days since epoch */
function toDays(t: PrimitiveType, v: unknown): number {
  if (t.name === 'date') return v as number;
  return Number(floorDiv(BigInt(v as bigint), t.name.endsWith('_ns') ? US_PER_DAY * 1000n : US_PER_DAY));
}

function isTemporal(t: PrimitiveType, withDate: boolean): boolean {
  return (withDate && t.name === 'date') || ['timestamp', 'timestamptz', 'timestamp_ns', 'timestamptz_ns'].includes(t.name);
}

function humanOf(t: PrimitiveType, v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (t.name) {
    case 'date': { const [y, m, d] = civil(v as number); return `${pad(y, 4)}-${pad(m)}-${pad(d)}`; }
    case 'binary': case 'fixed': return Buffer.from(v as Uint8Array).toString('base64');
    case 'decimal': return (v as Numeric).toString();
    case 'time': return javaLocalTime(Number(v));
    case 'timestamp': case 'timestamptz': {
      // Java's LocalDateTime / OffsetDateTime(UTC).toString(): 2017-11-16T22:31:08, …T22:31 when seconds are 0, `Z` for UTC
      const us = BigInt(v as bigint);
      const days = Number(floorDiv(us, US_PER_DAY));
      const rest = Number(us - BigInt(days) * US_PER_DAY);
      return `${humanOf(DATE, days)}T${javaLocalTime(rest)}${t.name === 'timestamptz' ? 'Z' : ''}`;
    }
    default: return String(v);
  }
}

/** java.time.LocalTime.toString() of µs since midnight: HH:mm[:ss[.SSS|.SSSSSS]] */
function javaLocalTime(us: number): string {
  const s = Math.floor(us / 1e6);
  const frac = us - s * 1e6;
  let out = `${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}`;
  if (s % 60 !== 0 || frac !== 0) out += `:${pad(s % 60)}`;
  if (frac !== 0) out += frac % 1000 === 0 ? `.${String(frac / 1000).padStart(3, '0')}` : `.${String(frac).padStart(6, '0')}`;
  return out;
}

function reject(transform: string, t: IcebergType): never {
  const name = t.kind === 'primitive' ? t.name : t.kind;
  throw pgError(SqlState.invalid_parameter_value, `Invalid source type ${name} for transform: ${transform}`);
}

/** a transform as written in the spec JSON (`bucket[16]`, `truncate[4]`, `day`, …) over source type `t` */
export function partitionTransform(text: string, t: IcebergType): PartitionTransform {
  const m = /^(\w+)(?:\[(\d+)\])?$/.exec(text.trim());
  const name = m?.[1] ?? '';
  const param = m?.[2] === undefined ? undefined : Number(m[2]);
  if (t.kind !== 'primitive') reject(text, t);
  const src = t;
  const base = { text, ...(param === undefined ? {} : { param }) };
  switch (name) {
    case 'identity':
      return { ...base, name, resultType: src, apply: (v) => v ?? null, toHumanString: (v) => humanOf(src, v) };
    case 'void':
      return { ...base, name, resultType: src, apply: () => null, toHumanString: () => 'null' };
    case 'bucket': {
      if (param === undefined || param <= 0) throw pgError(SqlState.invalid_parameter_value, `Invalid bucket count: ${text}`);
      bucketHash(src, sample(src)); // rejects unsupported types early
      return { ...base, name, resultType: INT, apply: (v) => (v === null || v === undefined ? null : (bucketHash(src, v) & 0x7fffffff) % param), toHumanString: (v) => humanOf(INT, v) };
    }
    case 'truncate': {
      if (param === undefined || param <= 0) throw pgError(SqlState.invalid_parameter_value, `Invalid truncate width: ${text}`);
      return { ...base, name, resultType: src, apply: truncateFn(src, param, text), toHumanString: (v) => humanOf(src, v) };
    }
    case 'year': case 'month': case 'day': case 'hour': {
      if (!isTemporal(src, name !== 'hour')) reject(text, src);
      return { ...base, name, resultType: name === 'day' ? DATE : INT, apply: timeFn(name, src), toHumanString: (v) => timeHuman(name, v) };
    }
    default:
      throw pgError(SqlState.feature_not_supported, `partition transform "${text}" is not supported`);
  }
}

/** a non-null value of type t (to validate bucket's source type when the transform is built) */
function sample(t: PrimitiveType): unknown {
  switch (t.name) {
    case 'int': case 'date': case 'time': return 0;
    case 'long': case 'timestamp': case 'timestamptz': case 'timestamp_ns': case 'timestamptz_ns': return 0n;
    case 'decimal': return Numeric.ZERO;
    case 'string': return '';
    case 'uuid': return '00000000-0000-0000-0000-000000000000';
    case 'binary': case 'fixed': return new Uint8Array(0);
    default: return reject(`bucket`, t);
  }
}

function truncateFn(t: PrimitiveType, w: number, text: string): (v: unknown) => unknown {
  const W = BigInt(w);
  switch (t.name) {
    case 'int': return (v) => (v === null || v === undefined ? null : (v as number) - ((((v as number) % w) + w) % w));
    case 'long': return (v) => (v === null || v === undefined ? null : BigInt(v as bigint) - (((BigInt(v as bigint) % W) + W) % W));
    case 'decimal': return (v) => {
      if (v === null || v === undefined) return null;
      const u = unscaledAt(v as Numeric, t.scale ?? 0);
      return Numeric.of(u - (((u % W) + W) % W), t.scale ?? 0);
    };
    case 'string': return (v) => {
      if (v === null || v === undefined) return null;
      const cps = Array.from(v as string);
      return cps.length <= w ? v : cps.slice(0, w).join('');
    };
    case 'binary': return (v) => (v === null || v === undefined ? null : (v as Uint8Array).subarray(0, w));
    default: return reject(text, t);
  }
}

function timeFn(name: 'year' | 'month' | 'day' | 'hour', t: PrimitiveType): (v: unknown) => unknown {
  return (v) => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number' && !Number.isFinite(v)) throw pgError(SqlState.invalid_parameter_value, 'cannot partition an infinite date');
    if (name === 'hour') return Number(floorDiv(BigInt(v as bigint), t.name.endsWith('_ns') ? US_PER_HOUR * 1000n : US_PER_HOUR));
    const days = toDays(t, v);
    if (name === 'day') return days;
    const [y, m] = civil(days);
    return name === 'year' ? y - 1970 : (y - 1970) * 12 + (m - 1);
  };
}

function timeHuman(name: 'year' | 'month' | 'day' | 'hour', v: unknown): string {
  if (v === null || v === undefined) return 'null';
  const n = v as number;
  switch (name) {
    case 'year': return pad(1970 + n, 4);
    case 'month': { const y = 1970 + Math.floor(n / 12); return `${pad(y, 4)}-${pad((((n % 12) + 12) % 12) + 1)}`; }
    case 'day': return humanOf(DATE, n);
    case 'hour': { const days = Math.floor(n / 24); return `${humanOf(DATE, days)}-${pad(((n % 24) + 24) % 24)}`; }
  }
}
