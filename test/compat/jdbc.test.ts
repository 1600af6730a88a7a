/**
 * pgJDBC: compiles jdbc/JdbcCompat.java at test time with javac against Debian's
 * /usr/share/java/postgresql.jar (libpostgresql-jdbc-java) and runs it. See JdbcCompat.java for the checks.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandExists, PG_JDBC_JAR, prepareCompat, runClient, skipReason, type CompatEnv } from './compat-target.ts';

const missing = !commandExists('javac') || !commandExists('java') ? 'javac/java (a JDK)' : !existsSync(PG_JDBC_JAR) ? `${PG_JDBC_JAR} (libpostgresql-jdbc-java)` : null;
const skip = skipReason('jdbc', missing);
const source = fileURLToPath(new URL('./jdbc/JdbcCompat.java', import.meta.url));

describe.skipIf(skip !== null)(`pgJDBC${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let ctx: CompatEnv;
  let classes: string;
  beforeAll(async () => {
    classes = mkdtempSync(join(tmpdir(), 'lg-jdbc-'));
    await runClient('javac', ['-d', classes, '-cp', PG_JDBC_JAR, source], process.env, 120_000);
    ctx = await prepareCompat('jdbc');
  });
  afterAll(async () => {
    await ctx?.close();
    if (classes) rmSync(classes, { recursive: true, force: true });
  });
  it('JdbcCompat', async () => {
    const out = await runClient('java', ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-cp', `${classes}:${PG_JDBC_JAR}`, 'JdbcCompat'], ctx.env, 120_000);
    expect(out).toContain('DONE');
  });
});

if (skip !== null) it.skip(`pgJDBC: ${skip}`, () => {});
