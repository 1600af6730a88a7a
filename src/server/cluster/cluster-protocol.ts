/**
 * Messages between the primary and the server processes of `processes: N` (node:cluster IPC with the
 * 'advanced' serialization, so bigint timestamps of session summaries travel as they are).
 *
 * Each server process i (1…N) hands out backend pids from its own range, so a pid names its process: a
 * CancelRequest, pg_cancel_backend or pg_terminate_backend that reaches another process is routed by pid.
 */
import type { SessionSummary } from '../../catalog/session-view.ts';

/** pids of process i are [i · PID_RANGE_SIZE, (i + 1) · PID_RANGE_SIZE); i ≤ 200 keeps them below 2^31 */
export const PID_RANGE_SIZE = 10_000_000;
export const MAX_PROCESSES = 200;

export function pidRangeOf(index: number): { first: number; size: number } {
  return { first: index * PID_RANGE_SIZE, size: PID_RANGE_SIZE };
}

export function processIndexOfPid(pid: number): number {
  return Math.floor(pid / PID_RANGE_SIZE);
}

/**
 * txid_current() must never repeat across the processes (nor across a crashed process and its replacement):
 * the primary numbers every process it forks (restarts included) and fork k hands out transaction ids from
 * [k · 2³², (k + 1) · 2³²) — as PostgreSQL's epoch-extended ids look after k wraparounds.
 */
export const XID_BLOCK_ENV = 'LAKEGATE_XID_BLOCK';
export const XID_BLOCK_SIZE = 2n ** 32n;

export function firstXidOfBlock(block: number): bigint {
  return BigInt(block) * XID_BLOCK_SIZE + 1000n;
}

/** the environment variable the primary sets on each server process: its index (1…N) */
export const PROCESS_INDEX_ENV = 'LAKEGATE_PROCESS_INDEX';

export type ToPrimary =
  | { readonly t: 'listening'; readonly host: string; readonly port: number; readonly restPort?: number }
  /** a CancelRequest this process received for another process's pid */
  | { readonly t: 'cancel-request'; readonly pid: number; readonly key: number }
  /** pg_cancel_backend / pg_terminate_backend of another process's pid */
  | { readonly t: 'signal-backend'; readonly op: 'cancel' | 'terminate'; readonly pid: number }
  /** pg_stat_activity: the other processes' sessions, please */
  | { readonly t: 'gather'; readonly id: number }
  /** answer to 'list-sessions' */
  | { readonly t: 'sessions'; readonly id: number; readonly sessions: readonly SessionSummary[] }
  /** max_connections is server-wide: a slot for a new connection, please */
  | { readonly t: 'admit'; readonly id: number }
  | { readonly t: 'release' };

export type ToWorker =
  | { readonly t: 'cancel-request'; readonly pid: number; readonly key: number }
  | { readonly t: 'signal-backend'; readonly op: 'cancel' | 'terminate'; readonly pid: number }
  | { readonly t: 'list-sessions'; readonly id: number }
  | { readonly t: 'gathered'; readonly id: number; readonly sessions: readonly SessionSummary[] }
  | { readonly t: 'admitted'; readonly id: number; readonly ok: boolean }
  | { readonly t: 'shutdown' };
