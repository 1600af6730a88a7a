/** FileIO: every URI form, path-map rewrites (against the real relocated fixtures), S3 through s3rver. */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../common/errors.ts';
import { FileIO } from './file-io.ts';
import { LocalFsStore } from './local-fs-store.ts';
import { PathMap } from './path-map.ts';
import { S3Store } from './s3-store.ts';
import { NotFoundError } from './storage-errors.ts';
import { startS3rver, type S3rverFixture } from './test/s3rver-fixture.ts';

const FIXTURES = '/work/shared/fixtures/iceberg';
const BUNNIES = `${FIXTURES}/icebird-spark-bunnies`;
const MAP_STATS = `${FIXTURES}/duckdb-map_stats`;
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('PathMap', () => {
  const map = new PathMap([
    's3a://hyperparam-iceberg/spark=/short',
    's3a://hyperparam-iceberg/spark/bunnies=/work/shared/fixtures/iceberg/icebird-spark-bunnies',
    { from: 's3://b/t/day=1', to: '/d1' },
    'file://data/persistent/map_stats=/m',
    'lineitem_iceberg=/li/',
  ]);

  it('rewrites by the longest matching prefix, whatever the order', () => {
    expect(map.apply('s3a://hyperparam-iceberg/spark/bunnies/metadata/v1.metadata.json')).toBe(`${BUNNIES}/metadata/v1.metadata.json`);
    expect(map.apply('s3a://hyperparam-iceberg/spark/rename_column/x')).toBe('/short/rename_column/x');
    expect(new PathMap(['s3://a=/1', 's3://a/b=/2']).apply('s3://a/b/c')).toBe('/2/c');
    expect(new PathMap(['s3://a/b=/first', 's3://a/b/=/second']).apply('s3://a/b/c')).toBe('/first/c');
  });

  it('matches at segment boundaries and maps exact matches', () => {
    expect(map.apply('s3a://hyperparam-iceberg/spark/bunnies2/x')).toBe('/short/bunnies2/x');
    expect(map.apply('s3a://hyperparam-iceberg/sparkle/x')).toBe('s3a://hyperparam-iceberg/sparkle/x');
    expect(map.apply('s3a://hyperparam-iceberg/spark/bunnies')).toBe(BUNNIES);
    expect(map.apply('s3://other/x')).toBe('s3://other/x');
  });

  it('treats s3a/s3n/s3 and the file: spellings as one place', () => {
    expect(map.apply('s3://hyperparam-iceberg/spark/bunnies/data/f.parquet')).toBe(`${BUNNIES}/data/f.parquet`);
    expect(map.apply('s3n://hyperparam-iceberg/spark/bunnies/data/f.parquet')).toBe(`${BUNNIES}/data/f.parquet`);
    expect(map.apply('file://data/persistent/map_stats/default.db/x')).toBe('/m/default.db/x');
    expect(map.apply('data/persistent/map_stats/default.db/x')).toBe('/m/default.db/x');
    expect(map.apply('./lineitem_iceberg/data/a.parquet')).toBe('/li/data/a.parquet');
    expect(new PathMap(['file:///old=/new']).apply('/old/a')).toBe('/new/a');
    expect(new PathMap(['/old=/new']).apply('file:/old/a')).toBe('/new/a');
  });

  it('keeps = in TO and accepts the object form for = in FROM', () => {
    expect(map.apply('s3://b/t/day=1/f.parquet')).toBe('/d1/f.parquet');
    expect(new PathMap(['s3://x/t=/w/k=v']).apply('s3://x/t/a')).toBe('/w/k=v/a');
    expect(() => new PathMap(['no-equals-sign'])).toThrow(/FROM=TO/);
  });
});

