import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { formatType } from '../common/pgtypes/index.ts';
import { createSystemRelations, systemSchemas } from './system-catalog.ts';
import { fixtureCatalog, scanContext } from './testing/memory-catalog.ts';
import { scanRelation } from './testing/scan-helpers.ts';

const snapshot = JSON.parse(readFileSync(new URL('./testing/pg15-columns.json', import.meta.url), 'utf8')) as Record<
  string, { oid: number; reltype: number; relkind: string; columns: [string, string][] }
>;

/** information_schema domains are reported as their base types */
const DOMAIN_BASE: Record<string, string> = {
  'information_schema.sql_identifier': 'name',
  'information_schema.cardinal_number': 'integer',
  'information_schema.character_data': 'character varying',
  'information_schema.yes_or_no': 'character varying(3)',
  'information_schema.time_stamp': 'timestamp(2) with time zone',
};

/** statistics-only types the type registry does not carry (their OIDs are still PostgreSQL's) */
const NOT_IN_TYPE_REGISTRY = new Set(['pg_ndistinct', 'pg_dependencies', 'pg_mcv_list', 'pg_statistic[]']);

describe('system relations', () => {
  const rels = createSystemRelations();

  it('cover every pg_catalog / information_schema table and view of PostgreSQL 15, with its OIDs', () => {
    expect(rels.length).toBe(Object.keys(snapshot).length);
    for (const rel of rels) {
      const pg = snapshot[`${rel.schema}.${rel.name}`];
      expect(pg, rel.name).toBeDefined();
      expect([rel.oid, rel.rowTypeOid, rel.kind]).toEqual([pg!.oid, pg!.reltype, pg!.relkind]);
    }
    const byName = new Map(rels.map((r) => [r.name, r.oid]));
    expect([byName.get('pg_class'), byName.get('pg_attribute'), byName.get('pg_type'), byName.get('pg_proc'),
      byName.get('pg_namespace'), byName.get('pg_database'), byName.get('pg_index'), byName.get('pg_constraint')])
      .toEqual([1259, 1249, 1247, 1255, 2615, 1262, 2610, 2606]);
  });

  it('have PostgreSQL 15 column names, order and types', () => {
    const mismatches: string[] = [];
    for (const rel of rels) {
      const pg = snapshot[`${rel.schema}.${rel.name}`]!;
      const ours = rel.source.columns.map((c) => [c.name, formatType(c.type.oid, c.type.typmod)]);
      const theirs = pg.columns.map(([n, t]) => [n, NOT_IN_TYPE_REGISTRY.has(t) ? '???' : DOMAIN_BASE[t] ?? t]);
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) mismatches.push(`${rel.schema}.${rel.name}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('systemSchemas lists pg_catalog, pg_toast, public, information_schema', () => {
    expect(systemSchemas().map((s) => [s.oid, s.name])).toEqual([[11, 'pg_catalog'], [99, 'pg_toast'], [2200, 'public'], [13207, 'information_schema']]);
  });

  it('every relation scans without error, also when the CatalogView already contains the system relations', async () => {
    for (const catalog of [fixtureCatalog(), fixtureCatalog({ withSystem: true })]) {
      for (const rel of rels) await expect(scanRelation(rel, scanContext(catalog))).resolves.toBeDefined();
    }
  });
});
