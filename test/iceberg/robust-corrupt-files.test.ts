/**
 * Bad files under a table (issue #3 item 11): a truncated or byte-flipped metadata JSON, manifest list,
 * manifest or Parquet file is XX001 (data_corrupted) naming the file; a missing one is 58030 (io_error).
 * Either way the server keeps serving: the next query on a healthy table works. One server writes the
 * tables, the files are damaged while it is down, and a fresh server on the same warehouse reads them.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const passthrough = { getTypeParser: () => (v: string) => v };

/** all files below `dir`, recursively */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

/** the one file of a table whose name matches (the folder is found by name anywhere in the warehouse) */
function tableFiles(warehouse: string, table: string): string[] {
  return filesUnder(warehouse).filter((f) => f.includes(`/${table}/`));
}
const latestMetadata = (files: string[]): string => files.filter((f) => f.endsWith('.metadata.json')).sort().at(-1)!;
const manifestList = (files: string[]): string => files.filter((f) => /\/snap-[^/]*\.avro$/.test(f)).sort().at(-1)!;
const manifest = (files: string[]): string => files.filter((f) => f.endsWith('.avro') && !/\/snap-[^/]*$/.test(f))[0]!;
const dataFile = (files: string[]): string => files.filter((f) => f.endsWith('.parquet'))[0]!;

function flipBytes(file: string, from: number, count: number): void {
  const b = readFileSync(file);
  for (let i = from; i < Math.min(b.length, from + count); i++) b[i] = b[i]! ^ 0x5a;
  writeFileSync(file, b);
}
const halve = (file: string): void => truncateSync(file, Math.floor(readFileSync(file).length / 2));

describe('corrupt and missing table files', () => {
  const warehouse = mkdtempSync(join(tmpdir(), 'lakegate-robust-'));
  let server: LakegateServer;
  let client: pg.Client;
  const damaged: Record<string, string> = {};

  const connect = async (): Promise<pg.Client> => {
    const c = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await c.connect();
    return c;
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { warehouse } });
    client = await connect();
    await client.query('CREATE SCHEMA r');
    const tables = ['ok', 'meta_trunc', 'meta_flip', 'list_trunc', 'list_flip', 'man_trunc', 'man_flip', 'pq_trunc', 'pq_flip', 'pq_missing', 'list_missing', 'meta_missing'];
    for (const t of tables) {
      await client.query(`CREATE TABLE r.${t} (id int8, name text)`);
      await client.query(`INSERT INTO r.${t} SELECT g, 'n' || g FROM generate_series(1, 50) g`);
    }
    await client.end();
    await server.close();

    const f = (t: string): string[] => tableFiles(warehouse, t);
    halve((damaged['meta_trunc'] = latestMetadata(f('meta_trunc'))));
    flipBytes((damaged['meta_flip'] = latestMetadata(f('meta_flip'))), 0, 8);
    halve((damaged['list_trunc'] = manifestList(f('list_trunc'))));
    flipBytes((damaged['list_flip'] = manifestList(f('list_flip'))), 0, 4000);
    halve((damaged['man_trunc'] = manifest(f('man_trunc'))));
    flipBytes((damaged['man_flip'] = manifest(f('man_flip'))), 200, 8000);
    halve((damaged['pq_trunc'] = dataFile(f('pq_trunc'))));
    // page headers and data of the first column chunk, right after the leading PAR1 magic
    flipBytes((damaged['pq_flip'] = dataFile(f('pq_flip'))), 4, 64);
    unlinkSync((damaged['pq_missing'] = dataFile(f('pq_missing'))));
    unlinkSync((damaged['list_missing'] = manifestList(f('list_missing'))));
    unlinkSync((damaged['meta_missing'] = latestMetadata(f('meta_missing'))));

    server = await startLakegate({ config: { warehouse } });
    client = await connect();
  });
  afterAll(async () => {
    await client?.end();
    await server?.close();
    rmSync(warehouse, { recursive: true, force: true });
  });

  const base = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  const expectError = async (sql: string, code: string, file: string): Promise<void> => {
    const err = (await client.query(sql).then(() => null, (e: unknown) => e)) as (Error & { code?: string }) | null;
    expect(err, sql).not.toBeNull();
    expect({ code: err!.code, named: err!.message.includes(base(file)) }, `${sql}: ${err!.message}`).toEqual({ code, named: true });
    // the connection and the server keep serving
    expect((await client.query('SELECT count(*) AS n FROM r.ok')).rows).toEqual([{ n: '50' }]);
  };

  it('truncated or byte-flipped metadata JSON → XX001 naming the file', async () => {
    await expectError('SELECT * FROM r.meta_trunc', 'XX001', damaged['meta_trunc']!);
    await expectError('SELECT count(*) FROM r.meta_flip', 'XX001', damaged['meta_flip']!);
  });

  it('truncated or byte-flipped manifest list → XX001 naming the file', async () => {
    await expectError('SELECT * FROM r.list_trunc', 'XX001', damaged['list_trunc']!);
    await expectError('SELECT * FROM r.list_flip', 'XX001', damaged['list_flip']!);
  });

  it('truncated or byte-flipped manifest → XX001 naming the file', async () => {
    await expectError('SELECT * FROM r.man_trunc', 'XX001', damaged['man_trunc']!);
    await expectError('SELECT * FROM r.man_flip', 'XX001', damaged['man_flip']!);
  });

  it('truncated or byte-flipped Parquet file → XX001 naming the file', async () => {
    await expectError('SELECT * FROM r.pq_trunc', 'XX001', damaged['pq_trunc']!);
    await expectError('SELECT sum(id), max(name) FROM r.pq_flip', 'XX001', damaged['pq_flip']!);
  });

  it('a deleted data file, manifest list or metadata file → 58030 naming the file', async () => {
    await expectError('SELECT * FROM r.meta_missing', '58030', damaged['meta_missing']!);
    await expectError('SELECT * FROM r.pq_missing', '58030', damaged['pq_missing']!);
    await expectError('SELECT * FROM r.list_missing', '58030', damaged['list_missing']!);
  });

  it('a new connection still works after all of that', async () => {
    const c = await connect();
    try {
      expect((await c.query('SELECT sum(id) AS s FROM r.ok')).rows).toEqual([{ s: '1275' }]);
    } finally {
      await c.end();
    }
  });
});
