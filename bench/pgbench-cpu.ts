/**
 * CPU accounting for bench/pgbench.ts (Linux /proc; elsewhere every reading is null): the server's CPU time
 * (the process listening on the port and its descendants — PostgreSQL's exited backends included, through the
 * postmaster's reaped-children times), pgbench's (this process's reaped children) and the machine's idle share.
 * On 2 cores TPS alone cannot tell a slow server from a saturated machine: pgbench takes most of a core at
 * 40,000+ TPS, so one server thread plus pgbench can leave nothing idle, and then a second server process has
 * no CPU to add (session 16: why p2 stopped beating p1 once p1 got fast enough).
 * @see https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html (fields 14–17: utime, stime, cutime, cstime)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** clock ticks per second of /proc's times (USER_HZ: 100 on every Linux this runs on) */
const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of a pid in ticks; null when unreadable */
function pidTimes(pid: number): [number, number, number, number] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces: count fields after its closing parenthesis
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // f[0] is field 3 (state): field n is f[n - 3]
    return [Number(f[11]), Number(f[12]), Number(f[13]), Number(f[14])];
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text !== '') for (const c of text.split(' ')) out.push(Number(c));
    }
  } catch {
    // gone meanwhile
  }
  return out;
}

/**
 * CPU seconds of `pid` and every descendant, live or exited and reaped; null when /proc is unreadable. This
 * process (lakegate in-process) counts alone: its children are the pgbench runs.
 */
export function treeCpuSeconds(pid: number): number | null {
  const own = pidTimes(pid);
  if (own === null) return null;
  if (pid === process.pid) return (own[0] + own[1]) / TICKS_PER_SECOND;
  let ticks = own[0] + own[1] + own[2] + own[3];
  const stack = childrenOf(pid);
  while (stack.length > 0) {
    const c = stack.pop()!;
    const t = pidTimes(c);
    if (t !== null) ticks += t[0] + t[1] + t[2] + t[3];
    stack.push(...childrenOf(c));
  }
  return ticks / TICKS_PER_SECOND;
}

/** CPU seconds of this process's exited and reaped children (pgbench runs, once each has exited) */
export function reapedChildrenCpuSeconds(): number | null {
  const t = pidTimes(process.pid);
  return t === null ? null : (t[2] + t[3]) / TICKS_PER_SECOND;
}

/** idle and total ticks of all CPUs so far; null when /proc/stat is unreadable */
export function machineTicks(): { idle: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: idle + iowait count as idle
    return { idle: v[3]! + v[4]!, total: v.slice(0, 8).reduce((a, b) => a + b, 0) };
  } catch {
    return null;
  }
}

/** the pid listening on TCP `port` (from `ss`), or null */
export function listeningPid(port: number): number | null {
  try {
    const out = execFileSync('ss', ['-Hltnp', `sport = :${port}`], { encoding: 'utf8' });
    const m = /pid=(\d+)/.exec(out);
    return m === null ? null : Number(m[1]);
  } catch {
    return null;
  }
}
