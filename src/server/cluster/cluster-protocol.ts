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
 * txid_current() keeps growing across restarts of the whole server, as PostgreSQL's does, and never repeats
 * across processes. A process counts up from its first id, taken from the clock: start time in ms × 2²⁰
 * (a process never hands out 2²⁰ ids per millisecond of its life, so a later start lies above every id an
 * earlier one handed out; nothing needs persisting). The primary gives each fork (restarts included) a first
 * id at least one block (2³²) above the previous fork's, so processes running side by side stay apart.
 * The values look like PostgreSQL's epoch-extended ids (epoch = id >> 32). A clock set back between two
 * starts by more than the time between them can repeat ids.
 */
export const FIRST_XID_ENV = 'LAKEGATE_FIRST_XID';
export const XID_BLOCK_SIZE = 2n ** 32n;
export const XIDS_PER_MS = 2n ** 20n;

/** the first transaction id of a process starting now (a single-process server) */
export function clockXid(nowMs: number = Date.now()): bigint {
  return BigInt(Math.floor(nowMs)) * XIDS_PER_MS;
}

/** the first transaction id of the next fork: the clock's, but at least one block above the previous fork's */
export function nextFirstXid(previous: bigint | null, nowMs: number = Date.now()): bigint {
  const clock = clockXid(nowMs);
  return previous === null || clock >= previous + XID_BLOCK_SIZE ? clock : previous + XID_BLOCK_SIZE;
}

/** FIRST_XID_ENV as the primary set it, or the clock's when it is missing or unreadable */
export function firstXidFromEnv(value: string | undefined): bigint {
  return value !== undefined && /^\d+$/.test(value) ? BigInt(value) : clockXid();
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
  | { readonly t: 'release' }
  /** a client socket the primary handed over ('connection') has closed: one fewer open here */
  | { readonly t: 'disconnected' };

export type ToWorker =
  | { readonly t: 'cancel-request'; readonly pid: number; readonly key: number }
  | { readonly t: 'signal-backend'; readonly op: 'cancel' | 'terminate'; readonly pid: number }
  | { readonly t: 'list-sessions'; readonly id: number }
  | { readonly t: 'gathered'; readonly id: number; readonly sessions: readonly SessionSummary[] }
  | { readonly t: 'admitted'; readonly id: number; readonly ok: boolean }
  /** a client connection the primary accepted: the socket travels as the message's handle */
  | { readonly t: 'connection' }
  | { readonly t: 'shutdown' };
