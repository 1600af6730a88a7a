/**
 * SpillDirectory: a private temp directory for one operator's spill files (under LAKEGATE_SPILL_DIR or
 * os.tmpdir()). The operator removes it in a `finally` (end of query, error, cancel, early stop); directories
 * still there when the process exits are removed by an exit hook.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const LIVE = new Set<string>();
let hooked = false;

function removeLiveSync(): void {
  for (const dir of LIVE) {
    try { rmSync(dir, { recursive: true, force: true }); } catch { /* best effort at exit */ }
  }
  LIVE.clear();
}

export class SpillDirectory {
  #next = 0;
  #removed = false;
  private constructor(readonly path: string) {}

  static async create(): Promise<SpillDirectory> {
    const base = process.env['LAKEGATE_SPILL_DIR'] || tmpdir();
    const path = await mkdtemp(join(base, `lakegate-spill-${process.pid}-`));
    LIVE.add(path);
    if (!hooked) { hooked = true; process.once('exit', removeLiveSync); }
    return new SpillDirectory(path);
  }

  /** a fresh file name inside the directory */
  newFile(prefix: string): string {
    return join(this.path, `${prefix}-${this.#next++}`);
  }

  async remove(): Promise<void> {
    if (this.#removed) return;
    this.#removed = true;
    LIVE.delete(this.path);
    await rm(this.path, { recursive: true, force: true });
  }
}

/** spill directories not yet removed (tests check that none is left behind) */
export function liveSpillDirectories(): readonly string[] {
  return [...LIVE];
}
