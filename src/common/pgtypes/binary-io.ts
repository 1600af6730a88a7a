/**
 * binaryIn / binaryOut: PostgreSQL's binary send/recv formats (network byte order), dispatched by OID.
 * Dates and timestamps move between our 1970 epoch (values.ts) and PostgreSQL's 2000-01-01 epoch here.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/utils/adt/ (the *send/*recv functions)
 */
import { GatewayError, notSupported } from '../errors.ts';
import { SqlState } from '../sqlstate.ts';
import { Oid } from './oids.ts';
import { typeLabel } from './type-label.ts';
import { type Interval, type PgArray, type PgRecord, type TimeTz, isPgArray, isPgRecord, TIMESTAMP_INFINITY, TIMESTAMP_NEG_INFINITY } from './values.ts';
import { Numeric } from './numeric.ts';
import { numericFromBinary, numericToBinary } from './numeric-binary.ts';
import { jsonbIn } from './json-text.ts';
import { PG_EPOCH_DAYS, PG_EPOCH_USECS } from './calendar.ts';
import { elementTypeOf } from './registry.ts';
import { inetRecv, inetSend } from './inet-value.ts';
import { bitRecv, bitSend } from './bit-text.ts';

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function insufficient(): GatewayError {
  return new GatewayError(SqlState.invalid_binary_representation, 'insufficient data left in message');
}

function incorrect(): GatewayError {
  return new GatewayError(SqlState.invalid_binary_representation, 'incorrect binary data format');
}

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

function fixed(b: Uint8Array, len: number): DataView {
  if (b.length < len) throw insufficient();
  if (b.length > len) throw incorrect();
  return view(b);
}

function decodeText(b: Uint8Array): string {
  try {
    return utf8Decoder.decode(b);
  } catch {
    throw new GatewayError(SqlState.character_not_in_repertoire, 'invalid byte sequence for encoding "UTF8"');
  }
}

const INT32_MAX = 2147483647, INT32_MIN = -2147483648;

/** Binary receive format → JS value (values.ts). */
export function binaryIn(oid: number, bytes: Uint8Array): unknown {
  switch (oid) {
    case Oid.bool: return fixed(bytes, 1).getUint8(0) !== 0;
    case Oid.int2: return fixed(bytes, 2).getInt16(0);
    case Oid.int4: return fixed(bytes, 4).getInt32(0);
    case Oid.int8: return fixed(bytes, 8).getBigInt64(0);
    case Oid.oid: case Oid.regproc: case Oid.regprocedure: case Oid.regoper: case Oid.regoperator: case Oid.regclass:
    case Oid.regtype: case Oid.regnamespace: case Oid.regrole: case Oid.regconfig: case Oid.regdictionary:
    case Oid.regcollation: case Oid.xid: case Oid.cid:
      return fixed(bytes, 4).getUint32(0);
    case Oid.xid8: return fixed(bytes, 8).getBigUint64(0);
    case Oid.float4: return fixed(bytes, 4).getFloat32(0);
    case Oid.float8: return fixed(bytes, 8).getFloat64(0);
    case Oid.numeric: return numericFromBinary(bytes);
    case Oid.text: case Oid.varchar: case Oid.bpchar: case Oid.name: case Oid.xml: case Oid.unknown:
    case Oid.refcursor: case Oid.cstring: case Oid.json:
      return decodeText(bytes);
    case Oid.char: return bytes.length === 0 ? '' : String.fromCharCode(bytes[0]!); // one byte, U+0000..U+00FF
    case Oid.bytea: return bytes.slice();
    case Oid.uuid: return uuidFromBytes(bytes);
    case Oid.inet: case Oid.cidr: return inetRecv(bytes, oid === Oid.cidr);
    case Oid.jsonb: {
      if (bytes.length < 1) throw insufficient();
      if (bytes[0] !== 1) throw new GatewayError(SqlState.invalid_binary_representation, `unsupported jsonb version number ${bytes[0]}`);
      return jsonbIn(decodeText(bytes.subarray(1)));
    }
    case Oid.date: {
      const d = fixed(bytes, 4).getInt32(0);
      return d === INT32_MAX ? Infinity : d === INT32_MIN ? -Infinity : d + PG_EPOCH_DAYS;
    }
    case Oid.time: return Number(fixed(bytes, 8).getBigInt64(0));
    case Oid.timetz: {
      const dv = fixed(bytes, 12);
      return { micros: Number(dv.getBigInt64(0)), offsetSeconds: -dv.getInt32(8) || 0 } satisfies TimeTz;
    }
    case Oid.timestamp: case Oid.timestamptz: {
      const t = fixed(bytes, 8).getBigInt64(0);
      return t === TIMESTAMP_INFINITY || t === TIMESTAMP_NEG_INFINITY ? t : t + PG_EPOCH_USECS;
    }
    case Oid.interval: {
      const dv = fixed(bytes, 16);
      return { micros: dv.getBigInt64(0), days: dv.getInt32(8), months: dv.getInt32(12) } satisfies Interval;
    }
  }
  if (oid === Oid.record) throw new GatewayError(SqlState.feature_not_supported, 'input of anonymous composite types is not implemented');
  if (oid === Oid.money) return fixed(bytes, 8).getBigInt64(0);
  if (oid === Oid.bit || oid === Oid.varbit) return bitRecv(bytes);
  if (oid === Oid.int2vector) return arrayFromBinary(bytes, Oid.int2);
  if (oid === Oid.oidvector) return arrayFromBinary(bytes, Oid.oid);
  if (elementTypeOf(oid) !== 0) return arrayFromBinary(bytes, elementTypeOf(oid));
  throw notSupported(`binary input for type ${typeLabel(oid)}`);
}

