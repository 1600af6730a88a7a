import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../common/errors.ts';
import { openSqlCatalog, resolveCatalogDatabase } from './open-sql-catalog.ts';

describe('resolveCatalogDatabase', () => {
  it('reads PostgreSQL URIs in libpq and JDBC form', () => {
    expect(resolveCatalogDatabase('postgresql://u@h:5432/db', undefined)).toEqual({ kind: 'postgresql', url: 'postgresql://u@h:5432/db' });
    expect(resolveCatalogDatabase('postgres://h/db', undefined)).toEqual({ kind: 'postgresql', url: 'postgres://h/db' });
    expect(resolveCatalogDatabase('jdbc:postgresql://h:5432/db', undefined)).toEqual({ kind: 'postgresql', url: 'postgresql://h:5432/db' });
  });

  it('reads SQLite files in SQLAlchemy, JDBC, file: and path form', () => {
    expect(resolveCatalogDatabase('sqlite:////data/cat.db', undefined)).toEqual({ kind: 'sqlite', file: '/data/cat.db' });
    expect(resolveCatalogDatabase('sqlite:///rel/cat.db', undefined)).toEqual({ kind: 'sqlite', file: resolve('rel/cat.db') });
    expect(resolveCatalogDatabase('jdbc:sqlite:/data/cat.db', undefined)).toEqual({ kind: 'sqlite', file: '/data/cat.db' });
    expect(resolveCatalogDatabase('jdbc:sqlite:file:/data/cat.db', undefined)).toEqual({ kind: 'sqlite', file: '/data/cat.db' });
    expect(resolveCatalogDatabase('file:///data/cat.db', undefined)).toEqual({ kind: 'sqlite', file: '/data/cat.db' });
    expect(resolveCatalogDatabase('/data/cat.db', undefined)).toEqual({ kind: 'sqlite', file: '/data/cat.db' });
  });

  it('defaults to <warehouse>/lakegate_catalog.db for a local warehouse only', () => {
    expect(resolveCatalogDatabase(undefined, '/wh/')).toEqual({ kind: 'sqlite', file: '/wh/lakegate_catalog.db' });
    expect(resolveCatalogDatabase(undefined, 'file:///wh')).toEqual({ kind: 'sqlite', file: '/wh/lakegate_catalog.db' });
    expect(() => resolveCatalogDatabase(undefined, 's3://bucket/wh')).toThrow(GatewayError);
    expect(() => resolveCatalogDatabase('mysql://h/db', undefined)).toThrow(/not supported/);
  });
});

describe('openSqlCatalog', () => {
  it('creates the SQLite file (WAL) in the warehouse and names the catalog', async () => {
    const warehouse = join(mkdtempSync(join(tmpdir(), 'lg-open-')), 'nested', 'wh');
    try {
      const catalog = await openSqlCatalog({ warehouse });
      expect(catalog.name).toBe('lakegate');
      expect(existsSync(join(warehouse, 'lakegate_catalog.db'))).toBe(true);
      expect(await catalog.dialect.query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
      await catalog.close();
      const named = await openSqlCatalog({ warehouse, catalogName: 'analytics' });
      expect(named.name).toBe('analytics');
      await named.close();
    } finally {
      rmSync(resolve(warehouse, '../..'), { recursive: true, force: true });
    }
  });

  it('refuses to create tables when told not to', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lg-open-'));
    try {
      await expect(openSqlCatalog({ uri: join(dir, 'x.db'), initCatalogTables: false })).rejects.toMatchObject({ code: '42P01' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
