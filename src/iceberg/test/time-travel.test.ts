import { describe, expect, it } from 'vitest';
import { openTable, readRows } from './fixture-helpers.ts';

const V5 = 's3a://hyperparam-iceberg/spark/bunnies/metadata/v5.metadata.json';

describe('IcebergTableSource time travel options', () => {
  it('by ref, by timestamp, with the snapshot schema', async () => {
    expect((await readRows(await openTable(V5, { ref: 'main' }))).length).toBe(20);
    const t = await openTable(V5);
    const first = t.metadata.snapshotLog[0]!;
    const old = await openTable(V5, { asOfTimestampMs: first.timestampMs, useSnapshotSchema: true });
    expect(old.snapshot?.snapshotId).toBe(7505300640432048841n);
    expect(old.columns.map((c) => c.name)).not.toContain('breed_name_length');
    expect((await readRows(old)).length).toBe(21);
    // default: the current schema, so the added column reads as NULL in the old snapshot
    const cur = await openTable(V5, { snapshotId: 7505300640432048841n });
    expect(cur.columns.map((c) => c.name)).toContain('breed_name_length');
    await expect(openTable(V5, { ref: 'nope' })).rejects.toMatchObject({ code: '22023' });
    await expect(openTable(V5, { asOfTimestampMs: 0n })).rejects.toMatchObject({ code: '22023' });
  });

  it('projection returns NULL for unrequested columns and keeps column positions', async () => {
    const t = await openTable(V5);
    const rows = await readRows(t, [0]);
    expect(rows).toHaveLength(20);
    expect(rows.every((r) => typeof r[0] === 'string' && r.slice(1).every((v) => v === null))).toBe(true);
  });
});
