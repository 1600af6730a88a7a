import { describe, expect, it } from 'vitest';
import { batchFromRows } from '../../common/batch.ts';
import type { OutputSettings, ResultColumn } from '../handler.ts';
import { BufferWriter } from '../protocol/buffer-writer.ts';
import { RowDescription } from '../protocol/backend-serializer.ts';
import { testCodec } from '../testing/test-codec.ts';
import { splitBackendMessages } from '../testing/test-buffers.ts';
import { encodeDataRows, rowEncoding } from './data-row-encoder.ts';

const settings: OutputSettings = { dateStyle: 'ISO, MDY', intervalStyle: 'postgres', timeZone: 'UTC', extraFloatDigits: 1, byteaOutput: 'hex' };
const cols: ResultColumn[] = [
  { name: 'i', tableOid: 0, columnAttr: 0, typeOid: 23, typeSize: 4, typeMod: -1 },
  { name: 't', tableOid: 0, columnAttr: 0, typeOid: 25, typeSize: -1, typeMod: -1 },
  { name: 'b', tableOid: 0, columnAttr: 0, typeOid: 16, typeSize: 1, typeMod: -1 },
];
const batch = batchFromRows(
  [
    [1, 'é', true],
    [null, null, false],
    [-2, '', null],
  ],
  3,
);

function cells(buf: Buffer): Array<Array<Buffer | null>> {
  return splitBackendMessages(buf).map(({ body }) => {
    const out: Array<Buffer | null> = [];
    let pos = 2;
    for (let c = 0; c < body.readInt16BE(0); c++) {
      const len = body.readInt32BE(pos);
      pos += 4;
      out.push(len < 0 ? null : body.subarray(pos, pos + len));
      pos += Math.max(len, 0);
    }
    return out;
  });
}

describe('encodeDataRows', () => {
  it('text format for every column', () => {
    const w = new BufferWriter(16);
    encodeDataRows(w, batch, 0, 3, rowEncoding(cols, []), testCodec, settings);
    const rows = cells(w.take()).map((r) => r.map((c) => (c === null ? null : c.toString('utf8'))));
    expect(rows).toEqual([
      ['1', 'é', 't'],
      [null, null, 'f'],
      ['-2', '', null],
    ]);
  });

  it('per-column formats (binary int4, text, binary bool) and a row range', () => {
    const w = new BufferWriter(16);
    encodeDataRows(w, batch, 1, 3, rowEncoding(cols, [1, 0, 1]), testCodec, settings);
    const rows = cells(w.take());
    expect(rows.length).toBe(2);
    expect(rows[0]![2]).toEqual(Buffer.from([0]));
    expect(rows[1]![0]!.readInt32BE(0)).toBe(-2);
    expect(rows[1]![1]!.length).toBe(0);
  });

  it('one format code applies to all columns; RowDescription agrees', () => {
    const enc = rowEncoding(cols, [1]);
    expect([...enc.binary]).toEqual([1, 1, 1]);
    const w = new BufferWriter();
    RowDescription(w, cols, [1]);
    const body = splitBackendMessages(w.take())[0]!.body;
    expect(body.readInt16BE(body.length - 2)).toBe(1);
  });

  it('a value that fails to encode drops only its half-written row', () => {
    const w = new BufferWriter(16);
    const failing = { ...testCodec, textOut: (oid: number, v: unknown, s: OutputSettings) => { if (v === -2) throw new Error('nope'); return testCodec.textOut(oid, v, s); } };
    expect(() => encodeDataRows(w, batch, 0, 3, rowEncoding(cols, []), failing, settings)).toThrowError('nope');
    const msgs = splitBackendMessages(w.take());
    expect(msgs.map((m) => m.type)).toEqual(['D', 'D']);
  });
});
