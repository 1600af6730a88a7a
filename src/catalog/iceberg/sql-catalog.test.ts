/**
 * Runs the catalog contract on both backends: a SQLite file in a temp warehouse (the default) and a
 * scratch database in the shared throwaway PostgreSQL cluster.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe } from 'vitest';
import { sharedPgCluster } from '../../../test/helpers/pg-cluster.ts';
import { openSqlCatalog } from './open-sql-catalog.ts';
import { PostgresDialect } from './postgres-dialect.ts';
import { SqliteDialect } from './sqlite-dialect.ts';
import { catalogContract, type CatalogBackend } from './test/catalog-contract.ts';

describe('SqlCatalog on SQLite', () => {
  catalogContract(async (): Promise<CatalogBackend> => {
    const dirs: string[] = [];
    const raws: SqliteDialect[] = [];
    return {
      kind: 'sqlite',
      async freshDatabase() {
        const warehouse = mkdtempSync(join(tmpdir(), 'lg-sqlcat-'));
        dirs.push(warehouse);
        // default location: <warehouse>/lakegate_catalog.db
        const raw = new SqliteDialect(join(warehouse, 'lakegate_catalog.db'));
        raws.push(raw);
        return { raw, open: (catalogName) => openSqlCatalog({ warehouse, catalogName }) };
      },
      async dispose() {
        for (const r of raws) await r.close();
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
      },
    };
  });
});

describe('SqlCatalog on PostgreSQL', () => {
  catalogContract(async (): Promise<CatalogBackend> => {
    const cluster = await sharedPgCluster();
    const databases: string[] = [];
    const raws: PostgresDialect[] = [];
    const admin = async (sql: string): Promise<void> => {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    return {
      kind: 'postgresql',
      async freshDatabase() {
        const name = `lg_sqlcat_${process.pid}_${databases.length}_${Date.now() % 100000}`;
        await admin(`CREATE DATABASE ${name}`);
        databases.push(name);
        const url = new URL(cluster.url);
        url.pathname = `/${name}`;
        const raw = new PostgresDialect(url.toString(), { maxConnections: 2 });
        raws.push(raw);
        return { raw, open: (catalogName) => openSqlCatalog({ uri: url.toString(), catalogName, warehouse: 's3://wh' }) };
      },
      async dispose() {
        for (const r of raws) await r.close();
        for (const d of databases) await admin(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`);
      },
    };
  });
});
