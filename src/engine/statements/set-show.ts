/**
 * SET / SET LOCAL / RESET / SET TRANSACTION / SET SESSION CHARACTERISTICS / SHOW.
 * @see https://www.postgresql.org/docs/current/sql-set.html
 */
import { batchOf } from '../../common/batch.ts';
import { pgError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { StatementResult } from '../../wire/handler.ts';
import type { UtilityHandler } from './route-utility.ts';
import type { EngineSession } from '../engine-session.ts';
import { showColumnName, textColumn } from '../engine-session.ts';
import { constText, nodeBody, nodeKind, quoteIdent } from '../ast.ts';
import { intervalIn, intervalOut } from '../../common/pgtypes/interval-text.ts';
import { intervalDefaultUnits, intervalTypmod } from '../../common/pgtypes/interval-typmod.ts';

/** settings whose list values PostgreSQL re-quotes as identifiers (GUC_LIST_QUOTE) */
const LIST_QUOTE = new Set(['search_path', 'temp_tablespaces']);

export const runSet: UtilityHandler = async (session, stmt) => {
  const body = nodeBody(stmt.ast);
  const kind = String(body.kind ?? '');
  const isLocal = body.is_local === true;
  const rawName = String(body.name ?? '');
  const name = settingName(rawName);
  switch (kind) {
    case 'VAR_SET_VALUE':
      setValue(session, name, flattenArgs(name, body.args), isLocal);
      return { kind: 'command', tag: 'SET' };
    case 'VAR_SET_DEFAULT':
    case 'VAR_RESET':
      if (isTransactionName(name)) return { kind: 'command', tag: kind === 'VAR_RESET' ? 'RESET' : 'SET' };
      session.settings.reset(name);
      return { kind: 'command', tag: kind === 'VAR_RESET' ? 'RESET' : 'SET' };
    case 'VAR_RESET_ALL':
      session.settings.resetAll();
      return { kind: 'command', tag: 'RESET' };
    case 'VAR_SET_CURRENT':
      return { kind: 'command', tag: 'SET' };
    case 'VAR_SET_MULTI':
      setMulti(session, rawName, body.args, isLocal);
      return { kind: 'command', tag: 'SET' };
    default:
      throw pgError(SqlState.feature_not_supported, `SET ${kind} is not supported`);
  }
};

function settingName(raw: string): string {
  const lower = raw.toLowerCase();
  if (lower === 'timezone') return 'TimeZone';
  if (lower === 'names') return 'client_encoding';
  if (lower === 'schema') return 'search_path';
  if (lower === 'session_authorization' || lower === 'session authorization') return 'session_authorization';
  return raw;
}

function isTransactionName(name: string): boolean {
  return name === 'transaction_isolation' || name === 'transaction_read_only' || name === 'transaction_deferrable';
}

function setValue(session: EngineSession, name: string, value: string, isLocal: boolean): void {
  const lower = name.toLowerCase();
  if (lower === 'transaction_isolation' || lower === 'transaction_read_only' || lower === 'transaction_deferrable') {
    // transaction characteristics only last for the current transaction, as SET LOCAL
    session.settings.set(lower, value, session.tx.inBlock);
    return;
  }
  if (lower === 'role') return;
  if (isLocal && (!session.tx.inBlock || session.pipelineBlock)) {
    // a pipeline's implicit transaction is no block either, but the value lasts until its Sync (as PostgreSQL)
    session.warning('SET LOCAL can only be used in transaction blocks', SqlState.no_active_sql_transaction);
    if (!session.tx.inBlock) return;
  }
  session.settings.set(name, value, isLocal);
}

/** PostgreSQL's flatten_set_variable_args: several values are joined with ", " */
function flattenArgs(name: string, args: unknown): string {
  if (!Array.isArray(args)) return '';
  const quote = LIST_QUOTE.has(name.toLowerCase());
  return args
    .map((a) => {
      if (nodeKind(a) === 'TypeCast') return intervalTimeZone(a); // SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE
      const text = constText(a) ?? '';
      const isString = nodeKind(a) === 'A_Const' && nodeBody(a).sval !== undefined;
      return quote && isString ? quoteIdent(text) : text;
    })
    .join(', ');
}

/**
 * check_timezone's INTERVAL form: an offset east of UTC as written, no months or days; the zone is named
 * as pg_tzset_offset names it ('<+02>-02', POSIX west-positive), which is also what SHOW prints.
 * @see https://github.com/postgres/postgres/blob/REL_15_STABLE/src/backend/commands/variable.c (check_timezone)
 */
function intervalTimeZone(cast: unknown): string {
  const typeName = (nodeBody(cast).typeName ?? {}) as { typmods?: unknown }; // a bare TypeName, not a {kind: body} node
  const mods = Array.isArray(typeName.typmods) ? typeName.typmods.map((m) => Number(constText(m) ?? 0)) : [];
  // intervaltypmodin: (range, precision); range alone keeps full precision
  const typmod = mods.length === 0 ? -1 : ((mods[0]! & 0x7fff) << 16) | ((mods[1] ?? 0xffff) & 0xffff);
  const text = constText(nodeBody(cast).arg) ?? '';
  const iv = intervalTypmod(intervalIn(intervalDefaultUnits(text, typmod)), typmod);
  const shown = `INTERVAL '${intervalOut(iv)}'`;
  const reject = (detail: string): never => {
    throw pgError(SqlState.invalid_parameter_value, `invalid value for parameter "TimeZone": "${shown}"`, { detail });
  };
  if (iv.months !== 0) reject('Cannot specify months in time zone interval.');
  if (iv.days !== 0) reject('Cannot specify days in time zone interval.');
  const east = Number(iv.micros / 1_000_000n);
  const abs = Math.abs(east);
  const pad = (n: number): string => String(n).padStart(2, '0');
  let hms = pad(Math.floor(abs / 3600));
  if (abs % 3600 !== 0) hms += `:${pad(Math.floor(abs / 60) % 60)}`;
  if (abs % 60 !== 0) hms += `:${pad(abs % 60)}`;
  return east < 0 ? `<-${hms}>+${hms}` : `<+${hms}>-${hms}`;
}

/** SET TRANSACTION … and SET SESSION CHARACTERISTICS AS TRANSACTION … */
function setMulti(session: EngineSession, name: string, args: unknown, isLocal: boolean): void {
  const session_ = name.toUpperCase() === 'SESSION CHARACTERISTICS';
  if (!Array.isArray(args)) return;
  for (const item of args) {
    const def = nodeBody(item);
    const option = String(def.defname ?? '');
    const value = constText(def.arg) ?? '';
    const target = session_ ? `default_${option}` : option;
    if (!session_ && !session.tx.inBlock) {
      session.warning('SET TRANSACTION can only be used in transaction blocks', SqlState.no_active_sql_transaction);
      return;
    }
    session.settings.set(target, value, !session_ || isLocal);
  }
}

export const runShow: UtilityHandler = async (session, stmt): Promise<StatementResult> => {
  const raw = String(nodeBody(stmt.ast).name ?? '');
  if (raw.toLowerCase() === 'all') {
    const rows = session.settings.showAll();
    const columns = [textColumn('name'), textColumn('setting'), textColumn('description')];
    const batch = batchOf([rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2])], rows.length);
    return { kind: 'rows', columns, batches: once(batch), tag: () => 'SHOW' };
  }
  const name = raw.toLowerCase() === 'transaction isolation level' ? 'transaction_isolation' : settingName(raw);
  const value = session.settings.showValue(name);
  return { kind: 'rows', columns: [textColumn(showColumnName(raw))], batches: once(batchOf([[value]], 1)), tag: () => 'SHOW' };
};

async function* once<T>(value: T): AsyncIterable<T> {
  yield value;
}
