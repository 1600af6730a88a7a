/**
 * bench/pgbench-cpu.ts's /proc readings used by the pgbench harness's context-switch table: a thread that sleeps
 * makes voluntary switches, and a server's child processes are found with their CPU time.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { childProcessCpuSeconds, switchesBetween, treeCpuSeconds, treeSwitches, treeSystemCpuSeconds } from '../../bench/pgbench-cpu.ts';

const linux = existsSync('/proc/self/task');

describe.skipIf(!linux)('pgbench-cpu', () => {
  it('counts this process’s voluntary context switches across a sleep', async () => {
    const before = treeSwitches(process.pid);
    expect(before?.get(`${process.pid}/${process.pid}`)).toBeDefined();
    // the event loop blocks in epoll with nothing to do: each wait is a voluntary switch of the main thread
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 5));
    const after = treeSwitches(process.pid)!;
    const d = switchesBetween(before!, after);
    expect(d.voluntary).toBeGreaterThanOrEqual(5);
    expect(d.involuntary).toBeGreaterThanOrEqual(0);
  });

  it('ignores threads that were not alive at both readings', () => {
    const d = switchesBetween(new Map([['1/1', { voluntary: 10, involuntary: 3 }]]), new Map([['1/1', { voluntary: 14, involuntary: 4 }], ['1/2', { voluntary: 99, involuntary: 99 }]]));
    expect(d).toEqual({ voluntary: 4, involuntary: 1 });
  });

  it('tells the kernel’s part of a process’s CPU time from the whole', () => {
    const sys0 = treeSystemCpuSeconds(process.pid)!, all0 = treeCpuSeconds(process.pid)!;
    // one-byte writes to /dev/null: little work in JS, a system call each (≈ 1 µs of system time)
    const fd = openSync('/dev/null', 'w');
    const one = Buffer.from('x');
    try {
      const until = Date.now() + 300;
      while (Date.now() < until) for (let i = 0; i < 1000; i++) writeSync(fd, one);
    } finally {
      closeSync(fd);
    }
    const sys1 = treeSystemCpuSeconds(process.pid)!, all1 = treeCpuSeconds(process.pid)!;
    expect(sys1 - sys0).toBeGreaterThan(0.02);
    expect(sys1).toBeLessThanOrEqual(all1);
    expect(sys1 - sys0).toBeLessThanOrEqual(all1 - all0);
  });

  it('finds the child processes of a pid with their CPU time', async () => {
    const child = spawn('sleep', ['5'], { stdio: 'ignore' });
    try {
      await new Promise((r) => child.once('spawn', r));
      const found = childProcessCpuSeconds(process.pid);
      expect(found.has(child.pid!)).toBe(true);
      expect(found.get(child.pid!)).toBeGreaterThanOrEqual(0);
    } finally {
      child.kill();
    }
  });
});
