import { describe, expect, it } from 'vitest';
import { IcebergTables } from './iceberg-tables.ts';
import { DatabaseCatalog, OidAllocator } from './database-catalog.ts';
import type { IcebergCatalog } from '../catalog/iceberg/index.ts';
import type { IcebergIO } from '../iceberg/index.ts';

/** a catalog with one empty namespace that counts its listings; `token` undefined = no change token */
function countingCatalog(withToken: boolean): { catalog: IcebergCatalog; lists: () => number; commitElsewhere: () => void } {
  let lists = 0;
  let token = 7;
  const catalog = {
    name: 'c',
    listNamespaces: async () => {
      lists++;
      return [['ns']];
    },
    listTables: async () => [],
    ...(withToken ? { changeToken: () => token } : {}),
  } as unknown as IcebergCatalog;
  return { catalog, lists: () => lists, commitElsewhere: () => void token++ };
}

const io = {} as IcebergIO;

describe('IcebergTables.refresh', () => {
  it('with a change token: re-lists only when another client committed', async () => {
    const { catalog, lists, commitElsewhere } = countingCatalog(true);
    const db = new DatabaseCatalog('d', 5, new OidAllocator(), 'o');
    const tables = new IcebergTables(db, catalog, io, () => {});
    await tables.refresh(true);
    expect(lists()).toBe(1);
    expect(db.schema('ns')).toBeDefined();
    for (let i = 0; i < 5; i++) await tables.refresh();
    expect(lists()).toBe(1);
    commitElsewhere();
    await tables.refresh();
    expect(lists()).toBe(2);
    await tables.refresh();
    expect(lists()).toBe(2);
    // concurrent callers share one listing
    commitElsewhere();
    await Promise.all([tables.refresh(), tables.refresh(), tables.refresh()]);
    expect(lists()).toBe(3);
  });

  it('a forced refresh after a refresh already running lists again (that one may predate the change)', async () => {
    const { catalog, lists, commitElsewhere } = countingCatalog(true);
    const tables = new IcebergTables(new DatabaseCatalog('d', 5, new OidAllocator(), 'o'), catalog, io, () => {});
    commitElsewhere();
    await Promise.all([tables.refresh(), tables.refresh(true)]);
    expect(lists()).toBe(2);
  });

  it('without a change token: at most every 200 ms', async () => {
    const { catalog, lists } = countingCatalog(false);
    const tables = new IcebergTables(new DatabaseCatalog('d', 5, new OidAllocator(), 'o'), catalog, io, () => {});
    await tables.refresh(true);
    await tables.refresh();
    expect(lists()).toBe(1);
    await new Promise((r) => setTimeout(r, 220));
    await tables.refresh();
    expect(lists()).toBe(2);
  });
});
