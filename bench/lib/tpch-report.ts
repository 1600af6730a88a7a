/**
 * The query bench's results: per query and engine a status and timings, and the markdown table (medians,
 * ratios, scan counters, peak RSS, geomeans over the TPC-H queries every engine answered correctly).
 */
import type { EngineName, ScanCounts } from './engine.ts';

export type Status = 'ok' | 'mismatch' | 'timeout' | 'error' | 'unchecked';

export interface EngineOutcome {
  status: Status;
  /** warm runs, ms */
  timesMs: number[];
  medianMs?: number;
  rows?: number;
  /** the answer was PostgreSQL's text exactly (false: equal only within the numeric tolerance / up to row order) */
  exact?: boolean;
  detail?: string;
  scan?: ScanCounts | null;
  peakRssMb?: number | null;
}

export interface QueryReport {
  readonly id: string;
  readonly outcomes: Partial<Record<EngineName, EngineOutcome>>;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function geomean(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  return Math.exp(xs.reduce((a, x) => a + Math.log(Math.max(x, 1e-3)), 0) / xs.length);
}

/** timed successfully: the answer matched PostgreSQL's (or PostgreSQL is the reference / not run) */
const timed = (o: EngineOutcome | undefined): o is EngineOutcome & { medianMs: number } =>
  o !== undefined && (o.status === 'ok' || o.status === 'unchecked') && o.medianMs !== undefined;

export function ratio(q: QueryReport, a: EngineName, b: EngineName): number | null {
  const x = q.outcomes[a];
  const y = q.outcomes[b];
  return timed(x) && timed(y) ? x.medianMs / y.medianMs : null;
}

export interface Summary {
  /** TPC-H queries every engine timed */
  readonly common: string[];
  readonly geomeanMs: Partial<Record<EngineName, number | null>>;
  readonly geomeanRatioPg: number | null;
  readonly geomeanRatioDuckdb: number | null;
  /** ratios over every query the two engines both timed (not only the common set) */
  readonly ratioPgQueries: number;
  readonly ratioDuckdbQueries: number;
}

export function summarize(reports: readonly QueryReport[], engines: readonly EngineName[]): Summary {
  const tpch = reports.filter((r) => /^q\d+$/.test(r.id));
  const common = tpch.filter((r) => engines.every((e) => timed(r.outcomes[e]))).map((r) => r.id);
  const geomeanMs: Partial<Record<EngineName, number | null>> = {};
  for (const e of engines) {
    geomeanMs[e] = geomean(tpch.filter((r) => common.includes(r.id)).map((r) => r.outcomes[e]!.medianMs!));
  }
  const ratios = (b: EngineName): number[] => tpch.map((r) => ratio(r, 'lakegate', b)).filter((x): x is number => x !== null);
  const rp = ratios('pg');
  const rd = ratios('duckdb');
  return { common, geomeanMs, geomeanRatioPg: geomean(rp), geomeanRatioDuckdb: geomean(rd), ratioPgQueries: rp.length, ratioDuckdbQueries: rd.length };
}

/** `≈` only matters for lakegate, which promises PostgreSQL's exact text (DuckDB has no char(n), doubles for avg) */
function cell(o: EngineOutcome | undefined, markInexact = false): string {
  if (o === undefined) return '–';
  if (o.status === 'ok' || o.status === 'unchecked') return o.medianMs === undefined ? '–' : `${fmtMs(o.medianMs)}${markInexact && o.exact === false ? ' ≈' : ''}`;
  return o.status === 'mismatch' ? '**wrong**' : o.status === 'timeout' ? 'timeout' : 'error';
}

function fmtMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

const fmtRatio = (x: number | null): string => (x === null ? '–' : x >= 10 ? x.toFixed(0) : x.toFixed(2));

const fmtCount = (k: number, n: number): string => (Number.isNaN(k) ? '-' : `${k} / ${n}`);

export function markdownTable(reports: readonly QueryReport[], engines: readonly EngineName[], summary: Summary): string {
  const lines = [
    '| query | pg ms | duckdb ms | lakegate ms | lakegate / pg | lakegate / duckdb | files scanned | row groups scanned | lakegate peak RSS |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of reports) {
    const lg = r.outcomes.lakegate;
    const scan = lg?.scan;
    lines.push(`| ${r.id} | ${cell(r.outcomes.pg)} | ${cell(r.outcomes.duckdb)} | ${cell(lg, true)} | ${fmtRatio(ratio(r, 'lakegate', 'pg'))} | `
      + `${fmtRatio(ratio(r, 'lakegate', 'duckdb'))} | ${scan ? fmtCount(scan.filesScanned, scan.filesTotal) : '-'} | `
      + `${scan ? fmtCount(scan.rowGroupsScanned, scan.rowGroupsTotal) : '-'} | ${lg?.peakRssMb ? `${lg.peakRssMb.toFixed(0)} MB` : '-'} |`);
  }
  const g = (e: EngineName): string => (engines.includes(e) && summary.geomeanMs[e] != null ? fmtMs(summary.geomeanMs[e]!) : '–');
  lines.push(`| **geomean** (${summary.common.length} TPC-H queries all engines answered) | ${g('pg')} | ${g('duckdb')} | ${g('lakegate')} | `
    + `${fmtRatio(summary.geomeanRatioPg)} (${summary.ratioPgQueries} q) | ${fmtRatio(summary.geomeanRatioDuckdb)} (${summary.ratioDuckdbQueries} q) | | | |`);
  return lines.join('\n');
}
