/**
 * A lossless Thrift Compact Protocol codec for rewriting Parquet footers (parquet-splice.ts): every value keeps its
 * wire type, so a decoded FileMetaData / OffsetIndex re-encodes to the same bytes, and fields this code does not
 * know (newer Parquet versions) pass through untouched. The reader's decoder (read/thrift-compact.ts) drops the
 * types (i16 and i32 are both numbers there), which is enough for reading statistics but not for writing.
 * @see https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md
 */

import { CompactInput } from '../read/thrift-compact.ts';

/** compact protocol type ids (BOOL_TRUE doubles as the BOOL type of a list or map element) */
export const TType = { BOOL_TRUE: 1, BOOL_FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, SET: 10, MAP: 11, STRUCT: 12 } as const;

export type TNode =
  | { readonly t: 1 | 2; v: boolean }
  | { readonly t: 3 | 4 | 5; v: number }
  | { readonly t: 6; v: bigint }
  | { readonly t: 7; v: number }
  | { readonly t: 8; v: Uint8Array }
  | { readonly t: 9 | 10; et: number; v: TNode[] }
  | { readonly t: 11; kt: number; vt: number; v: [TNode, TNode][] }
  | { readonly t: 12; v: TStruct };

/** fields by id (encoded in ascending id order) */
export type TStruct = Map<number, TNode>;

class Reader extends CompactInput {
  value(t: number): TNode {
    switch (t) {
      case TType.BOOL_TRUE: case TType.BOOL_FALSE:
        // a struct field carries its value in the type; a list element is one byte (1 true, 2 false)
        throw new Error('Thrift: bool handled by its container');
      case TType.BYTE: { const x = this.byte(); return { t, v: x > 127 ? x - 256 : x }; }
      case TType.I16: case TType.I32: return { t, v: this.zigzag32() };
      case TType.I64: return { t, v: this.zigzag64() };
      case TType.DOUBLE: {
        if (this.pos + 8 > this.b.length) throw new Error('Thrift: unexpected end of input');
        const v = new DataView(this.b.buffer, this.b.byteOffset + this.pos, 8).getFloat64(0, true);
        this.pos += 8;
        return { t, v };
      }
      case TType.BINARY: {
        const n = this.varint32();
        if (this.pos + n > this.b.length) throw new Error('Thrift: binary past end of input');
        const v = this.b.subarray(this.pos, this.pos + n);
        this.pos += n;
        return { t, v };
      }
      case TType.LIST: case TType.SET: {
        const h = this.byte();
        let n = h >> 4;
        if (n === 15) n = this.varint32();
        const et = h & 0x0f;
        const v: TNode[] = [];
        for (let i = 0; i < n; i++) v.push(this.element(et));
        return { t, et, v };
      }
      case TType.MAP: {
        const n = this.varint32();
        if (n === 0) return { t, kt: 0, vt: 0, v: [] };
        const kv = this.byte();
        const v: [TNode, TNode][] = [];
        for (let i = 0; i < n; i++) v.push([this.element(kv >> 4), this.element(kv & 0x0f)]);
        return { t, kt: kv >> 4, vt: kv & 0x0f, v };
      }
      case TType.STRUCT: return { t, v: this.struct() };
      default: throw new Error(`Thrift: unknown compact type ${t}`);
    }
  }

  private element(t: number): TNode {
    if (t === TType.BOOL_TRUE || t === TType.BOOL_FALSE) return { t: TType.BOOL_TRUE, v: this.byte() === 1 };
    return this.value(t);
  }

  /** `spans`: where each field's value lies in the input (top level only) */
  struct(spans?: Map<number, [number, number]>): TStruct {
    const out: TStruct = new Map();
    let last = 0;
    for (;;) {
      const h = this.byte();
      if (h === 0) return out;
      const delta = h >> 4;
      const id = delta === 0 ? this.zigzag32() : last + delta;
      last = id;
      const t = h & 0x0f;
      const start = this.pos;
      out.set(id, t === TType.BOOL_TRUE || t === TType.BOOL_FALSE ? { t, v: t === TType.BOOL_TRUE } : this.value(t));
      spans?.set(id, [start, this.pos]);
    }
  }
}

/**
 * decodes one struct from `b` (a view: binaries are subarrays of it); `end` is where it stopped, `spans` where each
 * top-level field's value lies in `b`
 */
export function decodeThriftStruct(b: Uint8Array): { struct: TStruct; end: number; spans: ReadonlyMap<number, readonly [number, number]> } {
  const r = new Reader(b);
  const spans = new Map<number, [number, number]>();
  const struct = r.struct(spans);
  return { struct, end: r.pos, spans };
}

