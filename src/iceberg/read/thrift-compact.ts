/**
 * A generic Thrift Compact Protocol decoder (the encoding of Parquet's footer FileMetaData). Structs decode to
 * Maps from field id to value; i64 to bigint; binary to Uint8Array (a view into the input); lists/sets to arrays.
 * parquet-wasm does not expose column statistics, so row-group pruning reads the footer itself.
 */
export type ThriftValue = boolean | number | bigint | Uint8Array | ThriftValue[] | ThriftStruct | Map<ThriftValue, ThriftValue>;
export type ThriftStruct = Map<number, ThriftValue>;

const T = { TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 } as const;

/** the Compact Protocol's byte-level reads (varints, zigzag), shared by this reader and write/thrift-compact-tree.ts */
export class CompactInput {
  pos = 0;
  constructor(protected readonly b: Uint8Array) {}

  protected byte(): number {
    if (this.pos >= this.b.length) throw new Error('Thrift: unexpected end of input');
    return this.b[this.pos++]!;
  }

  protected varint(): bigint {
    let shift = 0n;
    let out = 0n;
    for (;;) {
      const x = this.byte();
      out |= BigInt(x & 0x7f) << shift;
      if ((x & 0x80) === 0) return out;
      shift += 7n;
      if (shift > 70n) throw new Error('Thrift: varint too long');
    }
  }

  protected varint32(): number {
    let shift = 0;
    let out = 0;
    for (;;) {
      const x = this.byte();
      out |= (x & 0x7f) << shift;
      if ((x & 0x80) === 0) return out >>> 0;
      shift += 7;
      if (shift > 35) throw new Error('Thrift: varint too long');
    }
  }

  protected zigzag32(): number {
    const n = this.varint32();
    return (n >>> 1) ^ -(n & 1);
  }

  /** an i64's zigzag varint: summed as a number while exact (offsets, sizes, counts), BigInt only past 2^49 */
  protected zigzag64(): bigint {
    let out = 0;
    let mul = 1;
    const start = this.pos;
    for (let i = 0; i < 7; i++) {
      const x = this.byte();
      out += (x & 0x7f) * mul;
      if ((x & 0x80) === 0) return BigInt(out % 2 === 0 ? out / 2 : -(out + 1) / 2);
      mul *= 128;
    }
    this.pos = start;
    const n = this.varint();
    return (n >> 1n) ^ -(n & 1n);
  }
}

export class ThriftCompactReader extends CompactInput {
  private value(type: number): ThriftValue {
    switch (type) {
      case T.TRUE: return true;
      case T.FALSE: return false;
      case T.BYTE: { const x = this.byte(); return x > 127 ? x - 256 : x; }
      case T.I16: case T.I32: return this.zigzag32();
      case T.I64: return this.zigzag64();
      case T.DOUBLE: {
        const v = new DataView(this.b.buffer, this.b.byteOffset + this.pos, 8).getFloat64(0, true);
        this.pos += 8;
        return v;
      }
      case T.BINARY: {
        const n = this.varint32();
        if (this.pos + n > this.b.length) throw new Error('Thrift: binary past end of input');
        const out = this.b.subarray(this.pos, this.pos + n);
        this.pos += n;
        return out;
      }
      case T.LIST: case T.SET: {
        const h = this.byte();
        let n = h >> 4;
        if (n === 15) n = this.varint32();
        const et = h & 0x0f;
        const out: ThriftValue[] = [];
        for (let i = 0; i < n; i++) out.push(et === T.TRUE || et === T.FALSE ? this.byte() === 1 : this.value(et));
        return out;
      }
      case T.MAP: {
        const n = this.varint32();
        const m = new Map<ThriftValue, ThriftValue>();
        if (n === 0) return m;
        const kv = this.byte();
        for (let i = 0; i < n; i++) {
          const k = this.value(kv >> 4);
          m.set(k, this.value(kv & 0x0f));
        }
        return m;
      }
      case T.STRUCT: return this.struct();
      default: throw new Error(`Thrift: unknown compact type ${type}`);
    }
  }

  struct(): ThriftStruct {
    const out: ThriftStruct = new Map();
    let last = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) return out;
      const delta = h >> 4;
      const id = delta === 0 ? this.zigzag32() : last + delta;
      last = id;
      out.set(id, this.value(h & 0x0f));
    }
  }
}

export function readThriftStruct(b: Uint8Array): ThriftStruct {
  return new ThriftCompactReader(b).struct();
}
