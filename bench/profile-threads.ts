/**
 * Per-thread CPU of the profiled server for bench/profile-tpch.ts. The V8 profiler samples by wall clock: on a
 * loaded machine a runnable thread that waits for a core still collects samples, so sample counts give each
 * category's share, and the kernel's per-thread CPU time (/proc/<pid>/task/<tid>/schedstat, ns on the CPU) gives
 * the milliseconds the shares are taken of.
 *
 * Which OS thread is which JS thread: a preload (`node --require`, run by every worker thread too) appends the
 * thread's `worker_threads.threadId` (the number in its .cpuprofile's file name) and its OS thread id (from the
 * /proc/thread-self link) to a tags file.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** the environment variable naming the tags file the preload appends to */
export const TAGS_ENV = 'LAKEGATE_PROFILE_THREAD_TAGS';

const PRELOAD_SOURCE = `// written by bench/profile-threads.ts: tags this thread's profile with its OS thread id
'use strict';
const fs = require('node:fs');
const { threadId } = require('node:worker_threads');
const file = process.env.${TAGS_ENV};
if (file) {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    fs.appendFileSync(file, JSON.stringify({ threadId, tid }) + '\\n');
  } catch {}
}
`;

/** Writes the preload into `dir`; returns its path (for `--require`). */
export function writeThreadTagPreload(dir: string): string {
  const path = join(dir, 'thread-tag-preload.cjs');
  writeFileSync(path, PRELOAD_SOURCE);
  return path;
}

/** worker_threads.threadId → OS thread id, from the tags file (later lines win: ids are not reused) */
export function readThreadTags(tagsFile: string): Map<number, number> {
  const out = new Map<number, number>();
  let text = '';
  try {
    text = readFileSync(tagsFile, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const t = JSON.parse(line) as { threadId: number; tid: number };
    out.set(t.threadId, t.tid);
  }
  return out;
}

export interface ThreadCpu {
  readonly name: string;
  /** ns on the CPU since the thread started */
  readonly ns: number;
}

/** every thread of `pid`: OS thread id → name and CPU ns (threads that end meanwhile are skipped) */
export function threadCpu(pid: number): Map<number, ThreadCpu> {
  const out = new Map<number, ThreadCpu>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      out.set(Number(tid), { name, ns });
    } catch {
      // the thread ended between readdir and read
    }
  }
  return out;
}

/** CPU ms per OS thread between two readings (a thread new since `before` counts from 0) */
export function threadCpuDelta(before: Map<number, ThreadCpu>, after: Map<number, ThreadCpu>): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  for (const [tid, a] of after) out.set(tid, { name: a.name, ms: (a.ns - (before.get(tid)?.ns ?? 0)) / 1e6 });
  return out;
}

export type ThreadKind = 'main' | 'workers' | 'profiler' | 'helpers';

/**
 * The kind of an OS thread: the main thread, a scan worker (a JS thread whose profile reaches the worker entry),
 * V8's profiler event threads (`v8:ProfEvntProc`: the profiling's own cost), and helpers (V8's GC and compiler
 * threads, libuv's pool, tsx's loader threads).
 */
export function threadKind(tid: number, name: string, pid: number, scanWorkerTids: ReadonlySet<number>): ThreadKind {
  if (tid === pid) return 'main';
  if (scanWorkerTids.has(tid)) return 'workers';
  if (name.startsWith('v8:ProfEvnt')) return 'profiler';
  return 'helpers';
}
