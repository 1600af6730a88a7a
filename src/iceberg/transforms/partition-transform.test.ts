import { describe, expect, it } from 'vitest';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { PrimitiveType } from '../spec/schema.ts';
import { murmur3x86_32 } from './murmur3.ts';
import { bucketHash, partitionTransform } from './partition-transform.ts';
import { bindPartitionSpec, partitionPath } from './partition-path.ts';

const p = (name: string, extra: Partial<PrimitiveType> = {}): PrimitiveType => ({ kind: 'primitive', name, ...extra });
const days = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
const micros = (iso: string): bigint => BigInt(Date.parse(`${iso}Z`)) * 1000n;

describe('bucket hash (§ Appendix B examples)', () => {
  it('matches the spec', () => {
    expect(bucketHash(p('int'), 34)).toBe(2017239379);
    expect(bucketHash(p('long'), 34n)).toBe(2017239379);
    expect(bucketHash(p('decimal', { precision: 9, scale: 2 }), Numeric.of(1420n, 2))).toBe(-500754589);
    expect(bucketHash(p('date'), days('2017-11-16'))).toBe(-653330422);
    expect(bucketHash(p('time'), (22 * 3600 + 31 * 60 + 8) * 1e6)).toBe(-662762989);
    expect(bucketHash(p('timestamp'), micros('2017-11-16T22:31:08'))).toBe(-2047944441);
    expect(bucketHash(p('timestamptz'), micros('2017-11-16T14:31:08-08:00'.replace('-08:00', '')) + 8n * 3_600_000_000n)).toBe(-2047944441);
    expect(bucketHash(p('string'), 'iceberg')).toBe(1210000089);
    expect(bucketHash(p('uuid'), 'f79c3e09-677c-4bbd-a479-3f349cb785e7')).toBe(1488055340);
    expect(bucketHash(p('binary'), Uint8Array.of(0, 1, 2, 3))).toBe(-188683207);
    expect(murmur3x86_32(new Uint8Array(0))).toBe(0);
  });
  it('matches the icebird-spark fixture bucket[4] of int ids', () => {
    const b = partitionTransform('bucket[4]', p('int'));
    expect([1, 2, 3, 4].map((id) => b.apply(id))).toEqual([0, 0, 3, 2]);
    expect(b.apply(null)).toBeNull();
    expect(b.resultType.name).toBe('int');
  });
});

describe('truncate', () => {
  it('follows the spec examples', () => {
    expect(partitionTransform('truncate[10]', p('int')).apply(1)).toBe(0);
    expect(partitionTransform('truncate[10]', p('int')).apply(-1)).toBe(-10);
    expect(partitionTransform('truncate[10]', p('long')).apply(-1n)).toBe(-10n);
    expect((partitionTransform('truncate[50]', p('decimal', { precision: 9, scale: 2 })).apply(Numeric.of(1065n, 2)) as Numeric).toString()).toBe('10.50');
    expect(partitionTransform('truncate[3]', p('string')).apply('iceberg')).toBe('ice');
    expect(partitionTransform('truncate[2]', p('string')).apply('😀😁x')).toBe('😀😁');
    expect(partitionTransform('truncate[2]', p('binary')).apply(Uint8Array.of(1, 2, 3))).toEqual(Uint8Array.of(1, 2));
  });
});

describe('time transforms', () => {
  it('count years/months/days/hours from 1970 (floor for pre-epoch)', () => {
    const ts = micros('2024-01-02T10:15:00');
    expect(partitionTransform('year', p('timestamp')).apply(ts)).toBe(54);
    expect(partitionTransform('month', p('timestamptz')).apply(ts)).toBe(54 * 12);
    expect(partitionTransform('day', p('timestamp')).apply(ts)).toBe(days('2024-01-02'));
    expect(partitionTransform('hour', p('timestamp')).apply(ts)).toBe(days('2024-01-02') * 24 + 10);
    expect(partitionTransform('year', p('date')).apply(days('1969-12-31'))).toBe(-1);
    expect(partitionTransform('month', p('date')).apply(days('1969-12-31'))).toBe(-1);
    expect(partitionTransform('day', p('timestamp')).apply(-1n)).toBe(-1);
    expect(partitionTransform('hour', p('timestamp')).apply(-1n)).toBe(-1);
    expect(partitionTransform('day', p('timestamp')).resultType.name).toBe('date');
  });
  it('renders human-readable values', () => {
    expect(partitionTransform('year', p('date')).toHumanString(54)).toBe('2024');
    expect(partitionTransform('month', p('date')).toHumanString(54 * 12)).toBe('2024-01');
    expect(partitionTransform('month', p('date')).toHumanString(-1)).toBe('1969-12');
    expect(partitionTransform('day', p('timestamp')).toHumanString(days('2024-01-02'))).toBe('2024-01-02');
    expect(partitionTransform('hour', p('timestamp')).toHumanString(days('2024-01-02') * 24 + 10)).toBe('2024-01-02-10');
    expect(partitionTransform('hour', p('timestamp')).toHumanString(null)).toBe('null');
    expect(partitionTransform('identity', p('timestamp')).toHumanString(micros('2017-11-16T22:31:08'))).toBe('2017-11-16T22:31:08');
    expect(partitionTransform('identity', p('timestamptz')).toHumanString(micros('2017-11-16T22:31:00') + 1000n)).toBe('2017-11-16T22:31:00.001Z');
    expect(partitionTransform('identity', p('timestamp')).toHumanString(micros('1969-12-31T23:00:00'))).toBe('1969-12-31T23:00');
    expect(partitionTransform('identity', p('time')).toHumanString(3_600_000_001)).toBe('01:00:00.000001');
  });
  it('rejects wrong source types', () => {
    expect(() => partitionTransform('hour', p('date'))).toThrow(/Invalid source type/);
    expect(() => partitionTransform('day', p('string'))).toThrow(/Invalid source type/);
    expect(() => partitionTransform('bucket[4]', p('boolean'))).toThrow();
    expect(() => partitionTransform('truncate[4]', p('date'))).toThrow();
  });
});

describe('partition paths', () => {
  it('joins name=human pairs', () => {
    const schema = { schemaId: 0, fields: [
      { id: 1, name: 'ts', required: false, type: p('timestamp') },
      { id: 2, name: 'id', required: false, type: p('long') },
      { id: 3, name: 'region', required: false, type: p('string') },
      { id: 4, name: 'x', required: false, type: p('int') },
    ] } as unknown as Parameters<typeof bindPartitionSpec>[1];
    const f = bindPartitionSpec({ specId: 0, fields: [
      { sourceId: 1, fieldId: 1000, name: 'ts_day', transform: 'day' },
      { sourceId: 2, fieldId: 1001, name: 'id_bucket', transform: 'bucket[16]' },
      { sourceId: 3, fieldId: 1002, name: 'region', transform: 'identity' },
      { sourceId: 4, fieldId: 1003, name: 'x_null', transform: 'void' },
    ] }, schema);
    const row = [micros('2024-01-02T03:00:00'), 34n, 'eu west/1', 5];
    const tuple = f.map((b) => b.transform.apply(row[b.sourcePos]));
    expect(partitionPath(f, tuple)).toBe(`ts_day=2024-01-02/id_bucket=${(2017239379 & 0x7fffffff) % 16}/region=eu+west%2F1/x_null=null`);
    expect(partitionPath(f, [null, null, "a:b(c)!", null])).toBe('ts_day=null/id_bucket=null/region=a%3Ab%28c%29%21/x_null=null');
  });
});
