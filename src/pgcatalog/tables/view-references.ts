/**
 * The relations a view's defining SELECT reads, found by parsing viewDefinition (PostgreSQL's grammar) and
 * collecting its RangeVars; pg_depend reports them so dbt and other lineage tools see view → table edges.
 * CTE names are excluded; results are cached per definition text.
 */
import { parseSql } from '../../sql/index.ts';

export interface RangeVarName { readonly schema: string | undefined; readonly name: string }

const cache = new Map<string, readonly RangeVarName[]>();

function collect(node: unknown, out: RangeVarName[], ctes: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out, ctes);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (key === 'CommonTableExpr') {
      const name = (value as { ctename?: string }).ctename;
      if (name !== undefined) ctes.add(name);
    }
    if (key === 'RangeVar') {
      const rv = value as { relname?: string; schemaname?: string };
      if (rv.relname !== undefined) out.push({ schema: rv.schemaname, name: rv.relname });
      continue;
    }
    collect(value, out, ctes);
  }
}

/** The (schema, name) pairs the view's SELECT reads; [] if it cannot be parsed (parser not loaded yet). */
export function viewReferences(definition: string): readonly RangeVarName[] {
  const hit = cache.get(definition);
  if (hit !== undefined) return hit;
  let refs: RangeVarName[] = [];
  try {
    const found: RangeVarName[] = [];
    const ctes = new Set<string>();
    for (const stmt of parseSql(definition)) collect(stmt.ast, found, ctes);
    refs = found.filter((r) => r.schema !== undefined || !ctes.has(r.name));
  } catch {
    return [];
  }
  cache.set(definition, refs);
  return refs;
}
