/**
 * Session and server information functions: version(), current_database(), current_schema(s), current_user,
 * session_user, pg_backend_pid, inet_*, pg_postmaster_start_time, txid_current, age(xid), current_setting/set_config,
 * pg_cancel_backend/pg_terminate_backend, pg_sleep, pg_is_in_recovery, pg_listening_channels.
 * @see https://www.postgresql.org/docs/15/functions-info.html
 */
import { queryCanceled } from '../../common/errors.ts';
import { Oid, pgArray } from '../../common/pgtypes/index.ts';
import type { EvalContext, RoutineDef } from '../../functions/registry-types.ts';
import type { SessionView } from '../../catalog/session-view.ts';
import { snapshotFor } from '../eval-snapshot.ts';
import { scalar, setReturning } from './define.ts';
import { socketInet } from '../../common/pgtypes/inet-value.ts';

/** version(): PostgreSQL's shape, with server_version (e.g. '16.4 (lakegate 0.1.0)') in place of the number. */
export function versionString(ctx: EvalContext): string {
  const v = ctx.session.getSetting('server_version', true) ?? '15.0';
  return `PostgreSQL ${v} on x86_64-pc-linux-gnu, compiled by lakegate, 64-bit`;
}

/** FirstNormalTransactionId: xids below it (invalid, bootstrap, frozen) are infinitely old */
const FIRST_NORMAL_XID = 3;
const INT32_MAX = 2147483647;

/**
 * age(xid): transactions between `xid` and the current transaction's id, modulo 2^32 as xid_age computes it
 * (the current id is the one txid_current() gives; PostgreSQL uses the latest when none is assigned yet)
 */
function xidAge(ctx: EvalContext, xid: number): number {
  if (xid < FIRST_NORMAL_XID) return INT32_MAX;
  const now = Number(ctx.session.currentTransactionId() & 0xffffffffn);
  return (now - xid) | 0;
}

/** mxid_age(xid): lakegate has no multixacts, so the next one is 1 (pg_database.datminmxid), as in a new cluster */
function mxidAge(mxid: number): number {
  return mxid === 0 ? INT32_MAX : (1 - mxid) | 0;
}

function ownSession(ctx: EvalContext) {
  return ctx.session.sessions().find((s) => s.pid === ctx.session.backendPid);
}

/**
 * pg_sleep: resolves after `seconds`, or rejects with 57014 when the statement is cancelled. The executor must
 * await the returned promise; a rejection nobody awaits is marked handled so it cannot crash the process.
 */
