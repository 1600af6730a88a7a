/**
 * Child process for wal-write-watch.test.ts: a foreign writer on the SQLite file at argv[2] (plain better-sqlite3,
 * as PyIceberg's or Spark's SQL catalog would be). For each line on stdin it commits one INSERT into t and then
 * answers on stdout: `c` at once for a line `now`, after a few milliseconds for a line `later` (the answer then
 * comes in a later epoll batch than the commit's -wal write); it exits at `end`.
 */
import Database from 'better-sqlite3';

const db = new Database(process.argv[2] ?? '', { timeout: 5000 });
db.pragma('journal_mode = WAL');
const insert = db.prepare('INSERT INTO t VALUES (?)');
let n = 0;
let pending = '';
process.stdin.setEncoding('utf8').on('data', (chunk: string) => {
  pending += chunk;
  let nl: number;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (line === 'end') {
      db.close();
      process.exit(0);
    }
    insert.run(n++);
    if (line === 'later') setTimeout(() => process.stdout.write('c\n'), 3);
    else process.stdout.write('c\n');
  }
});
process.stdout.write('ready\n');