/** JS value → binary send format. */
export function binaryOut(oid: number, value: unknown): Uint8Array {
  switch (oid) {
    case Oid.bool: return Uint8Array.of(value ? 1 : 0);
    case Oid.int2: { const b = new Uint8Array(2); view(b).setInt16(0, Number(value)); return b; }
    case Oid.int4: { const b = new Uint8Array(4); view(b).setInt32(0, Number(value)); return b; }
    case Oid.int8: case Oid.money: { const b = new Uint8Array(8); view(b).setBigInt64(0, BigInt(value as bigint)); return b; }
    case Oid.bit: case Oid.varbit: return bitSend(value as string);
    case Oid.oid: case Oid.regproc: case Oid.regprocedure: case Oid.regoper: case Oid.regoperator: case Oid.regclass:
    case Oid.regtype: case Oid.regnamespace: case Oid.regrole: case Oid.regconfig: case Oid.regdictionary:
    case Oid.regcollation: case Oid.xid: case Oid.cid: {
      const b = new Uint8Array(4); view(b).setUint32(0, Number(value) >>> 0); return b;
    }
    case Oid.xid8: { const b = new Uint8Array(8); view(b).setBigUint64(0, BigInt(value as bigint)); return b; }
    case Oid.float4: { const b = new Uint8Array(4); view(b).setFloat32(0, Number(value)); return b; }
    case Oid.float8: { const b = new Uint8Array(8); view(b).setFloat64(0, Number(value)); return b; }
    case Oid.numeric:
      return numericToBinary(Numeric.isNumeric(value) ? value : typeof value === 'bigint' ? Numeric.fromBigInt(value) : Numeric.fromNumber(value as number));
    case Oid.text: case Oid.varchar: case Oid.bpchar: case Oid.name: case Oid.xml: case Oid.unknown:
    case Oid.refcursor: case Oid.cstring: case Oid.json:
      return utf8Encoder.encode(value as string);
    case Oid.char: return (value as string).length === 0 ? new Uint8Array(0) : Uint8Array.of((value as string).charCodeAt(0) & 0xff);
    case Oid.bytea: return value as Uint8Array;
    case Oid.uuid: return uuidToBytes(value as string);
    case Oid.inet: case Oid.cidr: return inetSend(value as string, oid === Oid.cidr);
    case Oid.jsonb: {
      const t = utf8Encoder.encode(value as string);
      const b = new Uint8Array(t.length + 1);
      b[0] = 1;
      b.set(t, 1);
      return b;
    }
    case Oid.date: {
      const d = value as number;
      const b = new Uint8Array(4);
      view(b).setInt32(0, d === Infinity ? INT32_MAX : d === -Infinity ? INT32_MIN : d - PG_EPOCH_DAYS);
      return b;
    }
    case Oid.time: { const b = new Uint8Array(8); view(b).setBigInt64(0, BigInt(value as number)); return b; }
    case Oid.timetz: {
      const v = value as TimeTz;
      const b = new Uint8Array(12);
      const dv = view(b);
      dv.setBigInt64(0, BigInt(v.micros));
      dv.setInt32(8, -v.offsetSeconds);
      return b;
    }
    case Oid.timestamp: case Oid.timestamptz: {
      const t = value as bigint;
      const b = new Uint8Array(8);
      view(b).setBigInt64(0, t === TIMESTAMP_INFINITY || t === TIMESTAMP_NEG_INFINITY ? t : t - PG_EPOCH_USECS);
      return b;
    }
    case Oid.interval: {
      const v = value as Interval;
      const b = new Uint8Array(16);
      const dv = view(b);
      dv.setBigInt64(0, v.micros);
      dv.setInt32(8, v.days);
      dv.setInt32(12, v.months);
      return b;
    }
    case Oid.record: return recordToBinary(value as PgRecord);
  }
  if (isPgArray(value)) return arrayToBinary(value);
  if (isPgRecord(value)) return recordToBinary(value);
  throw notSupported(`binary output for type ${typeLabel(oid)}`);
}

