/**
 * The contract every SqlCatalog backend passes (SQLite file, PostgreSQL database): namespaces, table
 * pointers, compare-and-swap commits with a real lost race between two instances, PostgreSQL error codes,
 * and the JdbcCatalog table layout. Each test uses its own catalog_name, so tests share one database.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../../common/errors.ts';
import type { SqlCatalog } from '../sql-catalog.ts';
import type { SqlDialect } from '../sql-dialect.ts';
import type { TableIdentifier } from '../iceberg-catalog.ts';
import { V0_CREATE_CATALOG_SQL } from '../jdbc-schema.ts';

export interface CatalogDatabaseHandle {
  /** a new SqlCatalog instance (its own connection) on this database */
  open(catalogName: string): Promise<SqlCatalog>;
  /** a raw connection for checks and for simulating other writers (PyIceberg, Java) */
  readonly raw: SqlDialect;
}

export interface CatalogBackend {
  readonly kind: 'sqlite' | 'postgresql';
  /** a new, empty catalog database */
  freshDatabase(): Promise<CatalogDatabaseHandle>;
  dispose(): Promise<void>;
}

interface ColumnInfo {
  name: string;
  type: string;
  notNull: boolean;
  pk: boolean;
}

async function describeColumns(raw: SqlDialect, table: string): Promise<ColumnInfo[]> {
  if (raw.kind === 'sqlite') {
    const rows = await raw.query('SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?) ORDER BY cid', [table]);
    return rows.map((r) => ({ name: String(r.name), type: String(r.type).toLowerCase(), notNull: Number(r.nn) === 1, pk: Number(r.pk) > 0 }));
  }
  const rows = await raw.query(
    `SELECT c.column_name, c.data_type, c.character_maximum_length AS len, c.is_nullable,
            EXISTS (SELECT 1 FROM information_schema.table_constraints tc
                    JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
                    WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_name = c.table_name
                      AND k.column_name = c.column_name) AS pk
       FROM information_schema.columns c
      WHERE c.table_schema = current_schema() AND c.table_name = ? ORDER BY c.ordinal_position`,
    [table],
  );
  return rows.map((r) => ({
    name: String(r.column_name),
    type: r.data_type === 'character varying' ? `varchar(${String(r.len)})` : String(r.data_type),
    notNull: r.is_nullable === 'NO',
    pk: r.pk === true,
  }));
}

const PYICEBERG_TABLES_DDL =
  'CREATE TABLE iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, ' +
  'table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), ' +
  'PRIMARY KEY (catalog_name, table_namespace, table_name))';
const PYICEBERG_NAMESPACE_PROPERTIES_DDL =
  'CREATE TABLE iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, ' +
  'property_key VARCHAR(255) NOT NULL, property_value VARCHAR(1000) NOT NULL, PRIMARY KEY (catalog_name, namespace, property_key))';

const id = (ns: string[], name: string): TableIdentifier => ({ namespace: ns, name });
const loc = (n: number): string => `s3://wh/db/t/metadata/${String(n).padStart(5, '0')}-${randomUUID()}.metadata.json`;

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (GatewayError.is(e)) return e.code;
    throw e;
  }
  return 'no error';
}

