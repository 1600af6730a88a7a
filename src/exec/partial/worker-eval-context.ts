/**
 * The EvalContext a scan worker evaluates a fragment's expressions with: a snapshot of the statement's
 * session (settings such as TimeZone and DateStyle, identity, search_path), its timestamps and `$n` values.
 * Expressions reaching beyond that (the catalog, another session) never get here: expr-wire.ts admits only
 * built-in, non-volatile functions, and the pg_catalog functions that read the catalog are not built-ins.
 */
import { internalError, pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { CatalogView } from '../../catalog/catalog-view.ts';
import type { SessionView } from '../../catalog/session-view.ts';
import type { ExecContext } from '../context.ts';
import { fromCloneable, toCloneable } from '../../iceberg/parallel/cloneable.ts';

export interface WireEvalContext {
  readonly settings: readonly (readonly [string, string])[];
  readonly user: string;
  readonly database: string;
  readonly backendPid: number;
  readonly serverStartTime: bigint;
  readonly localAddress: string;
  readonly localPort: number;
  readonly searchPath: readonly string[];
  readonly transactionTimestamp: bigint;
  readonly statementTimestamp: bigint;
  /** toCloneable(params) */
  readonly params: unknown;
}

/** main thread: the snapshot of `ctx` a worker needs */
export function wireEvalContext(ctx: ExecContext): WireEvalContext {
  const s = ctx.session;
  return {
    settings: s.settings().map((x) => [x.name.toLowerCase(), s.getSetting(x.name, true) ?? x.setting] as const),
    user: s.user,
    database: s.database,
    backendPid: s.backendPid,
    serverStartTime: s.serverStartTime,
    localAddress: s.localAddress,
    localPort: s.localPort,
    searchPath: s.searchPath(),
    transactionTimestamp: ctx.transactionTimestamp,
    statementTimestamp: ctx.statementTimestamp,
    params: toCloneable(ctx.params),
  };
}

const unavailable = (what: string) => (): never => { throw internalError(`${what} is not available in a scan worker`); };

/** worker: an ExecContext over the snapshot (`signal` is the task's; cancellation is the shared flag) */
export function workerExecContext(w: WireEvalContext, signal: AbortSignal): ExecContext {
  const settings = new Map(w.settings);
  const session: SessionView = {
    user: w.user,
    database: w.database,
    backendPid: w.backendPid,
    serverStartTime: w.serverStartTime,
    localAddress: w.localAddress,
    localPort: w.localPort,
    searchPath: () => w.searchPath,
    getSetting: (name, missingOk) => {
      const v = settings.get(name.toLowerCase());
      if (v !== undefined) return v;
      if (missingOk) return null;
      throw pgError(SqlState.undefined_object, `unrecognized configuration parameter "${name}"`);
    },
    setSetting: unavailable('set_config'),
    settings: unavailable('pg_settings'),
    sessions: unavailable('pg_stat_activity'),
    cancelBackend: unavailable('pg_cancel_backend'),
    terminateBackend: unavailable('pg_terminate_backend'),
    currentTransactionId: unavailable('txid_current'),
  };
  const catalog = new Proxy({}, { get: unavailable('the catalog') }) as CatalogView;
  return {
    session,
    catalog,
    transactionTimestamp: w.transactionTimestamp,
    statementTimestamp: w.statementTimestamp,
    signal,
    params: fromCloneable(w.params) as unknown[],
    scan: { signal, session, catalog },
  };
}
