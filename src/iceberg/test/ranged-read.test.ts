import { describe, expect, it } from 'vitest';
import { fixtureIO } from './fixture-helpers.ts';
import type { IcebergIO } from '../io.ts';
import { IcebergTableSource } from '../iceberg-table-source.ts';

describe('Parquet is read by ranges, projected columns only', () => {
  it('Q6-style projection of lineitem reads a fraction of the data file', async () => {
    let whole = 0;
    let ranged = 0;
    const counting: IcebergIO = {
      read: async (uri) => { const b = await fixtureIO.read(uri); if (uri.endsWith('.parquet')) whole += b.length; return b; },
      readRange: async (uri, off, len) => { ranged += len; return fixtureIO.readRange(uri, off, len); },
    };
    const t = await IcebergTableSource.load(counting, 'lineitem_iceberg/metadata/v2.metadata.json');
    const plan = await t.planFiles();
    const size = Number(plan.tasks[0]!.file.fileSizeInBytes);
    let rows = 0;
    for await (const b of t.scan({ signal: new AbortController().signal, projection: [6] })) rows += b.length;
    expect(rows).toBe(51793);
    expect(whole).toBe(0);
    expect(ranged).toBeLessThan(size / 4);
  });
});
