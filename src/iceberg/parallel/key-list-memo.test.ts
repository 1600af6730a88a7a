/**
 * Long key lists in the scan workers, kept per worker by content digest (filter-wire.ts): scans run one after
 * another on the same 2-worker pool with different IN lists of the same length (int8 lists that differ only beyond
 * ±2^53 included, and int4 lists) return each list's own rows — never the rows of a list a worker kept before —
 * with late materialization on (Arrow key sets) and off (the row filter's set), and again when a list comes back.
 */
import { describe, expect, it } from 'vitest';
import type { ScanPredicate } from '../../catalog/table-source.ts';
import { matches } from '../../exec/testing/strict-table.ts';
import { usePooledMultiFileTable } from './testing/pooled-table.ts';
import { collectRows as collect, rowKey as key } from './testing/collect-rows.ts';
import { markIntKeyList } from '../scan/int-key-list.ts';

const FILES = 4;
const ROWS = 2500;

describe('key lists kept by scan workers', () => {
  const pooled = usePooledMultiFileTable('lakegate-keymemo-', FILES, ROWS);

  it('serve each scan its own keys', async () => {
    const every = (step: number, from: number) => Array.from({ length: Math.floor(FILES * ROWS / step) - 1 }, (_v, i) => BigInt(i * step + from));
    // the same length; the last key of each is beyond 2^53, the two the same double
    const a = [...every(13, 0), 2n ** 60n + 1n];
    const b = [...every(13, 5), 2n ** 60n + 2n];
    markIntKeyList(a); // as the runtime key filter marks its keys (b goes unmarked: both paths)
    const ints = (odd: number) => Array.from({ length: 200 }, (_v, i) => 2 * i + odd);
    const cases: ScanPredicate[][] = [
      [{ kind: 'in', column: 0, values: a }],
      [{ kind: 'in', column: 0, values: b }],
      [{ kind: 'in', column: 1, values: ints(0) }],
      [{ kind: 'in', column: 1, values: ints(1) }],
      [{ kind: 'in', column: 0, values: [...a] }, { kind: 'in', column: 1, values: ints(1) }],
      [{ kind: 'in', column: 0, values: [...b] }, { kind: 'in', column: 1, values: ints(0) }],
    ];
    for (const lm of ['on', 'off', 'on']) {
      for (const filters of cases) {
        const session = { getSetting: () => lm } as never;
        const rows = await collect(pooled.source.scan({ signal: new AbortController().signal, filters, session }));
        const pass = rows.filter((r) => filters.every((f) => matches(f, r)));
        // with late materialization the workers keep only matching rows; without it they still drop the others
        expect(rows.map(key).sort()).toEqual(pass.map(key).sort());
        const want = Array.from({ length: FILES * ROWS }, (_v, i) => i).filter((i) => filters.every((f) => f.kind === 'in' && (f.values as readonly unknown[]).includes(f.column === 0 ? BigInt(i) : i % 97 === 0 ? null : i % 1000)));
        expect(rows.map((r) => Number(r[0] as bigint)).sort((x, y) => x - y)).toEqual(want);
      }
    }
  }, 120_000);
});
