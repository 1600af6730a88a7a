/**
 * The dependency direction of src/ modules (see src/README.md and ../shared/ARCHITECTURE.md): each module
 * imports only the modules on its line, so there are no cycles between modules and the wire never learns
 * about the engine. Checked on every run, from the import statements themselves.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  server: ['engine', 'wire', 'sample', 'storage', 'catalog', 'iceberg', 'common'],
  engine: ['wire', 'exec', 'sql', 'functions', 'pgcatalog', 'catalog', 'iceberg', 'storage', 'common'],
  wire: ['common'],
  exec: ['sql', 'functions', 'catalog', 'iceberg', 'storage', 'common'],
  pgcatalog: ['sql', 'functions', 'catalog', 'common'],
  sql: ['functions', 'catalog', 'common'],
  functions: ['catalog', 'common'],
  iceberg: ['catalog', 'storage', 'common'],
  catalog: ['common'],
  storage: ['common'],
  sample: ['catalog', 'iceberg', 'common'],
  common: [],
};

function* sourceFiles(dir: string): Iterable<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !path.includes('/testing/')) yield path;
  }
}

describe('module dependency direction', () => {
  it('every import across modules is allowed', () => {
    const violations: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const from = relative(SRC, file).split('/')[0]!;
      for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
        const target = relative(SRC, normalize(join(dirname(file), m[1]!)));
        const to = target.split('/')[0]!;
        if (target.startsWith('..') || to === from || to.endsWith('.ts')) continue;
        const allowed = ALLOWED[from];
        if (allowed === undefined) violations.push(`${relative(SRC, file)}: module "${from}" is not in the allow-list`);
        else if (!allowed.includes(to)) violations.push(`${relative(SRC, file)} imports ${to}/ (${from} may import: ${allowed.join(', ') || 'nothing'})`);
      }
    }
    expect(violations).toEqual([]);
  });
});
