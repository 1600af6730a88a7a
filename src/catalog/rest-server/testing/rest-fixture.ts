/**
 * Test fixture: a RestCatalogServer on 127.0.0.1:0 over two SqlCatalogs (databases `lakegate` and `other`)
 * on one temp SQLite file, FileIO path-mapping the Spark "bunnies" fixture, registered as `lake.bunnies`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlCatalog, type IcebergCatalog } from '../../iceberg/index.ts';
import { FileIO } from '../../../storage/index.ts';
import { RestCatalogServer } from '../rest-catalog-server.ts';

export const FIXTURES = join(import.meta.dirname, '../../../../../shared/fixtures/iceberg');
export const BUNNIES = 's3a://hyperparam-iceberg/spark/bunnies';
export const V5 = `${BUNNIES}/metadata/v5.metadata.json`;
export const V3 = `${BUNNIES}/metadata/v3.metadata.json`;
/** the current snapshot of v5: above 2^53, so a double would round it */
export const V5_CURRENT_SNAPSHOT = '2701171901096418979';

export interface RestFixture {
  readonly base: string;
  /** temp folder: SQLite catalog file and warehouse (new tables go to <dir>/<namespace>/<table>) */
  readonly dir: string;
  readonly catalogs: ReadonlyMap<string, IcebergCatalog>;
  /** catalog names passed to onChange, in order */
  readonly changes: string[];
  close(): Promise<void>;
}

export async function startRestFixture(options: { token?: string } = {}): Promise<RestFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'lakegate-rest-'));
  const catalogs = new Map<string, IcebergCatalog>();
  for (const name of ['lakegate', 'other']) catalogs.set(name, await openSqlCatalog({ catalogName: name, warehouse: dir }));
  const io = new FileIO({ pathMap: [`${BUNNIES}=${FIXTURES}/icebird-spark-bunnies`] });
  const lake = catalogs.get('lakegate')!;
  await lake.createNamespace(['lake'], { owner: 'ana' });
  await lake.registerTable({ namespace: ['lake'], name: 'bunnies' }, V5);
  const changes: string[] = [];
  const server = new RestCatalogServer({
    catalogNames: ['lakegate', 'other'],
    catalog: (name) => catalogs.get(name),
    io: {
      read: (uri) => io.read(uri),
      // the shared fixtures are never written: a commit to them is a test bug
      writeIfAbsent: async (uri, data) => {
        if (uri.startsWith(BUNNIES)) throw new Error(`refusing to write into the shared fixture: ${uri}`);
        return io.writeIfAbsent(uri, data);
      },
    },
    ...(options.token === undefined ? {} : { token: options.token }),
    onChange: (name) => void changes.push(name),
  });
  const addr = await server.listen(0, '127.0.0.1');
  return {
    base: `http://127.0.0.1:${addr.port}`,
    dir,
    catalogs,
    changes,
    async close() {
      await server.close();
      for (const c of catalogs.values()) await c.close();
      await io.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
