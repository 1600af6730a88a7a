/** Lists the .slt files under test/sql (sorted), optionally filtered by SLT_FILTER (a substring). */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const sqlDir = join(repoRoot, 'test', 'sql');

export function listSltFiles(dir = sqlDir): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const ent of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, ent.name);
      if (ent.isDirectory()) walk(p);
      else if (ent.name.endsWith('.slt')) out.push(p);
    }
  };
  walk(dir);
  const filter = process.env.SLT_FILTER;
  return out.sort().filter((p) => !filter || relative(repoRoot, p).includes(filter));
}
