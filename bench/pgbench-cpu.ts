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
  return treeSeconds(pid, false);
}

/**
 * The kernel's part of treeCpuSeconds (stime + cstime): system calls and what the kernel does inside them. For
 * a server over loopback TCP that includes delivering each answer into the client's socket and waking it, and
 * the preemption at the write's return (session 27, perf of lakegate-p1 under pgbench -M prepared: 55–70 % of
 * the main thread), so user and system µs per transaction tell JS work from the round trip's fixed kernel cost.
 */
export function treeSystemCpuSeconds(pid: number): number | null {
  return treeSeconds(pid, true);
}

function treeSeconds(pid: number, systemOnly: boolean): number | null {
  const own = pidTimes(pid);
  if (own === null) return null;
  if (pid === process.pid) return ((systemOnly ? 0 : own[0]) + own[1]) / TICKS_PER_SECOND;
  let ticks = ticksOf(own, systemOnly);
  const stack = childrenOf(pid);
  while (stack.length > 0) {
    const c = stack.pop()!;
    const t = pidTimes(c);
    if (t !== null) ticks += ticksOf(t, systemOnly);
    stack.push(...childrenOf(c));
  }
  return ticks / TICKS_PER_SECOND;
}

/** a process's own and reaped children's ticks: all four, or the system ones (stime, cstime) */
function ticksOf(t: readonly [number, number, number, number], systemOnly: boolean): number {
  return systemOnly ? t[1] + t[3] : t[0] + t[1] + t[2] + t[3];
}

/** the pids of `pid`'s tree: itself and every live descendant */
function treePids(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...childrenOf(out[i]!));
  return out;
}

/** context switches of one thread (/proc/<pid>/task/<tid>/status), or null when it is gone */
function threadSwitches(pid: number, tid: string): { voluntary: number; involuntary: number } | null {
  try {
    const text = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
    const v = /^voluntary_ctxt_switches:\s+(\d+)/m.exec(text), n = /^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(text);
    return v === null || n === null ? null : { voluntary: Number(v[1]), involuntary: Number(n[1]) };
  } catch {
    return null;
  }
}

/**
 * Context switches of every live thread of `pid`'s tree, by "pid/tid" (a run's count is the difference over the
 * threads alive at both readings: switchesBetween). Involuntary switches per transaction tell a server that was
 * preempted — its CPU time per transaction then includes refilling caches after the other tasks ran (2 server
 * processes + pgbench's 2 threads on 2 cores) — from one that waited for work (voluntary: the event loop slept).
 * Only for servers whose processes outlive the run (lakegate): PostgreSQL's backends exit with the connections.
 */
export function treeSwitches(pid: number): Map<string, { voluntary: number; involuntary: number }> | null {
  const out = new Map<string, { voluntary: number; involuntary: number }>();
  for (const p of treePids(pid)) {
    let tids: string[];
    try {
      tids = readdirSync(`/proc/${p}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const s = threadSwitches(p, tid);
      if (s !== null) out.set(`${p}/${tid}`, s);
    }
  }
  return out.size === 0 ? null : out;
}

/** voluntary and involuntary switches between two treeSwitches readings, over the threads in both */
export function switchesBetween(before: ReadonlyMap<string, { voluntary: number; involuntary: number }>, after: ReadonlyMap<string, { voluntary: number; involuntary: number }>): { voluntary: number; involuntary: number } {
  let voluntary = 0, involuntary = 0;
  for (const [key, a] of after) {
    const b = before.get(key);
    if (b === undefined) continue;
    voluntary += a.voluntary - b.voluntary;
    involuntary += a.involuntary - b.involuntary;
  }
  return { voluntary, involuntary };
}

/**
 * CPU seconds of each process of `pid`'s tree that has a parent in the tree (lakegate's server processes under
 * `--processes N`; none for one process), by pid: how evenly the connections' work split between them.
 */
export function childProcessCpuSeconds(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const c of childrenOf(pid)) {
    const t = pidTimes(c);
    if (t !== null) out.set(c, (t[0] + t[1]) / TICKS_PER_SECOND);
  }
  return out;
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
