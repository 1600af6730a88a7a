/**
 * Runs every test/sql/**\/*.slt file as one test against the live lakegate server, or with PG_COMPAT=1
 * against the throwaway PostgreSQL. Files headed `# lakegate: pending <reason>` run only under PG_COMPAT
 * and are reported as skipped otherwise (SLT_INCLUDE_PENDING=1 runs them against lakegate anyway, to see
 * which ones pass). SLT_FILTER=<substring> narrows the file list.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, targetName, type TestTarget } from '../helpers/test-target.ts';
import { listSltFiles, repoRoot } from './slt-files.ts';
import { parseSlt } from './slt-parser.ts';
import { runSltFile } from './slt-runner.ts';

const target = targetName();
const files = listSltFiles().map((path) => parseSlt(readFileSync(path, 'utf8'), relative(repoRoot, path)));
const includePending = target === 'pg' || process.env.SLT_INCLUDE_PENDING === '1';
const runnable = files.filter((f) => includePending || f.pending === null);

describe(`slt against ${target}`, () => {
  let server: TestTarget | null = null;
  beforeAll(async () => {
    if (runnable.length > 0) server = await startTarget(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  for (const file of files) {
    const title = file.path;
    if (!includePending && file.pending !== null) {
      it.skip(`${title} (lakegate: pending ${file.pending})`, () => {});
      continue;
    }
    it(title, async () => {
      if (!server) throw new Error('no server');
      const result = await runSltFile(file, { url: server.url, target });
      if (result.failures.length > 0) {
        throw new Error(`${result.failures.length} failure(s)\n\n${result.failures.join('\n\n')}`);
      }
      expect(result.executed).toBeGreaterThan(0);
    });
  }
  if (files.length === 0) it('has .slt files', () => expect(files.length).toBeGreaterThan(0));
});
