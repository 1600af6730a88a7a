/**
 * `npm run slt:complete -- <file.slt>…`: rewrites the expected blocks of query records from actual output
 * (sqllogictest-rs --override). Target: lakegate, or the throwaway PostgreSQL with PG_COMPAT=1
 * (or `--pg`). Statement records and still-matching blocks are left as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTarget, targetName, type TargetName } from '../helpers/test-target.ts';
import { parseSlt } from './slt-parser.ts';
import { runSltFile } from './slt-runner.ts';

const args = process.argv.slice(2);
const name: TargetName = args.includes('--pg') ? 'pg' : targetName();
const paths = args.filter((a) => !a.startsWith('--'));
if (paths.length === 0) {
  console.error('usage: npm run slt:complete -- [--pg] test/sql/area/file.slt …');
  process.exit(2);
}
const server = await startTarget(name);
let failed = 0;
try {
  for (const p of paths) {
    const path = resolve(p);
    const file = parseSlt(readFileSync(path, 'utf8'), p);
    const result = await runSltFile(file, { url: server.url, target: name, complete: true });
    if (result.completed !== null) writeFileSync(path, result.completed);
    for (const f of result.failures) console.error(f + '\n');
    failed += result.failures.length;
    console.log(`${p}: completed against ${name} (${result.executed} records, ${result.failures.length} failures)`);
  }
} finally {
  await server.close();
}
process.exit(failed > 0 ? 1 : 0);
