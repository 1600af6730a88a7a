import { execFileSync } from 'node:child_process';

/** whether the `openssl` command is on PATH (TLS tests make their certificates with it and skip without it) */
export const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
