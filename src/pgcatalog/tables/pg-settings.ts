/**
 * pg_settings, pg_stat_activity, pg_cursors and pg_prepared_statements, read from the SessionView.
 * @see https://www.postgresql.org/docs/15/view-pg-settings.html
 * @see https://www.postgresql.org/docs/15/monitoring-stats.html#MONITORING-PG-STAT-ACTIVITY-VIEW
 */
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { textArray } from './vectors.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import { pgArray } from '../../common/pgtypes/values.ts';

/** PostgreSQL's GUC_NO_SHOW_ALL settings: SHOW names them, pg_settings (and so psql's \dconfig) does not */
const NOT_IN_PG_SETTINGS = new Set(['is_superuser', 'session_authorization', 'role', 'seed']);

export function* pgSettingsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const s of snap.session.settings()) {
    if (NOT_IN_PG_SETTINGS.has(s.name)) continue;
    yield {
      name: s.name, setting: s.setting, unit: s.unit, category: s.category, short_desc: s.shortDesc,
      extra_desc: null, context: s.context, vartype: s.vartype, source: s.source, min_val: null, max_val: null,
      enumvals: s.enumvals === null ? null : textArray(s.enumvals), boot_val: s.bootVal, reset_val: s.resetVal,
      sourcefile: null, sourceline: null, pending_restart: false,
    };
  }
}

export function* pgCursorsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const c of snap.session.cursors?.() ?? []) {
    yield {
      name: c.name, statement: c.statement, is_holdable: c.isHoldable, is_binary: c.isBinary, is_scrollable: c.isScrollable,
      creation_time: c.creationTime,
    };
  }
}

export function* pgPreparedStatementsRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const p of snap.session.preparedStatements?.() ?? []) {
    yield {
      name: p.name, statement: p.statement, prepare_time: p.prepareTime,
      parameter_types: pgArray(Oid.regtype, p.parameterTypes), from_sql: p.fromSql, generic_plans: 0n, custom_plans: 0n,
    };
  }
}

export function* pgStatActivityRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const s of snap.session.sessions()) {
    yield {
      datid: snap.databaseOidOf(s.database), datname: s.database, pid: s.pid, leader_pid: null,
      usesysid: snap.roleOid(s.user), usename: s.user, application_name: s.applicationName,
      client_addr: s.clientAddr === '' ? null : s.clientAddr, client_hostname: null,
      client_port: s.clientAddr === '' ? -1 : s.clientPort, backend_start: s.backendStart, xact_start: s.xactStart,
      query_start: s.queryStart, state_change: s.queryStart ?? s.backendStart, wait_event_type: s.state === 'idle' ? 'Client' : null,
      wait_event: s.state === 'idle' ? 'ClientRead' : null, state: s.state, backend_xid: null, backend_xmin: null,
      query_id: null, query: s.query, backend_type: 'client backend',
    };
  }
}
