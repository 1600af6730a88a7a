// Fills "?" expectations in a test file from a real PostgreSQL 15:  node fill-expected.mjs FILE PORT
// Lines look like:  c("SQL", "?", ...  [, 'Zone/Name')]   → the "?" becomes psql's answer.
import { readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
const [file, port] = process.argv.slice(2);
const src = readFileSync(file, 'utf8').split('\n');
const out = src.map((line) => {
  const m = /^(\s*c\()("(?:[^"\\]|\\.)*"), "\?"(.*)$/.exec(line);
  if (!m) return line;
  const sql = JSON.parse(m[2]);
  const zm = /'([A-Za-z_\/+\-0-9]+)'\);?\s*$/.exec(m[3]);
  const zone = zm ? zm[1] : 'UTC';
  let res;
  try {
    res = execFileSync('psql', ['-h', '/tmp', '-p', port, '-U', 'postgres', '-At', '-v', 'VERBOSITY=verbose', '-c', `set timezone='${zone}'`, '-c', `set extra_float_digits=1`, '-c', sql], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    res = res.split('\n').filter((l) => l !== 'SET').join('\n').replace(/\n$/, '');
  } catch (e) {
    const msg = String(e.stderr).split('\n')[0];
    const em = /ERROR:\s+([0-9A-Z]{5}): (.*)$/.exec(msg);
    res = em ? `ERROR ${em[1]}: ${em[2]}` : `PSQL FAILED ${msg}`;
  }
  return `${m[1]}${m[2]}, ${JSON.stringify(res)}${m[3]}`;
});
writeFileSync(file, out.join('\n'));
