/**
 * bench/profile-tpch.ts's numbers: per query and in total, CPU ms per thread kind (main thread, scan workers) and
 * its split by category, plus the markdown tables. A category's ms are its share of the thread kind's busy samples
 * times the kind's CPU ms from the kernel (median per run), so the numbers hold on a loaded machine where sample
 * counts (wall clock) would not.
 */
import { CATEGORY_SHORT, PROFILE_CATEGORIES, type ProfileCategory } from './profile-categories.ts';
import { emptyCounts, type CategoryCounts, type WindowSamples } from './profile-cpuprofile.ts';
import type { ThreadKind } from './profile-threads.ts';

/** one measured run of one query */
export interface RunRecord {
  readonly query: string;
  readonly run: number;
  readonly startUs: number;
  readonly endUs: number;
  readonly wallMs: number;
  /** CPU ms of the run per thread kind (kernel schedstat) */
  readonly cpuMs: Readonly<Record<ThreadKind, number>>;
}

/** what one query's runs spent on one kind of thread, per run */
export interface KindProfile {
  /** median CPU ms per run (kernel) */
  readonly cpuMs: number;
  /** busy sample ms per run (wall-clock samples: inflated by a loaded machine) */
  readonly sampledMs: number;
  readonly idleSampledMs: number;
  readonly categoriesMs: CategoryCounts;
  readonly topFrames: readonly { readonly frame: string; readonly ms: number }[];
}

export interface Split {
  readonly cpuMs: number;
  readonly categoriesMs: CategoryCounts;
  /** fraction of cpuMs per category */
  readonly shares: CategoryCounts;
}

export interface QueryProfile {
  readonly id: string;
  readonly runs: number;
  readonly wallMs: number;
  readonly wallMsRuns: readonly number[];
  readonly main: KindProfile;
  readonly workers: KindProfile;
  /** V8 GC / compiler threads, libuv pool, loader threads: median CPU ms per run (not split) */
  readonly helpersCpuMs: number;
  /** the V8 profiler's event threads: the profiling's own cost */
  readonly profilerCpuMs: number;
  readonly combined: Split;
  readonly top3: readonly ProfileCategory[];
}

export interface ProfileTotals {
  readonly main: Split;
  readonly workers: Split;
  readonly combined: Split;
  /** the mean over queries of each query's shares: every query weighs the same, as in a geomean */
  readonly meanQueryShares: CategoryCounts;
  readonly helpersCpuMs: number;
  readonly profilerCpuMs: number;
}

const TOP_FRAMES = 10;

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** sums the window samples of one query's runs on one kind of thread */
export function mergeSamples(parts: readonly WindowSamples[]): WindowSamples {
  const out: WindowSamples = { categories: emptyCounts(), idle: 0, frames: new Map() };
  for (const p of parts) {
    for (const c of PROFILE_CATEGORIES) out.categories[c] += p.categories[c];
    out.idle += p.idle;
    for (const [f, n] of p.frames) out.frames.set(f, (out.frames.get(f) ?? 0) + n);
  }
  return out;
}

/**
 * Splits `cpuMs` (per run) by the categories' sample counts over all runs. CPU with no busy sample to split it
 * (a worker that only woke for the profiler's signals) is 'other'.
 */
export function kindProfile(samples: WindowSamples, cpuMs: number, runs: number, intervalUs: number): KindProfile {
  let busy = 0;
  for (const c of PROFILE_CATEGORIES) busy += samples.categories[c];
  const categoriesMs = emptyCounts();
  const msPerSample = busy === 0 ? 0 : cpuMs / busy;
  if (busy === 0) categoriesMs.other = cpuMs;
  else for (const c of PROFILE_CATEGORIES) categoriesMs[c] = samples.categories[c] * msPerSample;
  const topFrames = [...samples.frames].sort((a, b) => b[1] - a[1]).slice(0, TOP_FRAMES).map(([frame, n]) => ({ frame, ms: round1(n * msPerSample) }));
  return {
    cpuMs, categoriesMs, topFrames,
    sampledMs: (busy * intervalUs) / 1000 / Math.max(1, runs),
    idleSampledMs: (samples.idle * intervalUs) / 1000 / Math.max(1, runs),
  };
}

export function split(parts: readonly CategoryCounts[]): Split {
  const categoriesMs = emptyCounts();
  for (const p of parts) for (const c of PROFILE_CATEGORIES) categoriesMs[c] += p[c];
  let cpuMs = 0;
  for (const c of PROFILE_CATEGORIES) cpuMs += categoriesMs[c];
  const shares = emptyCounts();
  if (cpuMs > 0) for (const c of PROFILE_CATEGORIES) shares[c] = categoriesMs[c] / cpuMs;
  return { cpuMs, categoriesMs, shares };
}

