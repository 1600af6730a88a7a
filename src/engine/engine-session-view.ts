/**
 * EngineSessionView: the SessionView (catalog/session-view.ts) of an EngineSession, handed to functions
 * and system tables: settings, identity, and the server's other sessions.
 */
import type { CursorSummary, PreparedStatementSummary, SessionSummary, SessionView, SettingInfo } from '../catalog/session-view.ts';
import type { EngineSession } from './engine-session.ts';
import { searchPathSchemas } from './search-path.ts';

export class EngineSessionView implements SessionView {
  constructor(private readonly session: EngineSession) {}

  get user(): string {
    return this.session.info.user;
  }

  get database(): string {
    return this.session.info.database;
  }

  get backendPid(): number {
    return this.session.info.backendPid;
  }

  get serverStartTime(): bigint {
    return this.session.server.startTime;
  }

  get localAddress(): string {
    return this.session.info.localAddress;
  }

  get localPort(): number {
    return this.session.info.localPort;
  }

  searchPath(): readonly string[] {
    return searchPathSchemas(this.session.settings.get('search_path') ?? '', this.user, this.session.catalog, false);
  }

  get settingsVersion(): number {
    return this.session.settings.version;
  }

  getSetting(name: string, missingOk = false): string | null {
    if (missingOk) return this.session.settings.get(name) ?? null;
    return this.session.settings.require(name);
  }

  /** current_setting: the value as SHOW prints it (units included: `4MB`, `30s`), as PostgreSQL returns it */
  showSetting(name: string, missingOk = false): string | null {
    if (missingOk && this.session.settings.get(name) === undefined) return null;
    return this.session.settings.showValue(name);
  }

  setSetting(name: string, value: string, isLocal: boolean): string {
    const stored = this.session.settings.set(name, value, isLocal && this.session.tx.inBlock);
    return this.session.settings.get(name) === undefined ? stored : this.session.settings.showValue(name);
  }

  settings(): readonly SettingInfo[] {
    return this.session.settings.info();
  }

  /** this process's sessions and (with processes > 1) the other processes' (EngineServer) */
  sessions(): readonly SessionSummary[] {
    return this.session.server.allSessions();
  }

  cancelBackend(pid: number): boolean {
    return this.session.server.cancelBackend(pid);
  }

  terminateBackend(pid: number): boolean {
    return this.session.server.terminateBackend(pid);
  }

  currentTransactionId(): bigint {
    return this.session.tx.transactionId(() => this.session.server.allocateXid());
  }

  cursors(): readonly CursorSummary[] {
    return [...this.session.cursors.values()].map((c) => ({
      name: c.name, statement: c.statement, isHoldable: c.holdable, isBinary: c.binary, isScrollable: c.scroll !== null,
      creationTime: c.creationTime,
    }));
  }

  preparedStatements(): readonly PreparedStatementSummary[] {
    return [...this.session.sqlPrepared.values()].map((p) => ({
      name: p.name, statement: p.statement, prepareTime: p.prepareTime, parameterTypes: p.prepared.paramTypes, fromSql: true,
    }));
  }
}
