import { describe, expect, it } from 'vitest';
import { IcebergTables } from './iceberg-tables.ts';
import { DatabaseCatalog, OidAllocator } from './database-catalog.ts';
import type { IcebergCatalog } from '../catalog/iceberg/index.ts';
import type { IcebergIO } from '../iceberg/index.ts';
import { noteRead } from '../wire/read-clock.ts';

/** a catalog with one empty namespace that counts its listings; `token` undefined = no change token */
function countingCatalog(withToken: boolean): { catalog: IcebergCatalog; lists: () => number; tokenReads: () => number; commitElsewhere: () => void } {
  let lists = 0;
  let tokenReads = 0;
  let token = 7;
  const catalog = {
    name: 'c',
    listNamespaces: async () => {
      lists++;
      return [['ns']];
    },
    listTables: async () => [],
    ...(withToken ? { changeToken: () => (tokenReads++, token) } : {}),
  } as unknown as IcebergCatalog;
  return { catalog, lists: () => lists, tokenReads: () => tokenReads, commitElsewhere: () => void token++ };
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

  it('refreshIfStale(readMark): one token check covers messages read before it, never one read after it', async () => {
    const { catalog, lists, tokenReads, commitElsewhere } = countingCatalog(true);
    const tables = new IcebergTables(new DatabaseCatalog('d', 5, new OidAllocator(), 'o'), catalog, io, () => {});
    await tables.refresh(true);
    // three connections' reads in one poll, then their statements: the first checks the token, the others need not
    const [r1, r2, r3] = [noteRead(), noteRead(), noteRead()];
    const before = tokenReads();
    expect(tables.refreshIfStale(r1)).toBeUndefined();
    expect(tables.refreshIfStale(r2)).toBeUndefined();
    expect(tables.refreshIfStale(r3)).toBeUndefined();
    expect(tokenReads()).toBe(before + 1);
    // a commit elsewhere, then a message read after it: that statement checks, sees the change and re-lists
    commitElsewhere();
    const r4 = noteRead();
    const refreshing = tables.refreshIfStale(r4);
    expect(refreshing).toBeInstanceOf(Promise);
    await refreshing;
    expect(lists()).toBe(2);
    // without a mark (no wire: unknown) every call checks
    const n = tokenReads();
    tables.refreshIfStale();
    tables.refreshIfStale();
    expect(tokenReads()).toBe(n + 2);
  });

  it('a quiet change token answers without a read, and never covers a message read before it', async () => {
    const { catalog, lists, tokenReads, commitElsewhere } = countingCatalog(true);
    let quiet: number | undefined;
    const watched = Object.assign(catalog, { quietChangeToken: () => quiet }) as IcebergCatalog;
    const tables = new IcebergTables(new DatabaseCatalog('d', 5, new OidAllocator(), 'o'), watched, io, () => {});
    await tables.refresh(true);
    quiet = 7; // the watch settled on the token the refresh read
    const r1 = noteRead();
    const before = tokenReads();
    for (let i = 0; i < 3; i++) expect(tables.refreshIfStale(r1)).toBeUndefined();
    expect(tokenReads()).toBe(before);
    // the -wal write of a commit made before r1's bytes were sent is seen later in that poll phase: the quiet
    // answers above must not have vouched for r1, so its statement reads the token and re-lists
    quiet = undefined;
    commitElsewhere();
    const refreshing = tables.refreshIfStale(r1);
    expect(refreshing).toBeInstanceOf(Promise);
    await refreshing;
    expect(lists()).toBe(2);
    // a quiet answer of another value (settled on a later token than the mirror's) is no answer: read it
    quiet = 7;
    const n = tokenReads();
    expect(tables.refreshIfStale(noteRead())).toBeUndefined();
    expect(tokenReads()).toBe(n + 1);
  });

  it('a statement that comes while a refresh runs waits for its listing, and that refresh covers nothing', async () => {
    const { catalog, lists, tokenReads, commitElsewhere } = countingCatalog(true);
    const tables = new IcebergTables(new DatabaseCatalog('d', 5, new OidAllocator(), 'o'), catalog, io, () => {});
    await tables.refresh(true);
    commitElsewhere();
    const r = noteRead();
    // the first statement finds the change and starts listing; the second must not use the old mirror meanwhile
    const first = tables.refreshIfStale(r);
    expect(first).toBeInstanceOf(Promise);
    const second = tables.refreshIfStale(r);
    expect(second).toBeInstanceOf(Promise);
    await Promise.all([first, second]);
    expect(lists()).toBe(2);
    // the waiting caller checked again once the listing was done: that check covers the mark
    const n = tokenReads();
    expect(tables.refreshIfStale(r)).toBeUndefined();
    expect(tokenReads()).toBe(n);
    // a message read later is not covered: its statement reads the token
    expect(tables.refreshIfStale(noteRead())).toBeUndefined();
    expect(tokenReads()).toBe(n + 1);
  });
});
