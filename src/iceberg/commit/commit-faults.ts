/**
 * TEST-ONLY fault injection for crash tests (test/iceberg/robust-crash.test.ts). With the environment
 * variable `LAKEGATE_FAULT` set to `exit-before-catalog-commit` or `exit-after-catalog-commit`, the process
 * kills itself with SIGKILL — no cleanup, no finally blocks, like a power cut — at that point of an append
 * commit: after the data files, manifest, manifest list and new metadata file are written but before the
 * catalog compare-and-swap, or right after the swap. Never set it in production; unset, it costs one lookup.
 */
export type CommitFaultPoint = 'before-catalog-commit' | 'after-catalog-commit';

export function commitFault(point: CommitFaultPoint): void {
  if (process.env['LAKEGATE_FAULT'] !== `exit-${point}`) return;
  process.stderr.write(`lakegate: LAKEGATE_FAULT=exit-${point}: killing the process (test-only fault injection)\n`);
  process.kill(process.pid, 'SIGKILL');
}