function uuidFromBytes(b: Uint8Array): string {
  if (b.length < 16) throw insufficient();
  if (b.length > 16) throw incorrect();
  let s = '';
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) s += '-';
    s += (b[i]! < 16 ? '0' : '') + b[i]!.toString(16);
  }
  return s;
}

function uuidToBytes(s: string): Uint8Array {
  const b = new Uint8Array(16);
  let j = 0;
  for (let i = 0; i < s.length && j < 16; i++) {
    if (s.charCodeAt(i) === 45) continue;
    b[j++] = parseInt(s.slice(i, i + 2), 16);
    i++;
  }
  return b;
}

/** array_send: ndim, hasnull, elemtype, (dim, lbound)*, then (len, bytes)* with len -1 for NULL */
function arrayToBinary(a: PgArray): Uint8Array {
  const ndim = a.values.length === 0 ? 0 : a.dims.length;
  const parts: Uint8Array[] = [];
  let hasNull = 0, total = 12 + ndim * 8;
  for (const v of a.values) {
    if (v === null || v === undefined) { hasNull = 1; parts.push(NULL_MARK); total += 4; continue; }
    const p = binaryOut(a.elementOid, v);
    parts.push(p);
    total += 4 + p.length;
  }
  const out = new Uint8Array(total);
  const dv = view(out);
  dv.setInt32(0, ndim);
  dv.setInt32(4, hasNull);
  dv.setUint32(8, a.elementOid);
  let off = 12;
  for (let k = 0; k < ndim; k++) {
    dv.setInt32(off, a.dims[k]!);
    dv.setInt32(off + 4, a.lowerBounds[k] ?? 1);
    off += 8;
  }
  for (const p of parts) {
    if (p === NULL_MARK) { dv.setInt32(off, -1); off += 4; continue; }
    dv.setInt32(off, p.length);
    out.set(p, off + 4);
    off += 4 + p.length;
  }
  return out;
}

const NULL_MARK = new Uint8Array(0);

/** array_recv */
function arrayFromBinary(b: Uint8Array, expectedElem: number): PgArray {
  if (b.length < 12) throw insufficient();
  const dv = view(b);
  const ndim = dv.getInt32(0);
  const flags = dv.getInt32(4);
  const elemOid = dv.getUint32(8);
  if (ndim < 0) throw new GatewayError(SqlState.invalid_binary_representation, `invalid number of dimensions: ${ndim}`);
  if (ndim > 6) throw new GatewayError(SqlState.program_limit_exceeded, `number of array dimensions (${ndim}) exceeds the maximum allowed (6)`);
  if (flags !== 0 && flags !== 1) throw new GatewayError(SqlState.invalid_binary_representation, 'invalid array flags');
  if (elemOid !== expectedElem) throw new GatewayError(SqlState.datatype_mismatch, 'binary data has array element type ' + elemOid + ' instead of expected ' + expectedElem);
  if (b.length < 12 + ndim * 8) throw insufficient();
  const dims: number[] = [], lbs: number[] = [];
  let count = ndim === 0 ? 0 : 1;
  for (let k = 0; k < ndim; k++) {
    dims.push(dv.getInt32(12 + k * 8));
    lbs.push(dv.getInt32(16 + k * 8));
    count *= dims[k]!;
  }
  let off = 12 + ndim * 8;
  const values: unknown[] = [];
  for (let i = 0; i < count; i++) {
    if (off + 4 > b.length) throw insufficient();
    const len = dv.getInt32(off);
    off += 4;
    if (len === -1) { values.push(null); continue; }
    if (len < 0 || off + len > b.length) throw insufficient();
    values.push(binaryIn(elemOid, b.subarray(off, off + len)));
    off += len;
  }
  if (off !== b.length) throw incorrect();
  return count === 0 ? { kind: 'array', elementOid: elemOid, dims: [], lowerBounds: [], values } : { kind: 'array', elementOid: elemOid, dims, lowerBounds: lbs, values };
}

/** record_send: nfields, then (oid, len, bytes)* */
function recordToBinary(r: PgRecord): Uint8Array {
  const parts = r.values.map((v, i) => (v === null || v === undefined ? null : binaryOut(r.fieldOids[i] ?? Oid.text, v)));
  let total = 4;
  for (const p of parts) total += 8 + (p?.length ?? 0);
  const out = new Uint8Array(total);
  const dv = view(out);
  dv.setInt32(0, parts.length);
  let off = 4;
  parts.forEach((p, i) => {
    dv.setUint32(off, r.fieldOids[i] ?? Oid.text);
    dv.setInt32(off + 4, p === null ? -1 : p.length);
    if (p !== null) out.set(p, off + 8);
    off += 8 + (p?.length ?? 0);
  });
  return out;
}