describe('FileIO on the local filesystem', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lakegate-fileio-'));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'a.txt'), 'alpha');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('resolves every local URI form to the same file', async () => {
    const io = new FileIO({ baseDir: dir });
    for (const uri of [`${dir}/a.txt`, `file://${dir}/a.txt`, `file:${dir}/a.txt`, `file://localhost${dir}/a.txt`, 'a.txt', './a.txt', 'sub/../a.txt', 'file://a.txt']) {
      expect(dec(await io.read(uri)), uri).toBe('alpha');
    }
    const { store, path } = io.locate('sub/x.parquet');
    expect(store).toBeInstanceOf(LocalFsStore);
    expect(path).toBe(`${dir.slice(1)}/sub/x.parquet`);
  });

  it('writes, sizes, reads ranges, creates once, lists and deletes', async () => {
    const io = new FileIO({ baseDir: dir });
    await io.write('t/metadata/v1.metadata.json', enc('{"v":1}'));
    expect(await io.size(`file://${dir}/t/metadata/v1.metadata.json`)).toBe(7);
    expect(dec(await io.readRange('t/metadata/v1.metadata.json', 1, 3))).toBe('"v"');
    expect(await io.writeIfAbsent('t/metadata/v2.metadata.json', enc('2'))).toBe(true);
    expect(await io.writeIfAbsent('t/metadata/v2.metadata.json', enc('x'))).toBe(false);
    await io.write('t2/other', enc('o'));
    const listed = await collect(io.list('t/'));
    expect(listed).toEqual([
      { uri: 't/metadata/v1.metadata.json', size: 7 },
      { uri: 't/metadata/v2.metadata.json', size: 1 },
    ]);
    expect((await collect(io.list(`file://${dir}/t`))).map((l) => l.uri)).toEqual([
      `file://${dir}/t/metadata/v1.metadata.json`,
      `file://${dir}/t/metadata/v2.metadata.json`,
      `file://${dir}/t2/other`,
    ]);
    await io.delete('t/metadata/v2.metadata.json');
    expect(await io.exists('t/metadata/v2.metadata.json')).toBe(false);
  });

  it('reports a missing file as NotFoundError naming the absolute path', async () => {
    const io = new FileIO({ baseDir: dir });
    const e = await io.read('nope/v9.metadata.json').catch((err: unknown) => err);
    expect(NotFoundError.is(e)).toBe(true);
    expect((e as GatewayError).code).toBe('58030');
    expect((e as Error).message).toBe(`could not open file "${dir}/nope/v9.metadata.json": No such file or directory`);
    await expect(io.size('nope')).rejects.toSatisfy((err: unknown) => NotFoundError.is(err));
    expect(await io.exists('nope')).toBe(false);
  });

  it('rejects unknown schemes with 0A000', () => {
    const io = new FileIO({ baseDir: dir });
    expect(() => io.locate('gs://bucket/key')).toThrow(expect.objectContaining({ code: '0A000', message: 'storage scheme "gs" is not supported' }));
  });

  it('keeps memory:// stores per name for the FileIO lifetime', async () => {
    const io = new FileIO();
    await io.write('memory://wh/t/a', enc('m'));
    expect(dec(await io.read('memory://wh/t/a'))).toBe('m');
    expect(await io.exists('memory://other/t/a')).toBe(false);
    await expect(io.read('memory://wh/t/b')).rejects.toThrow('could not open file "memory://wh/t/b": No such file or directory');
  });
});

describe('FileIO with path maps over the relocated fixtures', () => {
  const io = new FileIO({
    pathMap: [
      's3a://hyperparam-iceberg/spark/bunnies=/work/shared/fixtures/iceberg/icebird-spark-bunnies',
      `file://data/persistent/map_stats=${MAP_STATS}`,
    ],
    baseDir: '/nonexistent-base',
  });

  it('reads a Spark table written to s3a:// from its local copy', async () => {
    const uri = 's3a://hyperparam-iceberg/spark/bunnies/metadata/v1.metadata.json';
    expect(io.resolve(uri)).toBe(`${BUNNIES}/metadata/v1.metadata.json`);
    const json = JSON.parse(dec(await io.read(uri))) as { location: string };
    expect(json.location).toBe('s3a://hyperparam-iceberg/spark/bunnies');
    expect(await io.size(uri)).toBe((await stat(`${BUNNIES}/metadata/v1.metadata.json`)).size);
    const data = await collect(io.list('s3a://hyperparam-iceberg/spark/bunnies/data/'));
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(data.every((d) => d.uri.startsWith('s3a://hyperparam-iceberg/spark/bunnies/data/') && d.uri.endsWith('.parquet'))).toBe(true);
    const first = data[0];
    if (first === undefined) throw new Error('no data files');
    expect(dec(await io.readRange(first.uri, 0, 4))).toBe('PAR1');
    expect(dec(await io.readRange(first.uri, first.size - 4, 4))).toBe('PAR1');
  });

  it('reads the PyIceberg table with the malformed file://relative locations', async () => {
    const uri = 'file://data/persistent/map_stats/default.db/map_stats/metadata/00000-e5eddfa2-1468-4e06-bb1d-bb443e4dd618.metadata.json';
    expect(io.resolve(uri)).toBe(`${MAP_STATS}/default.db/map_stats/metadata/00000-e5eddfa2-1468-4e06-bb1d-bb443e4dd618.metadata.json`);
    expect(dec(await io.readRange(uri, 0, 1))).toBe('{');
  });

  it('resolves unmapped relative locations against baseDir', () => {
    expect(io.resolve('lineitem_iceberg/metadata/v1.metadata.json')).toBe('lineitem_iceberg/metadata/v1.metadata.json');
    expect(io.locate('lineitem_iceberg/metadata/v1.metadata.json').path).toBe('nonexistent-base/lineitem_iceberg/metadata/v1.metadata.json');
    const rel = new FileIO({ baseDir: FIXTURES });
    expect(rel.locate('./duckdb-lineitem_iceberg/metadata/v1.metadata.json').path).toBe(`${FIXTURES.slice(1)}/duckdb-lineitem_iceberg/metadata/v1.metadata.json`);
  });
});

