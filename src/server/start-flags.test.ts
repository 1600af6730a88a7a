/**
 * The node flags lakegate is started with (bin/lakegate.mjs's shebang and package.json's `start`, which the
 * benchmarks read) are the same, and they keep V8's young generation at 16 MB. Without
 * `--min-semi-space-size=16` it starts at 1 MB and a full collection in a quiet moment shrinks it back there;
 * pgbench's prepared lookup then scavenged 2–4x as often per statement after the earlier cases than when run
 * alone (session 17: the "30 µs alone, 48 µs after the other cases" finding).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

function shebangFlags(): string[] {
  const first = readFileSync(new URL('bin/lakegate.mjs', root), 'utf8').split('\n')[0]!;
  const m = /^#!\/usr\/bin\/env -S node((?:\s+--\S+)*)\s*$/.exec(first);
  if (m === null) throw new Error(`unexpected shebang: ${first}`);
  return m[1]!.split(/\s+/).filter(Boolean);
}

function startScriptFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { scripts: Record<string, string> };
  const m = /^node((?:\s+--\S+)*)\s+bin\/lakegate\.mjs\b/.exec(pkg.scripts['start'] ?? '');
  if (m === null) throw new Error(`unexpected start script: ${pkg.scripts['start']}`);
  return m[1]!.split(/\s+/).filter(Boolean);
}

/** the new space's capacity in MiB of a fresh node process started with `flags` */
function newSpaceMiB(flags: readonly string[]): number {
  const script = "const s = require('v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); process.stdout.write(String(s.space_size / 1048576));";
  const r = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`node ${flags.join(' ')} failed: ${r.stderr}`);
  return Number(r.stdout);
}

describe('lakegate start flags', () => {
  it('are the same in the shebang and in the start script', () => {
    expect(shebangFlags()).toEqual(startScriptFlags());
  });

  it('keep the young generation at 16 MB from the start (it never shrinks below that)', () => {
    // the default starts small (so the flag, not the Node version, is what is tested)
    expect(newSpaceMiB([])).toBeLessThan(16);
    expect(newSpaceMiB(startScriptFlags())).toBeGreaterThanOrEqual(16);
  });
});
