/**
 * Reads V8 `.cpuprofile` files (node --cpu-prof, one per thread) and counts their samples per time window (one
 * window per measured query run) and per category of bench/profile-categories.ts. Sample times are V8's TimeTicks
 * in µs, the same CLOCK_MONOTONIC as process.hrtime in another process on this machine, so the driver's query
 * start/end times pick the samples of that query, on the main thread and on the scan workers alike.
 * @see https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyFrame, PROFILE_CATEGORIES, type ProfileCategory } from './profile-categories.ts';

export interface CpuProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber?: number };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly CpuProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** a measured interval, µs of the monotonic clock */
export interface TimeWindow {
  readonly key: string;
  readonly startUs: number;
  readonly endUs: number;
}

export type CategoryCounts = Record<ProfileCategory, number>;

export function emptyCounts(): CategoryCounts {
  return Object.fromEntries(PROFILE_CATEGORIES.map((c) => [c, 0])) as CategoryCounts;
}

/** samples of one thread in one window */
export interface WindowSamples {
  /** busy samples per category (idle excluded) */
  readonly categories: CategoryCounts;
  idle: number;
  /** busy samples per self frame (`path:function`), for the top-frames list */
  readonly frames: Map<string, number>;
}

interface NodeInfo {
  readonly category: ProfileCategory | 'idle';
  /** the self frame's name for the top-frames list */
  readonly frame: string;
  /** the name of the classified frame this node's category came from */
  readonly anchor: string;
}

/**
 * Each node's category: its own frame's, or for 'inherit' frames its nearest classified caller's (else 'other').
 * A builtin or WebAssembly frame is listed with that caller (`push ← src/exec/join-gather.ts:gather`).
 */
function nodeInfos(profile: CpuProfile): Map<number, NodeInfo> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<number, NodeInfo>();
  for (const start of profile.nodes) {
    if (out.has(start.id)) continue;
    // walk up iteratively: stacks can be thousands of frames deep (recursive plans)
    const chain: number[] = [];
    let category: ProfileCategory | 'idle' = 'other';
    let anchor = '';
    let cur: number | undefined = start.id;
    while (cur !== undefined) {
      const known = out.get(cur);
      if (known !== undefined) { category = known.category; anchor = known.anchor; break; }
      const cf = byId.get(cur)!.callFrame;
      const cls = classifyFrame(cf.functionName, cf.url);
      chain.push(cur);
      if (cls !== 'inherit') { category = cls; anchor = frameName(cf.functionName, cf.url); break; }
      cur = parent.get(cur);
    }
    for (const id of chain) {
      const cf = byId.get(id)!.callFrame;
      const placeless = cf.url === '' || cf.url.startsWith('wasm:');
      const own = frameName(cf.functionName, placeless ? '' : cf.url);
      out.set(id, { category, anchor, frame: placeless && anchor !== '' && anchor !== own ? `${own} ← ${anchor}` : own });
    }
  }
  return out;
}

function frameName(functionName: string, url: string): string {
  const file = url === '' ? '' : url.replace(/^.*\/(node_modules\/|src\/)/, '$1').replace(/^file:\/\//, '');
  const fn = functionName === '' ? '(anonymous)' : functionName;
  return file === '' ? fn : `${file}:${fn}`;
}

/**
 * Counts the samples of `profile` inside each window (windows may not overlap; samples outside every window are
 * dropped: server start, warm-up runs, the gaps between queries).
 */
export function samplesByWindow(profile: CpuProfile, windows: readonly TimeWindow[]): Map<string, WindowSamples> {
  const infos = nodeInfos(profile);
  const sorted = [...windows].sort((a, b) => a.startUs - b.startUs);
  const out = new Map<string, WindowSamples>();
  let w = 0;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    while (w < sorted.length && sorted[w]!.endUs < t) w++;
    const win = sorted[w];
    if (win === undefined) break;
    if (t < win.startUs) continue;
    const info = infos.get(profile.samples[i]!);
    if (info === undefined) continue;
    let acc = out.get(win.key);
    if (acc === undefined) {
      acc = { categories: emptyCounts(), idle: 0, frames: new Map() };
      out.set(win.key, acc);
    }
    if (info.category === 'idle') {
      acc.idle++;
    } else {
      acc.categories[info.category]++;
      acc.frames.set(info.frame, (acc.frames.get(info.frame) ?? 0) + 1);
    }
  }
  return out;
}

/** true when the profile is a piscina scan worker's (its frames reach the worker entry), not a loader thread's */
export function isScanWorkerProfile(profile: CpuProfile): boolean {
  return profile.nodes.some((n) => /piscina\/dist\/worker|src\/iceberg\/parallel\/scan-worker/.test(n.callFrame.url));
}

/** mean µs between samples: the sampling interval as it was (≥ --cpu-prof-interval) */
export function meanSampleIntervalUs(profile: CpuProfile): number {
  return profile.samples.length === 0 ? 0 : (profile.endTime - profile.startTime) / profile.samples.length;
}

export interface ThreadProfile {
  /** worker_threads.threadId (0: the main thread) */
  readonly threadId: number;
  readonly kind: 'main' | 'workers' | 'other';
  readonly profile: CpuProfile;
}

/** The profiles `node --cpu-prof-dir` wrote for process `pid`: CPU.<date>.<time>.<pid>.<threadId>.<seq>.cpuprofile */
export function readThreadProfiles(dir: string, pid: number): ThreadProfile[] {
  const out: ThreadProfile[] = [];
  for (const f of readdirSync(dir)) {
    const m = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/.exec(f);
    if (m === null || Number(m[1]) !== pid) continue;
    const profile = JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile;
    const threadId = Number(m[2]);
    out.push({ threadId, kind: threadId === 0 ? 'main' : isScanWorkerProfile(profile) ? 'workers' : 'other', profile });
  }
  return out.sort((a, b) => a.threadId - b.threadId);
}