describe('FileIO on S3 (s3rver)', () => {
  let s3: S3rverFixture;
  let io: FileIO;
  beforeAll(async () => {
    s3 = await startS3rver('fileio-bucket');
    const { endpoint, region, accessKeyId, secretAccessKey } = s3.config;
    io = new FileIO({
      s3: { endpoint, region, forcePathStyle: true, accessKeyId, secretAccessKey, listPageSize: 1, retry: { baseDelayMs: 1 } },
      pathMap: ['/warehouse=s3://fileio-bucket/wh'],
    });
  });
  afterAll(async () => {
    io.close();
    await s3.close();
  });

  it('reads and writes s3://, s3a:// and s3n:// locations in one bucket store', async () => {
    await io.write('s3://fileio-bucket/t/a.json', enc('{"a":1}'));
    expect(dec(await io.read('s3a://fileio-bucket/t/a.json'))).toBe('{"a":1}');
    expect(dec(await io.readRange('s3n://fileio-bucket/t/a.json', 1, 3))).toBe('"a"');
    expect(await io.size('s3://fileio-bucket/t/a.json')).toBe(7);
    const a = io.locate('s3://fileio-bucket/t/a.json');
    expect(a.store).toBeInstanceOf(S3Store);
    expect(a.path).toBe('t/a.json');
    expect(io.locate('s3a://fileio-bucket/x').store).toBe(a.store);
    expect(io.locate('s3://another-bucket/x').store).not.toBe(a.store);
  });

  it('maps a local-looking location onto S3, creates once, lists across pages, deletes', async () => {
    expect(io.resolve('/warehouse/db/t/metadata/v1.metadata.json')).toBe('s3://fileio-bucket/wh/db/t/metadata/v1.metadata.json');
    expect(await io.writeIfAbsent('/warehouse/db/t/metadata/v1.metadata.json', enc('1'))).toBe(true);
    expect(await io.writeIfAbsent('file:///warehouse/db/t/metadata/v1.metadata.json', enc('2'))).toBe(false);
    await io.write('/warehouse/db/t/data/f1.parquet', enc('p1'));
    const listed = await collect(io.list('/warehouse/db/t/'));
    expect(listed).toEqual([
      { uri: '/warehouse/db/t/data/f1.parquet', size: 2 },
      { uri: '/warehouse/db/t/metadata/v1.metadata.json', size: 1 },
    ]);
    expect((await collect(io.list('s3a://fileio-bucket'))).map((l) => l.uri)).toEqual([
      's3a://fileio-bucket/t/a.json',
      's3a://fileio-bucket/wh/db/t/data/f1.parquet',
      's3a://fileio-bucket/wh/db/t/metadata/v1.metadata.json',
    ]);
    await io.delete('s3a://fileio-bucket/wh/db/t/data/f1.parquet');
    expect(await io.exists('/warehouse/db/t/data/f1.parquet')).toBe(false);
    const e = await io.read('s3a://fileio-bucket/missing.json').catch((err: unknown) => err);
    expect((e as Error).message).toBe('could not open file "s3://fileio-bucket/missing.json": No such file or directory');
  });
});