export function catalogContract(makeBackend: () => Promise<CatalogBackend>): void {
  let backend: CatalogBackend;
  let db: CatalogDatabaseHandle;
  const opened: SqlCatalog[] = [];
  const open = async (db0: CatalogDatabaseHandle, name = `c_${randomUUID().slice(0, 8)}`): Promise<SqlCatalog> => {
    const c = await db0.open(name);
    opened.push(c);
    return c;
  };

  beforeAll(async () => {
    backend = await makeBackend();
    db = await backend.freshDatabase();
  });
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await backend?.dispose();
  });

  describe('schema', () => {
    it('creates JdbcCatalog V1 tables with its exact columns, types and keys', async () => {
      await open(db);
      const pkNotNull = backend.kind === 'postgresql'; // PostgreSQL makes primary-key columns NOT NULL
      const v = (n: number) => `varchar(${n})`;
      expect(await describeColumns(db.raw, 'iceberg_tables')).toEqual([
        { name: 'catalog_name', type: v(255), notNull: true, pk: true },
        { name: 'table_namespace', type: v(255), notNull: true, pk: true },
        { name: 'table_name', type: v(255), notNull: true, pk: true },
        { name: 'metadata_location', type: v(1000), notNull: false, pk: false },
        { name: 'previous_metadata_location', type: v(1000), notNull: false, pk: false },
        { name: 'iceberg_type', type: v(5), notNull: false, pk: false },
      ]);
      expect(await describeColumns(db.raw, 'iceberg_namespace_properties')).toEqual([
        { name: 'catalog_name', type: v(255), notNull: true, pk: true },
        { name: 'namespace', type: v(255), notNull: true, pk: true },
        { name: 'property_key', type: v(255), notNull: pkNotNull, pk: true },
        { name: 'property_value', type: v(1000), notNull: false, pk: false },
      ]);
      if (backend.kind === 'sqlite') {
        const rows = await db.raw.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'iceberg_tables'");
        // SQLite keeps the DDL text: JdbcCatalog's CREATE, with ALTER's column spliced in after the last column
        expect(String(rows[0]?.sql)).toBe(V0_CREATE_CATALOG_SQL.replace(',PRIMARY KEY', ', iceberg_type VARCHAR(5),PRIMARY KEY'));
      }
    });

    it('opening again is a no-op, and a V0 database made by PyIceberg is upgraded in place', async () => {
      await open(db);
      const v0 = await backend.freshDatabase();
      // the DDL SQLAlchemy emits for PyIceberg's SqlCatalog models (no iceberg_type; property columns NOT NULL)
      await v0.raw.execute(PYICEBERG_TABLES_DDL);
      await v0.raw.execute(PYICEBERG_NAMESPACE_PROPERTIES_DDL);
      await v0.raw.execute(
        "INSERT INTO iceberg_tables VALUES ('py', 'legacy', 'events', 's3://wh/legacy/events/metadata/00000-a.metadata.json', NULL)",
      );
      await v0.raw.execute("INSERT INTO iceberg_namespace_properties VALUES ('py', 'empty_ns', 'exists', 'true')");
      const c = await open(v0, 'py');
      expect((await describeColumns(v0.raw, 'iceberg_tables')).map((x) => x.name)).toEqual([
        'catalog_name',
        'table_namespace',
        'table_name',
        'metadata_location',
        'previous_metadata_location',
        'iceberg_type',
      ]);
      // a NULL iceberg_type row is a table, and its namespace exists through it
      expect(await c.listNamespaces()).toEqual([['empty_ns'], ['legacy']]);
      expect(await c.listTables(['legacy'])).toEqual([id(['legacy'], 'events')]);
      await c.commitTable(id(['legacy'], 'events'), 's3://wh/legacy/events/metadata/00000-a.metadata.json', 's3://x/00001-b.metadata.json');
      expect((await c.loadTableLocation(id(['legacy'], 'events'))).metadataLocation).toBe('s3://x/00001-b.metadata.json');
      await c.updateNamespaceProperties(['empty_ns'], [], { owner: 'py' });
      await c.createTable(id(['empty_ns'], 'new_one'), loc(0));
      expect(await c.listTables(['empty_ns'])).toEqual([id(['empty_ns'], 'new_one')]);
    });
  });

  describe('namespaces', () => {
    it('creates, lists, checks and loads properties', async () => {
      const c = await open(db);
      expect(await c.listNamespaces()).toEqual([]);
      await c.createNamespace(['sales'], { owner: 'ana', comment: 'EU sales' });
      await c.createNamespace(['sales', 'eu']);
      await c.createNamespace(['hr']);
      expect(await c.listNamespaces()).toEqual([['hr'], ['sales']]);
      expect(await c.listNamespaces(['sales'])).toEqual([['sales', 'eu']]);
      expect(await c.listNamespaces(['sales', 'eu'])).toEqual([]);
      expect(await c.namespaceExists(['sales', 'eu'])).toBe(true);
      expect(await c.namespaceExists(['sales', 'us'])).toBe(false);
      // `location` defaults to <warehouse>/<levels> as in JdbcCatalog.loadNamespaceMetadata
      const { location, ...props } = await c.loadNamespaceProperties(['sales']);
      expect(props).toEqual({ comment: 'EU sales', owner: 'ana' });
      expect(location).toMatch(/\/sales$/);
      expect((await c.loadNamespaceProperties(['sales', 'eu'])).location).toMatch(/\/sales\/eu$/);
      await c.updateNamespaceProperties(['hr'], [], { location: 's3://elsewhere/hr' });
      expect(await c.loadNamespaceProperties(['hr'])).toEqual({ location: 's3://elsewhere/hr' });
      // stored as JdbcCatalog stores it: dot-joined, with exists=true
      const rows = await db.raw.query(
        'SELECT property_key, property_value FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?',
        [c.name, 'sales.eu'],
      );
      expect(rows).toEqual([{ property_key: 'exists', property_value: 'true' }]);
    });

    it('rejects duplicates, missing parents and reserved keys with PostgreSQL codes', async () => {
      const c = await open(db);
      await c.createNamespace(['a']);
      expect(await codeOf(c.createNamespace(['a']))).toBe('42P06');
      expect(await codeOf(c.listNamespaces(['nope']))).toBe('3F000');
      expect(await codeOf(c.loadNamespaceProperties(['nope']))).toBe('3F000');
      expect(await codeOf(c.listTables(['nope']))).toBe('3F000');
      expect(await codeOf(c.createNamespace(['b'], { exists: 'false' }))).toBe('22023');
      expect(await codeOf(c.createNamespace(['x.y']))).toBe('42602');
      expect(await codeOf(c.createNamespace([]))).toBe('42602');
      await expect(c.listTables(['nope'])).rejects.toThrow('schema "nope" does not exist');
    });

    it('updates and removes properties', async () => {
      const c = await open(db);
      await c.createNamespace(['p'], { a: '1', b: '2' });
      const summary = await c.updateNamespaceProperties(['p'], ['b', 'zz'], { a: '10', c: '3' });
      expect(summary).toEqual({ removed: ['b'], updated: ['a', 'c'], missing: ['zz'] });
      const { location: _, ...props } = await c.loadNamespaceProperties(['p']);
      expect(props).toEqual({ a: '10', c: '3' });
      expect(await codeOf(c.updateNamespaceProperties(['p'], ['exists'], {}))).toBe('22023');
      expect(await codeOf(c.updateNamespaceProperties(['q'], [], { a: '1' }))).toBe('3F000');
      // removing every user property keeps the namespace (the exists marker stays)
      await c.updateNamespaceProperties(['p'], ['a', 'c'], {});
      expect(await c.namespaceExists(['p'])).toBe(true);
    });

    it('drops only empty namespaces', async () => {
      const c = await open(db);
      await c.createNamespace(['d']);
      await c.createTable(id(['d'], 't'), loc(0));
      expect(await codeOf(c.dropNamespace(['d']))).toBe('2BP01');
      await expect(c.dropNamespace(['d'])).rejects.toThrow('cannot drop schema d because other objects depend on it');
      expect(await c.dropTable(id(['d'], 't'))).toBe(true);
      expect(await c.dropNamespace(['d'])).toBe(true);
      expect(await c.namespaceExists(['d'])).toBe(false);
      expect(await c.dropNamespace(['d'])).toBe(false);
    });

    it('matches sub-namespaces literally (LIKE wildcards escaped, case kept)', async () => {
      const c = await open(db);
      await c.createNamespace(['aXb', 'c']);
      await c.createNamespace(['Up', 'low']);
      expect(await c.namespaceExists(['aXb'])).toBe(true);
      expect(await c.namespaceExists(['a_b'])).toBe(false);
      expect(await c.namespaceExists(['a%'])).toBe(false);
      expect(await c.namespaceExists(['up'])).toBe(false);
    });

    it('keeps catalogs with different names apart', async () => {
      const name = `iso_${randomUUID().slice(0, 6)}`;
      const one = await open(db, name);
      const other = await open(db);
      await one.createNamespace(['only_here']);
      expect(await other.namespaceExists(['only_here'])).toBe(false);
      expect(await (await open(db, name)).namespaceExists(['only_here'])).toBe(true);
    });
  });

  describe('tables', () => {
    it('creates, loads, lists and drops table pointers', async () => {
      const c = await open(db);
      await c.createNamespace(['n', 'm']);
      const first = loc(0);
      await c.createTable(id(['n', 'm'], 'orders'), first);
      await c.registerTable(id(['n', 'm'], 'customers'), 's3://other/customers/metadata/00007-u.metadata.json');
      expect(await c.tableExists(id(['n', 'm'], 'orders'))).toBe(true);
      expect(await c.tableExists(id(['n', 'm'], 'nope'))).toBe(false);
      expect(await c.loadTableLocation(id(['n', 'm'], 'orders'))).toEqual({ metadataLocation: first, previousMetadataLocation: null });
      expect(await c.listTables(['n', 'm'])).toEqual([id(['n', 'm'], 'customers'), id(['n', 'm'], 'orders')]);
      expect(await c.listTables(['n'])).toEqual([]);
      const rows = await db.raw.query('SELECT table_namespace, iceberg_type FROM iceberg_tables WHERE catalog_name = ?', [c.name]);
      expect(rows).toEqual([
        { table_namespace: 'n.m', iceberg_type: 'TABLE' },
        { table_namespace: 'n.m', iceberg_type: 'TABLE' },
      ]);
      expect(await c.dropTable(id(['n', 'm'], 'orders'))).toBe(true);
      expect(await c.dropTable(id(['n', 'm'], 'orders'))).toBe(false);
      expect(await c.tableExists(id(['n', 'm'], 'orders'))).toBe(false);
    });

    it('raises 42P01, 42P07 and 3F000 like PostgreSQL', async () => {
      const c = await open(db);
      await c.createNamespace(['e']);
      await c.createTable(id(['e'], 't'), loc(0));
      expect(await codeOf(c.createTable(id(['e'], 't'), loc(0)))).toBe('42P07');
      await expect(c.registerTable(id(['e'], 't'), loc(0))).rejects.toThrow('relation "e.t" already exists');
      expect(await codeOf(c.createTable(id(['missing'], 't'), loc(0)))).toBe('3F000');
      expect(await codeOf(c.loadTableLocation(id(['e'], 'u')))).toBe('42P01');
      await expect(c.loadTableLocation(id(['e'], 'u'))).rejects.toThrow('relation "e.u" does not exist');
    });

    it('renames within and across namespaces', async () => {
      const c = await open(db);
      await c.createNamespace(['r1']);
      await c.createNamespace(['r2']);
      const l = loc(0);
      await c.createTable(id(['r1'], 'a'), l);
      await c.createTable(id(['r1'], 'b'), loc(0));
      await c.renameTable(id(['r1'], 'a'), id(['r1'], 'a2'));
      await c.renameTable(id(['r1'], 'a2'), id(['r2'], 'a3'));
      expect((await c.loadTableLocation(id(['r2'], 'a3'))).metadataLocation).toBe(l);
      expect(await c.tableExists(id(['r1'], 'a'))).toBe(false);
      await c.renameTable(id(['r2'], 'a3'), id(['r2'], 'a3')); // same name: no-op
      expect(await codeOf(c.renameTable(id(['r2'], 'a3'), id(['r1'], 'b')))).toBe('42P07');
      expect(await codeOf(c.renameTable(id(['r1'], 'gone'), id(['r1'], 'x')))).toBe('42P01');
      expect(await codeOf(c.renameTable(id(['r2'], 'a3'), id(['r9'], 'x')))).toBe('3F000');
    });

    it('treats VIEW rows as not tables, but their names as taken', async () => {
      const c = await open(db);
      await c.createNamespace(['v']);
      await db.raw.execute(
        "INSERT INTO iceberg_tables VALUES (?, 'v', 'vw', 's3://wh/v/vw/metadata/00000-v.metadata.json', NULL, 'VIEW')",
        [c.name],
      );
      expect(await c.listTables(['v'])).toEqual([]);
      expect(await c.tableExists(id(['v'], 'vw'))).toBe(false);
      expect(await codeOf(c.loadTableLocation(id(['v'], 'vw')))).toBe('42P01');
      expect(await codeOf(c.createTable(id(['v'], 'vw'), loc(0)))).toBe('42P07');
      expect(await c.dropTable(id(['v'], 'vw'))).toBe(false);
      expect(await codeOf(c.dropNamespace(['v']))).not.toBe('no error');
    });
  });

  describe('commits', () => {
    it('swaps the pointer and keeps the previous one', async () => {
      const c = await open(db);
      await c.createNamespace(['k']);
      const [l0, l1, l2] = [loc(0), loc(1), loc(2)];
      await c.createTable(id(['k'], 't'), l0);
      await c.commitTable(id(['k'], 't'), l0, l1);
      expect(await c.loadTableLocation(id(['k'], 't'))).toEqual({ metadataLocation: l1, previousMetadataLocation: l0 });
      await c.commitTable(id(['k'], 't'), l1, l2);
      expect(await c.loadTableLocation(id(['k'], 't'))).toEqual({ metadataLocation: l2, previousMetadataLocation: l1 });
    });

    it('rejects a stale base with 40001 and a missing table with 42P01', async () => {
      const c = await open(db);
      await c.createNamespace(['k']);
      const [l0, l1] = [loc(0), loc(1)];
      await c.createTable(id(['k'], 't'), l0);
      await c.commitTable(id(['k'], 't'), l0, l1);
      expect(await codeOf(c.commitTable(id(['k'], 't'), l0, loc(2)))).toBe('40001');
      await expect(c.commitTable(id(['k'], 't'), l0, loc(2))).rejects.toThrow('could not serialize access due to concurrent update');
      expect((await c.loadTableLocation(id(['k'], 't'))).metadataLocation).toBe(l1);
      expect(await codeOf(c.commitTable(id(['k'], 'none'), l0, l1))).toBe('42P01');
    });

    it('lets exactly one of two catalog instances win a race on the same base', async () => {
      const name = `race_${randomUUID().slice(0, 6)}`;
      const a = await open(db, name);
      const b = await open(db, name);
      await a.createNamespace(['race']);
      const t = id(['race'], 't');
      let base = loc(0);
      await a.createTable(t, base);
      for (let round = 1; round <= 5; round++) {
        const [la, lb] = [loc(round), loc(round)];
        const results = await Promise.allSettled([a.commitTable(t, base, la), b.commitTable(t, base, lb)]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        expect((lost[0]?.reason as GatewayError).code).toBe('40001');
        const winner = results[0]?.status === 'fulfilled' ? la : lb;
        expect(await b.loadTableLocation(t)).toEqual({ metadataLocation: winner, previousMetadataLocation: base });
        base = winner;
      }
    });

    it('serializes many concurrent committers: every success extends the chain', async () => {
      const name = `chain_${randomUUID().slice(0, 6)}`;
      const cats = [await open(db, name), await open(db, name), await open(db, name)];
      await cats[0]!.createNamespace(['chain']);
      const t = id(['chain'], 't');
      await cats[0]!.createTable(t, loc(0));
      let successes = 0;
      // each writer: reload, try to commit, retry on 40001 (what the Iceberg commit layer does)
      await Promise.all(
        cats.map(async (c) => {
          for (let i = 0; i < 4; i++) {
            for (;;) {
              const { metadataLocation } = await c.loadTableLocation(t);
              try {
                await c.commitTable(t, metadataLocation, loc(1));
                successes++;
                break;
              } catch (e) {
                if (!(GatewayError.is(e) && e.code === '40001')) throw e;
              }
            }
          }
        }),
      );
      expect(successes).toBe(12);
    });
  });
}