class Writer {
  private buf = new Uint8Array(1024);
  private pos = 0;

  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  byte(x: number): void {
    this.reserve(1);
    this.buf[this.pos++] = x & 0xff;
  }

  varint32(n: number): void {
    n >>>= 0;
    while (n >= 0x80) {
      this.byte((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    this.byte(n);
  }

  varint(n: bigint): void {
    if (n <= 0x1fffffffffffffn) {
      // exact as a number: no BigInt arithmetic per 7 bits
      let x = Number(n);
      while (x >= 0x80) {
        this.byte((x % 0x80) | 0x80);
        x = Math.floor(x / 0x80);
      }
      this.byte(x);
      return;
    }
    while (n >= 0x80n) {
      this.byte(Number(n & 0x7fn) | 0x80);
      n >>= 7n;
    }
    this.byte(Number(n));
  }

  zigzag32(n: number): void {
    this.varint32((n << 1) ^ (n >> 31));
  }

  value(node: TNode): void {
    switch (node.t) {
      case TType.BOOL_TRUE: case TType.BOOL_FALSE: this.byte(node.v ? 1 : 2); return; // a list element
      case TType.BYTE: this.byte(node.v); return;
      case TType.I16: case TType.I32: this.zigzag32(node.v); return;
      case TType.I64: this.varint(BigInt.asUintN(64, (node.v << 1n) ^ (node.v >> 63n))); return;
      case TType.DOUBLE: {
        this.reserve(8);
        new DataView(this.buf.buffer, this.pos, 8).setFloat64(0, node.v, true);
        this.pos += 8;
        return;
      }
      case TType.BINARY: {
        this.varint32(node.v.length);
        this.reserve(node.v.length);
        this.buf.set(node.v, this.pos);
        this.pos += node.v.length;
        return;
      }
      case TType.LIST: case TType.SET: {
        const n = node.v.length;
        if (n < 15) this.byte((n << 4) | node.et);
        else {
          this.byte(0xf0 | node.et);
          this.varint32(n);
        }
        for (const e of node.v) this.value(e);
        return;
      }
      case TType.MAP: {
        this.varint32(node.v.length);
        if (node.v.length === 0) return;
        this.byte((node.kt << 4) | node.vt);
        for (const [k, v] of node.v) {
          this.value(k);
          this.value(v);
        }
        return;
      }
      case TType.STRUCT: this.struct(node.v); return;
    }
  }

  struct(s: TStruct): void {
    let last = 0;
    let ids: Iterable<number> = s.keys();
    let prev = -Infinity;
    for (const id of s.keys()) {
      if (id < prev) {
        ids = [...s.keys()].sort((a, b) => a - b);
        break;
      }
      prev = id;
    }
    for (const id of ids) {
      const node = s.get(id)!;
      // a bool field's value is its type (1 true, 2 false)
      const t = node.t === TType.BOOL_TRUE || node.t === TType.BOOL_FALSE ? (node.v ? TType.BOOL_TRUE : TType.BOOL_FALSE) : node.t;
      const delta = id - last;
      if (delta > 0 && delta <= 15) this.byte((delta << 4) | t);
      else {
        this.byte(t);
        this.zigzag32(id);
      }
      last = id;
      if (t !== TType.BOOL_TRUE && t !== TType.BOOL_FALSE) this.value(node);
    }
    this.byte(0);
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

export function encodeThriftStruct(s: TStruct): Uint8Array {
  const w = new Writer();
  w.struct(s);
  return w.bytes();
}

/** field `id` of a struct node's struct; undefined when absent or not a struct */
export function structField(s: TStruct, id: number): TStruct | undefined {
  const n = s.get(id);
  return n?.t === TType.STRUCT ? n.v : undefined;
}

/** elements of list field `id` */
export function listField(s: TStruct, id: number): TNode[] {
  const n = s.get(id);
  return n?.t === TType.LIST || n?.t === TType.SET ? n.v : [];
}

/** an i64 (or narrower integer) field as a number; undefined when absent */
export function intField(s: TStruct, id: number): number | undefined {
  const n = s.get(id);
  if (n === undefined) return undefined;
  if (n.t === TType.I64) return Number(n.v);
  if (n.t === TType.I32 || n.t === TType.I16 || n.t === TType.BYTE) return n.v;
  return undefined;
}

/** sets an i64 field */
export function setI64(s: TStruct, id: number, v: number | bigint): void {
  s.set(id, { t: TType.I64, v: BigInt(v) });
}
