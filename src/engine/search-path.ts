/**
 * search_path → the schemas name resolution walks, as PostgreSQL computes them: "$user" becomes the user's
 * schema when it exists, missing schemas are skipped, pg_catalog is searched first unless listed, and the
 * session's temp schema comes before everything for relations.
 */
import type { CatalogView } from '../catalog/catalog-view.ts';

export function parseSearchPath(value: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:"((?:[^"]|"")*)"|([^,\s]+))\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < value.length && (m = re.exec(value)) !== null) {
    if (m[1] !== undefined) out.push(m[1].replace(/""/g, '"'));
    else if (m[2] !== undefined) out.push(m[2].toLowerCase());
    if (m[0].length === 0) break;
  }
  return out;
}

/**
 * @param implicit include pg_temp and pg_catalog where PostgreSQL implicitly searches them
 *   (false gives current_schemas(false))
 */
export function searchPathSchemas(value: string, user: string, catalog: CatalogView & { tempSchemaName?: string; hasTempSchema?: () => boolean }, implicit: boolean): string[] {
  const listed: string[] = [];
  for (const entry of parseSearchPath(value)) {
    const name = entry === '$user' ? user : entry;
    if (name === 'pg_temp') {
      if (catalog.tempSchemaName !== undefined) listed.push(catalog.tempSchemaName);
      continue;
    }
    if (catalog.schemaByName(name) !== undefined) listed.push(name);
  }
  if (!implicit) return listed.filter((s) => !s.startsWith('pg_temp'));
  const out = [...listed];
  if (!out.includes('pg_catalog')) out.unshift('pg_catalog');
  const temp = catalog.tempSchemaName;
  if (temp !== undefined && catalog.hasTempSchema?.() === true && !out.includes(temp)) out.unshift(temp);
  return out;
}
