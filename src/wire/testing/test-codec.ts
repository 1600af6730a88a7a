/**
 * A tiny stand-in ValueCodec for wire/ tests (int2/int4/int8/float8/bool/text family only), so protocol tests
 * do not depend on common/pgtypes, which is developed separately. Not for production use.
 */
import { GatewayError } from '../../common/errors.ts';
import type { ValueCodec } from '../encode/value-codec.ts';

const INT2 = 21;
const INT4 = 23;
const INT8 = 20;
const FLOAT8 = 701;
const BOOL = 16;

export const testCodec: ValueCodec = {
  textOut(_oid, v) {
    if (typeof v === 'boolean') return v ? 't' : 'f';
    if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
    return String(v);
  },
  textIn(oid, _typmod, text) {
    switch (oid) {
      case INT2:
      case INT4: {
        if (!/^\s*[-+]?\d+\s*$/.test(text)) throw new GatewayError('22P02', `invalid input syntax for type integer: "${text}"`);
        return Number(text);
      }
      case INT8:
        return BigInt(text);
      case FLOAT8:
        return Number(text);
      case BOOL:
        return text === 't' || text === 'true';
      default:
        return text;
    }
  },
  binaryOut(oid, v) {
    const b = Buffer.alloc(oid === INT8 || oid === FLOAT8 ? 8 : oid === BOOL ? 1 : oid === INT2 ? 2 : 4);
    switch (oid) {
      case INT2:
        b.writeInt16BE(Number(v));
        return b;
      case INT4:
        b.writeInt32BE(Number(v));
        return b;
      case INT8:
        b.writeBigInt64BE(BigInt(v as bigint));
        return b;
      case FLOAT8:
        b.writeDoubleBE(Number(v));
        return b;
      case BOOL:
        b[0] = v ? 1 : 0;
        return b;
      default:
        return Buffer.from(String(v), 'utf8');
    }
  },
  binaryIn(oid, bytes) {
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    switch (oid) {
      case INT2:
        return b.readInt16BE(0);
      case INT4:
        if (b.length !== 4) throw new Error('bad int4');
        return b.readInt32BE(0);
      case INT8:
        return b.readBigInt64BE(0);
      case FLOAT8:
        return b.readDoubleBE(0);
      case BOOL:
        return b[0] === 1;
      default:
        return b.toString('utf8');
    }
  },
};
