import { describe, expect, it } from 'vitest';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import type { IcebergTableSource } from '../../iceberg/iceberg-table-source.ts';
import { markIntKeyList } from '../../iceberg/scan/int-key-list.ts';
import { serialFallbackKey } from './serial-fallback-memo.ts';
import type { WireFragment } from './worker-fragment.ts';

// only the table's identity and snapshot are read from the source
const source = { metadata: { tableUuid: 'u-1', location: 'file:///t' }, snapshot: { snapshotId: 7n } } as unknown as IcebergTableSource;
const fragment = { kind: 'Aggregate' } as unknown as WireFragment;
const keysFilter = (values: unknown[]): ScanPredicate[] => [{ kind: 'in', column: 0, values } as unknown as ScanPredicate];

describe('serialFallbackKey', () => {
  it('writes a marked integer key list as its digest, not key by key', () => {
    const keys = Array.from({ length: 29_000 }, (_, i) => 3 * i + 1);
    expect(markIntKeyList(keys)).toBe(true);
    const key = serialFallbackKey(source, fragment, keysFilter(keys));
    expect(key.length).toBeLessThan(300);
    expect(key).toContain('keys:number:29000:');
  });

  it('tells different key lists apart, and keeps unmarked lists (and bigints) as their values', () => {
    const a = Array.from({ length: 100 }, (_, i) => i);
    const b = Array.from({ length: 100 }, (_, i) => i + 1);
    markIntKeyList(a);
    markIntKeyList(b);
    expect(serialFallbackKey(source, fragment, keysFilter(a))).not.toBe(serialFallbackKey(source, fragment, keysFilter(b)));
    const plain = serialFallbackKey(source, fragment, keysFilter([1n, 2n, 'x']));
    expect(plain).toContain('["1n","2n","x"]');
  });
});
