/**
 * setCurrentSnapshot without the server: the written document keeps every field of the current metadata
 * (lossless, ids beyond 2^53), and a lost race surfaces as 40001 (file name taken, or the catalog CAS failing).
 */
import { mkdtempSync, cpSync, readFileSync, rmSync, chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'lossless-json';
import { LocalPrefixIO, parseTableMetadata, setCurrentSnapshot, type IcebergIO, type MetadataPointerStore } from '../../src/iceberg/index.ts';
import { pgError } from '../../src/common/errors.ts';

const FIXTURE = join(import.meta.dirname, '../../../shared/fixtures/iceberg/duckdb-lineitem_iceberg');
const V1 = 7817332053627255703n;
const V2 = 2354745328521181395n;
const TABLE = { namespace: ['lake'], name: 'lineitem' };

class Pointer implements MetadataPointerStore {
  constructor(public location: string, private readonly failCommit = false) {}
  async loadTableLocation() { return { metadataLocation: this.location }; }
  async commitTable(_id: unknown, expected: string, next: string) {
    if (this.failCommit || expected !== this.location) throw pgError('40001', 'could not serialize access due to concurrent update');
    this.location = next;
  }
}

describe('setCurrentSnapshot', () => {
  let dir: string;
  let io: IcebergIO;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lakegate-scs-'));
    cpSync(FIXTURE, dir, { recursive: true });
    const walk = (p: string): void => {
      chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
      if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
    };
    walk(dir);
    const local = new LocalPrefixIO({ lineitem_iceberg: dir });
    io = {
      read: (u) => local.read(u),
      readRange: (u, o, l) => local.readRange(u, o, l),
      async writeIfAbsent(uri, data) {
        try {
          writeFileSync(local.resolve(uri), data, { flag: 'wx' });
          return true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw e;
        }
      },
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every other field exactly and appends the logs', async () => {
    const pointer = new Pointer('lineitem_iceberg/metadata/v2.metadata.json');
    const r = await setCurrentSnapshot({ io, catalog: pointer, table: TABLE, snapshotId: V1, requireAncestor: true, nowMs: 1_800_000_000_000n });
    expect(r).toMatchObject({ previousSnapshotId: V2, currentSnapshotId: V1 });
    expect(pointer.location).toBe(r.metadataLocation);
    expect(r.metadataLocation).toMatch(/^lineitem_iceberg\/metadata\/00003-[0-9a-f-]{36}\.metadata\.json$/);
    const before = parse(readFileSync(join(dir, 'metadata/v2.metadata.json'), 'utf8')) as Record<string, unknown>;
    const afterText = readFileSync(join(dir, r.metadataLocation!.slice('lineitem_iceberg/'.length)), 'utf8');
    const after = parse(afterText) as Record<string, unknown>;
    const changed = new Set(['current-snapshot-id', 'refs', 'snapshot-log', 'metadata-log', 'last-updated-ms']);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const k of Object.keys(before)) if (!changed.has(k)) expect(JSON.stringify(after[k]), k).toBe(JSON.stringify(before[k]));
    const md = parseTableMetadata(afterText);
    expect(md.currentSnapshotId).toBe(V1);
    expect(md.refs.get('main')).toEqual({ snapshotId: V1, type: 'branch' });
    expect(md.snapshotLog.map((e) => e.snapshotId)).toEqual([V1, V2, V1]);
    expect(md.lastUpdatedMs).toBe(1_800_000_000_000n);
    expect(md.metadataLog.map((e) => e.metadataFile)).toEqual(['lineitem_iceberg/metadata/v1.metadata.json', 'lineitem_iceberg/metadata/v2.metadata.json']);
    expect(md.metadataLog[1]!.timestampMs).toBe(1746188480005n);
  });

  it('a lost commit race is 40001', async () => {
    const pointer = new Pointer('lineitem_iceberg/metadata/v2.metadata.json', true);
    await expect(setCurrentSnapshot({ io, catalog: pointer, table: TABLE, snapshotId: V1, requireAncestor: false })).rejects.toMatchObject({ code: '40001' });
  });

  it('read-only file access is 0A000', async () => {
    const ro: IcebergIO = { read: io.read, readRange: io.readRange };
    const pointer = new Pointer('lineitem_iceberg/metadata/v2.metadata.json');
    await expect(setCurrentSnapshot({ io: ro, catalog: pointer, table: TABLE, snapshotId: V1, requireAncestor: false })).rejects.toMatchObject({ code: '0A000' });
  });
});
