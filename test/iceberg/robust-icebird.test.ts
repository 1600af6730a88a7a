/**
 * Tables lakegate writes are read back by icebird (npm `icebird`, an independent JavaScript Iceberg reader
 * on hyparquet) with the same rows: a partitioned table (day(ts), bucket(4, id)) with every writable
 * primitive type and a list, three snapshots, each compared at its own metadata version.
 * icebird fetches URLs (`${tableUrl}/metadata/<name>`, then the paths in the manifests); the test serves
 * the local warehouse through a stand-in `fetch` that answers GET/HEAD/Range from disk.
 *
 * How icebird/hyparquet represent what lakegate writes (normalized here, documented in src/iceberg/README.md):
 * timestamps and timestamptz as JS Date (milliseconds: the microseconds are truncated), date as Date at
 * midnight UTC, time as bigint microseconds, decimal as a JS number (exact only to ~15 digits), uuid as
 * 16 bytes, binary as UTF-8-decoded text (hyparquet's default for BYTE_ARRAY without a logical type: bytes
 * that are not UTF-8, like 0xff, come back as U+FFFD — binary is not exact in icebird),
 * a NULL list as undefined.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { icebergRead } from 'icebird';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFetch } from '../helpers/local-fetch.ts';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const passthrough = { getTypeParser: () => (v: string) => v };


const COLUMNS = `id, i4, s2, name, price, ok, d, (extract(epoch from tm) * 1000000)::int8 AS tm,
  floor(extract(epoch from ts) * 1000)::int8 AS ts, floor(extract(epoch from tz) * 1000)::int8 AS tz, f4, f8, u, b, arr, v`;

const hex = (bytes: Iterable<number>): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const uuidText = (b: Uint8Array): string => hex(b).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');

/** one icebird row in lakegate's text output (as COLUMNS selects it) */
function normalize(r: Record<string, unknown>): string[] {
  const t = (v: unknown, f: (x: never) => string = String): string => (v === null || v === undefined ? 'NULL' : f(v as never));
  return [
    t(r['id']), t(r['i4']), t(r['s2']), t(r['name']),
    t(r['price'], (x: number) => x.toFixed(2)),
    t(r['ok'], (x: boolean) => (x ? 't' : 'f')),
    t(r['d'], (x: Date) => x.toISOString().slice(0, 10)),
    t(r['tm']),
    t(r['ts'], (x: Date) => String(x.getTime())),
    t(r['tz'], (x: Date) => String(x.getTime())),
    t(r['f4']), t(r['f8']),
    t(r['u'], uuidText),
    // hyparquet decodes BYTE_ARRAY without a logical type as UTF-8 text: compared as that (lossy) decoding
    t(r['b'], (x: string | Uint8Array) => (typeof x === 'string' ? `utf8:${x}` : `\\x${hex(x)}`)),
    t(r['arr'], (x: unknown[]) => `{${x.map((e) => (e === null ? 'NULL' : String(e))).join(',')}}`),
    t(r['v']),
  ];
}

describe('icebird reads back what lakegate writes', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-icebird-'));
  let server: LakegateServer;
  let client: pg.Client;
  const realFetch = globalThis.fetch;
  const rows = async (sql: string): Promise<string[][]> =>
    ((await client.query({ text: sql, rowMode: 'array' })).rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    await client.query(`CREATE TABLE lake.t (id int8 NOT NULL, i4 int4, s2 int2, name text, price numeric(10,2), ok bool, d date,
      tm time, ts timestamp, tz timestamptz, f4 float4, f8 float8, u uuid, b bytea, arr int4[], v varchar(5))
      WITH (partitioning = ARRAY['day(ts)', 'bucket(4, id)'])`);
    await client.query(`INSERT INTO lake.t VALUES (1, 2, 3, 'one', 1.50, true, '2024-01-02', '12:34:56.5', '2024-01-02 03:04:05.123456',
      '2024-01-02 03:04:05+00', 1.5, 2.25, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\x0102ff', '{1,NULL,3}', 'abc')`);
    await client.query(`INSERT INTO lake.t (id, name, ts) VALUES (2, NULL, '2024-01-03 00:00:00'), (3, 'thrée ✓', NULL)`);
    await client.query(`INSERT INTO lake.t SELECT g, -g, g % 100, 'row ' || g, g * 1.25, g % 2 = 0, date '2023-12-30' + g % 5,
      time '00:00:01' + g * interval '1 minute', timestamp '2024-01-01 00:00:00' + g * interval '7 hours',
      timestamptz '2024-01-01 00:00:00+00' - g * interval '1 second', g / 4.0, g / 8.0, NULL, NULL, ARRAY[g, g + 1], 'v' || g % 10
      FROM generate_series(10, 209) g`);
    globalThis.fetch = localFetch;
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  it('every snapshot reads the same rows in icebird as in lakegate', async () => {
    const tableDir = join(warehouse, 'lake', 't');
    const metadataFiles = readdirSync(join(tableDir, 'metadata')).filter((n) => n.endsWith('.metadata.json')).sort();
    const snapshots = (await rows(`SELECT snapshot_id FROM lake."t$snapshots" ORDER BY committed_at, snapshot_id`)).map((r) => r[0]!);
    expect(snapshots).toHaveLength(3);
    // metadata version 1..3 made snapshot 1..3 current (version 0 is the empty table)
    for (let i = 0; i < 3; i++) {
      const expected = (await rows(`SELECT ${COLUMNS} FROM lake.t FOR SYSTEM_VERSION AS OF ${snapshots[i]} ORDER BY id`))
        .map((r) => r.map((v, c) => (c === 13 && v !== 'NULL' ? `utf8:${new TextDecoder().decode(Buffer.from(v.slice(2), 'hex'))}` : v)));
      const got = (await icebergRead({ tableUrl: tableDir, metadataFileName: metadataFiles[i + 1]! })) as Record<string, unknown>[];
      const normalized = got.map(normalize).sort((a, b) => Number(a[0]) - Number(b[0]));
      expect(normalized).toEqual(expected);
    }
    expect(await rows('SELECT count(*) FROM lake.t')).toEqual([['203']]);
  });
});
