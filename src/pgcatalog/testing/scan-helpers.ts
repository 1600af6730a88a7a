/**
 * Test helpers: scan a system relation through its TableSource (as the executor would) and get rows as objects.
 */
import { rowsOfBatch } from '../../common/batch.ts';
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import type { ScanContext } from '../../catalog/table-source.ts';
import { createSystemRelations, type SystemCatalogOptions } from '../system-catalog.ts';

export async function scanRelation(rel: RelationInfo, ctx: ScanContext): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const batch of rel.source.scan(ctx)) {
    for (const row of rowsOfBatch(batch)) {
      const obj: Record<string, unknown> = {};
      rel.source.columns.forEach((c, i) => { obj[c.name] = row[i]; });
      out.push(obj);
    }
  }
  return out;
}

export function systemScanner(options: SystemCatalogOptions = {}): (name: string, ctx: ScanContext) => Promise<Record<string, unknown>[]> {
  const rels = createSystemRelations(options);
  return async (name, ctx) => {
    const [schema, rel] = name.includes('.') ? name.split('.') as [string, string] : ['pg_catalog', name];
    const found = rels.find((r) => r.schema === schema && r.name === rel);
    if (found === undefined) throw new Error(`no system relation ${name}`);
    return scanRelation(found, ctx);
  };
}
