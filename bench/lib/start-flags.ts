/**
 * The node flags of package.json's `start` script (`node <flags> bin/lakegate.mjs serve`), so that every
 * benchmark runs lakegate as `npm start` does (a plain `node bin/lakegate.mjs` ignores the shebang's flags).
 */
import { readFileSync } from 'node:fs';

export function startScriptFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts?: Record<string, string> };
  const m = /^node((?:\s+--\S+)*)\s+bin\/lakegate\.mjs\b/.exec(pkg.scripts?.start ?? '');
  return m === null ? [] : m[1]!.split(/\s+/).filter(Boolean);
}
