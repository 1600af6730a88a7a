/**
 * ColumnSideTable: entries keyed by the column array's identity — equal contents are other columns, a replaced
 * entry is the new one, and two tables never see each other's entries.
 */
import { describe, expect, it } from 'vitest';
import { columnSideTable } from './column-side-table.ts';

describe('columnSideTable', () => {
  it('keeps an entry per column array, by identity', () => {
    const t = columnSideTable<{ readonly n: number }>();
    const a = ['x', 'y'], same = ['x', 'y'];
    t.attach(a, { n: 1 });
    expect(t.of(a)).toEqual({ n: 1 });
    expect(t.of(same)).toBeUndefined();
    t.attach(a, { n: 2 });
    expect(t.of(a)).toEqual({ n: 2 });
    const other = columnSideTable<string>();
    expect(other.of(a)).toBeUndefined();
    other.attach(a, 'coded');
    expect(other.of(a)).toBe('coded');
    expect(t.of(a)).toEqual({ n: 2 });
  });
});
