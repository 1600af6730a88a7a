import { describe, expect, it } from 'vitest';
import type { OutputSettings } from '../handler.ts';
import { loadPgtypesCodec } from './value-codec.ts';

const settings: OutputSettings = { dateStyle: 'ISO, MDY', intervalStyle: 'postgres', timeZone: 'UTC', extraFloatDigits: 1, byteaOutput: 'hex' };

describe('loadPgtypesCodec (common/pgtypes)', () => {
  it('round-trips int4, int8, bool and text in text and binary', async () => {
    const codec = await loadPgtypesCodec();
    expect(codec.textOut(23, 42, settings)).toBe('42');
    expect(codec.textOut(16, true, settings)).toBe('t');
    expect(codec.textIn(20, -1, '9007199254740993', settings)).toBe(9007199254740993n);
    expect([...codec.binaryOut(23, -2)]).toEqual([0xff, 0xff, 0xff, 0xfe]);
    expect(codec.binaryIn(23, new Uint8Array([0, 0, 1, 0]))).toBe(256);
    expect(codec.binaryIn(25, Buffer.from('héllo'))).toBe('héllo');
  });
});
