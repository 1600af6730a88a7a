// A write-only Thrift Compact Protocol encoder for the Parquet structures the JS Parquet writer makes (page
// headers, FileMetaData, ColumnIndex, OffsetIndex). Plain JS without TypeScript imports so the encode worker
// loads it without tsx; thrift-compact-tree.ts (lossless re-encoding of parsed footers) is TypeScript and
// needs the reader's decoder, which a worker cannot load.
// @see https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md

import { ByteSink } from './rle-hybrid-encode.mjs';

/** compact protocol type ids */
export const T = { BOOL_TRUE: 1, BOOL_FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, STRUCT: 12 };

const utf8 = new TextEncoder();

/** the page writer's growable buffer (ByteSink: ensure, bytes(src), view()) with Thrift's field and struct framing */
export class ThriftWriter extends ByteSink {
  constructor(initial = 256) {
    super(initial);
    /** last field id of each open struct (the compact protocol writes id deltas) */
    this.lastIds = [0];
  }

  byte(b) {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** unsigned varint of a non-negative safe integer (numbers up to 2^53: Parquet offsets and counts) */
  varint(n) {
    this.ensure(10);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  /** zigzag of a safe integer, written as a varint */
  zigzag(n) {
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  fieldHeader(id, type) {
    const last = this.lastIds[this.lastIds.length - 1];
    const delta = id - last;
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.zigzag(id);
    }
    this.lastIds[this.lastIds.length - 1] = id;
  }

  i32(id, v) {
    this.fieldHeader(id, T.I32);
    this.zigzag(v);
  }

  i16(id, v) {
    this.fieldHeader(id, T.I16);
    this.zigzag(v);
  }

  i8(id, v) {
    this.fieldHeader(id, T.BYTE);
    this.byte(v & 0xff);
  }

  /** an i64 field from a number (safe integer) */
  i64(id, v) {
    this.fieldHeader(id, T.I64);
    this.zigzag(v);
  }

  bool(id, v) {
    this.fieldHeader(id, v ? T.BOOL_TRUE : T.BOOL_FALSE);
  }

  rawBinary(bytes) {
    this.varint(bytes.length);
    this.bytes(bytes);
  }

  binary(id, bytes) {
    this.fieldHeader(id, T.BINARY);
    this.rawBinary(bytes);
  }

  string(id, s) {
    this.binary(id, utf8.encode(s));
  }

  /** opens a struct field; its fields follow, then structEnd() */
  structBegin(id) {
    this.fieldHeader(id, T.STRUCT);
    this.lastIds.push(0);
  }

  /** opens a struct as a list element or at top level */
  elementBegin() {
    this.lastIds.push(0);
  }

  structEnd() {
    this.byte(0);
    this.lastIds.pop();
  }

  /** a list field header; then `n` elements (elementBegin/structEnd, or the raw writers below) */
  listBegin(id, elementType, n) {
    this.fieldHeader(id, T.LIST);
    if (n < 15) this.byte((n << 4) | elementType);
    else {
      this.byte(0xf0 | elementType);
      this.varint(n);
    }
  }

  /** a list element bool: one byte, 1 true / 2 false (as Thrift's Java writer) */
  rawBool(v) {
    this.byte(v ? 1 : 2);
  }

}
