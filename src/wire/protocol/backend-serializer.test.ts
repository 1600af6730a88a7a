import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import * as m from './backend-serializer.ts';
import { BufferWriter } from './buffer-writer.ts';

function bytes(write: (w: BufferWriter) => void): string {
  const w = new BufferWriter(8);
  write(w);
  return w.take().toString('hex');
}
const hex = (s: string): string => s.replace(/\s+/g, '');

describe('backend serializer golden bytes', () => {
  it('AuthenticationOk / CleartextPassword / SASL / SASLContinue / SASLFinal', () => {
    expect(bytes(m.AuthenticationOk)).toBe(hex('52 00000008 00000000'));
    expect(bytes(m.AuthenticationCleartextPassword)).toBe(hex('52 00000008 00000003'));
    // 'R' len=23: int32 10, "SCRAM-SHA-256\0", "\0"
    expect(bytes((w) => m.AuthenticationSASL(w, ['SCRAM-SHA-256']))).toBe(hex('52 00000017 0000000a') + Buffer.from('SCRAM-SHA-256\0\0').toString('hex'));
    expect(bytes((w) => m.AuthenticationSASLContinue(w, 'r=a'))).toBe(hex('52 0000000b 0000000b 723d61'));
    expect(bytes((w) => m.AuthenticationSASLFinal(w, 'v=b'))).toBe(hex('52 0000000b 0000000c 763d62'));
  });

  it('ParameterStatus, BackendKeyData, ReadyForQuery', () => {
    expect(bytes((w) => m.ParameterStatus(w, 'a', 'b'))).toBe(hex('53 00000008 6100 6200'));
    expect(bytes((w) => m.BackendKeyData(w, 1234, -1))).toBe(hex('4b 0000000c 000004d2 ffffffff'));
    expect(bytes((w) => m.ReadyForQuery(w, 'I'))).toBe(hex('5a 00000005 49'));
    expect(bytes((w) => m.ReadyForQuery(w, 'E'))).toBe(hex('5a 00000005 45'));
  });

  it('RowDescription with per-column formats', () => {
    const cols = [
      { name: 'a', tableOid: 16384, columnAttr: 1, typeOid: 23, typeSize: 4, typeMod: -1 },
      { name: 'b', tableOid: 0, columnAttr: 0, typeOid: 25, typeSize: -1, typeMod: -1 },
    ];
    expect(bytes((w) => m.RowDescription(w, cols, [1, 0]))).toBe(
      hex('54 0000002e 0002 6100 00004000 0001 00000017 0004 ffffffff 0001 6200 00000000 0000 00000019 ffff ffffffff 0000'),
    );
    expect(bytes((w) => m.RowDescription(w, cols.slice(1), [1]))).toBe(hex('54 0000001a 0001 6200 00000000 0000 00000019 ffff ffffffff 0001'));
  });

  it('RowDescription of one columns array: the kept bytes, per uniform format, mid-buffer too', () => {
    const cols = [{ name: 'id', tableOid: 16384, columnAttr: 1, typeOid: 23, typeSize: 4, typeMod: -1 }];
    const text = hex('54 0000001b 0001 696400 00004000 0001 00000017 0004 ffffffff 0000');
    const binary = hex('54 0000001b 0001 696400 00004000 0001 00000017 0004 ffffffff 0001');
    for (let i = 0; i < 2; i++) {
      expect(bytes((w) => m.RowDescription(w, cols))).toBe(text);
      expect(bytes((w) => m.RowDescription(w, cols, [0]))).toBe(text);
      expect(bytes((w) => m.RowDescription(w, cols, [1]))).toBe(binary);
      expect(bytes((w) => m.RowDescription(w, cols, [1]))).toBe(binary);
    }
    // written after other messages (the kept copy starts at the message, not at the buffer's start)
    expect(bytes((w) => { m.BindComplete(w); m.RowDescription(w, cols); m.RowDescription(w, cols, [1]); })).toBe(hex('32 00000004') + text + binary);
  });

  it('DataRow, CommandComplete, EmptyQueryResponse', () => {
    expect(bytes((w) => m.DataRow(w, ['1', null, new Uint8Array([0xab])]))).toBe(hex('44 00000014 0003 00000001 31 ffffffff 00000001 ab'));
    expect(bytes((w) => m.CommandComplete(w, 'SELECT 1'))).toBe(hex('43 0000000d') + Buffer.from('SELECT 1\0').toString('hex'));
    expect(bytes(m.EmptyQueryResponse)).toBe(hex('49 00000004'));
  });

  it('ErrorResponse carries every field S V C M D H P W s t c d n', () => {
    const e = new GatewayError('42P01', 'relation "t" does not exist', {
      detail: 'd', hint: 'h', position: 15, where: 'w', schema: 's', table: 't', column: 'c', dataType: 'dt', constraint: 'k',
    });
    const out = Buffer.from(bytes((w) => m.ErrorResponse(w, e)), 'hex');
    expect(out[0]).toBe(0x45);
    expect(out.readInt32BE(1)).toBe(out.length - 1);
    const fields = out.subarray(5, out.length - 1).toString('utf8').split('\0').filter(Boolean);
    expect(fields).toEqual(['SERROR', 'VERROR', 'C42P01', 'Mrelation "t" does not exist', 'Dd', 'Hh', 'P15', 'Ww', 'ss', 'tt', 'cc', 'ddt', 'nk']);
    expect(out[out.length - 1]).toBe(0);
  });

  it('NoticeResponse', () => {
    const e = new GatewayError('01000', 'careful', { severity: 'WARNING' });
    expect(bytes((w) => m.NoticeResponse(w, e))).toBe('4e' + '00000027' + Buffer.from('SWARNING\0VWARNING\0C01000\0Mcareful\0\0').toString('hex'));
  });

  it('extended-protocol acknowledgements', () => {
    expect(bytes(m.ParseComplete)).toBe(hex('31 00000004'));
    expect(bytes(m.BindComplete)).toBe(hex('32 00000004'));
    expect(bytes(m.CloseComplete)).toBe(hex('33 00000004'));
    expect(bytes(m.NoData)).toBe(hex('6e 00000004'));
    expect(bytes(m.PortalSuspended)).toBe(hex('73 00000004'));
    expect(bytes((w) => m.ParameterDescription(w, [23, 25]))).toBe(hex('74 0000000e 0002 00000017 00000019'));
  });

  it('COPY messages', () => {
    expect(bytes((w) => m.CopyInResponse(w, 0, 2))).toBe(hex('47 0000000b 00 0002 0000 0000'));
    expect(bytes((w) => m.CopyOutResponse(w, 1, 1))).toBe(hex('48 00000009 01 0001 0001'));
    expect(bytes((w) => m.CopyData(w, Buffer.from('a\n')))).toBe(hex('64 00000006 610a'));
    expect(bytes(m.CopyDone)).toBe(hex('63 00000004'));
  });

  it('NegotiateProtocolVersion', () => {
    expect(bytes((w) => m.NegotiateProtocolVersion(w, 0, ['_pq_.x']))).toBe(hex('76 00000013 00030000 00000001') + Buffer.from('_pq_.x\0').toString('hex'));
  });

  it('BufferWriter grows and is reusable after take()', () => {
    const w = new BufferWriter(4);
    m.DataRow(w, ['x'.repeat(1000)]);
    const a = w.take();
    expect(a.length).toBe(1 + 4 + 2 + 4 + 1000);
    m.CommandComplete(w, 'SELECT 1');
    expect(w.take().toString('hex')).toBe(hex('43 0000000d') + Buffer.from('SELECT 1\0').toString('hex'));
    expect(a[0]).toBe(0x44); // taken bytes are a copy
  });
});