export function sleep(seconds: number, signal: AbortSignal): Promise<null> {
  const p = new Promise<null>((resolve, reject) => {
    if (signal.aborted) { reject(queryCanceled()); return; }
    const onAbort = (): void => { clearTimeout(timer); reject(queryCanceled()); };
    const timer = setTimeout(() => { signal.removeEventListener('abort', onAbort); resolve(null); }, Math.max(0, seconds * 1000));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  p.catch(() => undefined);
  return p;
}

export const sessionFunctions: readonly RoutineDef[] = [
  scalar('version', [], Oid.text, (_a, ctx) => versionString(ctx)),
  scalar('current_database', [], Oid.name, (_a, ctx) => ctx.catalog.database),
  scalar('current_catalog', [], Oid.name, (_a, ctx) => ctx.catalog.database),
  scalar('current_schema', [], Oid.name, (_a, ctx) => ctx.session.searchPath()[0] ?? null),
  scalar('current_schemas', [Oid.bool], Oid._name, ([implicit], ctx) => {
    const path = implicit === true ? snapshotFor(ctx).effectiveSearchPath() : ctx.session.searchPath();
    return pgArray(Oid.name, [...path]);
  }),
  scalar('current_user', [], Oid.name, (_a, ctx) => ctx.session.user),
  scalar('current_role', [], Oid.name, (_a, ctx) => ctx.session.user),
  scalar('session_user', [], Oid.name, (_a, ctx) => ctx.session.user),
  scalar('user', [], Oid.name, (_a, ctx) => ctx.session.user),
  scalar('pg_backend_pid', [], Oid.int4, (_a, ctx) => ctx.session.backendPid),
  // a connection over a Unix-domain socket has no addresses (the wire gives ''): PostgreSQL answers NULL for all four
  scalar('inet_server_addr', [], Oid.inet, (_a, ctx) => socketInet(ctx.session.localAddress)),
  scalar('inet_server_port', [], Oid.int4, (_a, ctx) => (ctx.session.localAddress === '' ? null : ctx.session.localPort)),
  scalar('inet_client_addr', [], Oid.inet, (_a, ctx) => socketInet(ownSession(ctx)?.clientAddr)),
  scalar('inet_client_port', [], Oid.int4, (_a, ctx) => {
    const own = ownSession(ctx);
    return own === undefined || own.clientAddr === '' ? null : own.clientPort;
  }),
  scalar('pg_is_in_recovery', [], Oid.bool, () => false, { volatility: 'v' }),
  scalar('pg_postmaster_start_time', [], Oid.timestamptz, (_a, ctx) => ctx.session.serverStartTime),
  scalar('pg_conf_load_time', [], Oid.timestamptz, (_a, ctx) => ctx.session.serverStartTime),
  scalar('txid_current', [], Oid.int8, (_a, ctx) => ctx.session.currentTransactionId(), { volatility: 'v' }),
  scalar('pg_current_xact_id', [], Oid.xid8, (_a, ctx) => ctx.session.currentTransactionId(), { volatility: 'v' }),
  // pgAdmin's and DataGrip's age(datfrozenxid) / mxid_age(datminmxid), with PostgreSQL's OIDs
  { ...scalar('age', [Oid.xid], Oid.int4, ([xid], ctx) => xidAge(ctx, xid as number), { volatility: 's' }), oid: 1181 },
  { ...scalar('mxid_age', [Oid.xid], Oid.int4, ([mxid]) => mxidAge(mxid as number), { volatility: 's' }), oid: 3939 },
  scalar('pg_cancel_backend', [Oid.int4], Oid.bool, ([pid], ctx) => ctx.session.cancelBackend(pid as number), { volatility: 'v' }),
  scalar('pg_terminate_backend', [Oid.int4, Oid.int8], Oid.bool, ([pid], ctx) => ctx.session.terminateBackend(pid as number), { volatility: 'v', defaults: 1 }),
  scalar('pg_sleep', [Oid.float8], Oid.void, ([s], ctx) => sleep(s as number, ctx.signal), { volatility: 'v' }),
  scalar('current_setting', [Oid.text], Oid.text, ([name], ctx) => showSetting(ctx.session, name as string, false)),
  scalar('current_setting', [Oid.text, Oid.bool], Oid.text, ([name, missingOk], ctx) => showSetting(ctx.session, name as string, missingOk as boolean)),
  scalar('set_config', [Oid.text, Oid.text, Oid.bool], Oid.text,
    ([name, value, isLocal], ctx) => ctx.session.setSetting(name as string, (value as string | null) ?? '', isLocal === true),
    { volatility: 'v', strict: false }),
  setReturning('pg_listening_channels', [], Oid.text, () => [], undefined, { volatility: 'v' }),
  scalar('pg_advisory_unlock_all', [], Oid.void, () => null, { volatility: 'v' }),
  scalar('pg_trigger_depth', [], Oid.int4, () => 0, { volatility: 'v' }),
  scalar('pg_jit_available', [], Oid.bool, () => false),
  // the session's pg_temp_N once it has one (the session catalog resolves the alias pg_temp), else 0 as in PostgreSQL
  scalar('pg_my_temp_schema', [], Oid.oid, (_a, ctx) => ctx.catalog.schemaByName('pg_temp')?.oid ?? 0, { volatility: 's' }),
  scalar('pg_is_other_temp_schema', [Oid.oid], Oid.bool, () => false),
];

/** current_setting prints as SHOW does (sessions that cannot format give the stored value) */
function showSetting(session: SessionView, name: string, missingOk: boolean): string | null {
  return session.showSetting?.(name, missingOk) ?? session.getSetting(name, missingOk);
}