export function topCategories(shares: CategoryCounts, n: number): ProfileCategory[] {
  return [...PROFILE_CATEGORIES].sort((a, b) => shares[b] - shares[a]).slice(0, n);
}

export function queryProfile(id: string, runs: readonly RunRecord[], main: WindowSamples, workers: WindowSamples, intervalUs: number): QueryProfile {
  const med = (k: ThreadKind): number => median(runs.map((r) => r.cpuMs[k]));
  const m = kindProfile(main, med('main'), runs.length, intervalUs);
  const w = kindProfile(workers, med('workers'), runs.length, intervalUs);
  const combined = split([m.categoriesMs, w.categoriesMs]);
  return {
    id, runs: runs.length, wallMs: median(runs.map((r) => r.wallMs)), wallMsRuns: runs.map((r) => round1(r.wallMs)),
    main: m, workers: w, helpersCpuMs: med('helpers'), profilerCpuMs: med('profiler'), combined,
    top3: topCategories(combined.shares, 3),
  };
}

export function totals(queries: readonly QueryProfile[]): ProfileTotals {
  const meanQueryShares = emptyCounts();
  for (const q of queries) for (const c of PROFILE_CATEGORIES) meanQueryShares[c] += q.combined.shares[c] / queries.length;
  return {
    main: split(queries.map((q) => q.main.categoriesMs)),
    workers: split(queries.map((q) => q.workers.categoriesMs)),
    combined: split(queries.map((q) => q.combined.categoriesMs)),
    meanQueryShares,
    helpersCpuMs: queries.reduce((s, q) => s + q.helpersCpuMs, 0),
    profilerCpuMs: queries.reduce((s, q) => s + q.profilerCpuMs, 0),
  };
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

const pct = (x: number): string => (x * 100).toFixed(0);

/**
 * The per-query table (shares of main + workers CPU, %; the V8 helper threads' CPU — concurrent GC and compilation,
 * libuv's pool — beside it, not split: the profiler does not sample them) and the per-thread-kind totals.
 */
export function renderMarkdown(queries: readonly QueryProfile[], total: ProfileTotals): string {
  const cats = PROFILE_CATEGORIES;
  const lines: string[] = [];
  lines.push(`| query | wall ms | main CPU ms | workers CPU ms | V8 helpers CPU ms | ${cats.map((c) => CATEGORY_SHORT[c]).join(' | ')} | top 3 |`);
  lines.push(`|---|---:|---:|---:|---:|${cats.map(() => '---:').join('|')}|---|`);
  for (const q of queries) {
    const top = q.top3.map((c) => `${CATEGORY_SHORT[c]} ${pct(q.combined.shares[c])}`).join(', ');
    lines.push(`| ${q.id} | ${q.wallMs.toFixed(0)} | ${q.main.cpuMs.toFixed(0)} | ${q.workers.cpuMs.toFixed(0)} | ${q.helpersCpuMs.toFixed(0)} | ${cats.map((c) => pct(q.combined.shares[c])).join(' | ')} | ${top} |`);
  }
  const sumWall = queries.reduce((s, q) => s + q.wallMs, 0);
  lines.push(`| **all, CPU-weighted** | ${sumWall.toFixed(0)} | ${total.main.cpuMs.toFixed(0)} | ${total.workers.cpuMs.toFixed(0)} | ${total.helpersCpuMs.toFixed(0)} | ${cats.map((c) => `**${pct(total.combined.shares[c])}**`).join(' | ')} | ${topCategories(total.combined.shares, 3).map((c) => CATEGORY_SHORT[c]).join(', ')} |`);
  lines.push(`| **mean of queries** | | | | | ${cats.map((c) => pct(total.meanQueryShares[c])).join(' | ')} | ${topCategories(total.meanQueryShares, 3).map((c) => CATEGORY_SHORT[c]).join(', ')} |`);
  lines.push('');
  lines.push('| category | main ms | main % | workers ms | workers % | all ms | all % |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const c of cats) {
    lines.push(`| ${CATEGORY_SHORT[c]} | ${total.main.categoriesMs[c].toFixed(0)} | ${pct(total.main.shares[c])} | ${total.workers.categoriesMs[c].toFixed(0)} | ${pct(total.workers.shares[c])} | ${total.combined.categoriesMs[c].toFixed(0)} | ${pct(total.combined.shares[c])} |`);
  }
  lines.push(`| **CPU ms** | ${total.main.cpuMs.toFixed(0)} | | ${total.workers.cpuMs.toFixed(0)} | | ${total.combined.cpuMs.toFixed(0)} | |`);
  return lines.join('\n');
}
