/**
 * Extended query protocol: prepared statements and portals of one connection, and the Parse / Bind /
 * Describe / Execute / Close messages. Execute honours the row limit: the portal keeps its RowCursor and
 * answers PortalSuspended, and the next Execute resumes. Errors are thrown; the connection then skips to Sync.
 * @see https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY
 */
import { GatewayError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import type { PreparedStatement, StatementResult } from './handler.ts';
import { rowEncoding } from './encode/data-row-encoder.ts';
import {
  BindComplete,
  CloseComplete,
  CommandComplete,
  EmptyQueryResponse,
  NoData,
  ParameterDescription,
  ParseComplete,
  PortalSuspended,
  RowDescription,
} from './protocol/backend-serializer.ts';
import type { Bind, Close, Describe, Execute, Parse } from './protocol/frontend-messages.ts';
import { PortalTable } from './portal-table.ts';
import { RowCursor } from './row-cursor.ts';
import { receiveCopyIn, sendCopyOut } from './statement-result.ts';
import type { WireIO } from './wire-io.ts';

interface Portal {
  readonly statement: PreparedStatement;
  readonly params: readonly unknown[];
  readonly resultFormats: readonly number[];
  started: boolean;
  cursor: RowCursor | null;
  result: StatementResult | null;
}

export class ExtendedQuery {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly portals = new PortalTable<Portal>();

  constructor(private readonly io: WireIO) {}

  /** Parse; a promise only when the handler's answer must be awaited (prepareNow answered a promise, or is absent) */
  parse(m: Parse): Promise<void> | undefined {
    if (m.name !== '' && this.statements.has(m.name)) {
      throw new GatewayError(SqlState.duplicate_prepared_statement, `prepared statement "${m.name}" already exists`);
    }
    const session = this.io.session;
    const prepared = session.prepareNow !== undefined ? session.prepareNow(m.sql, m.paramTypes) : session.prepare(m.sql, m.paramTypes);
    if (prepared instanceof Promise) return prepared.then((p) => this.parsed(m.name, p));
    this.parsed(m.name, prepared);
    return undefined;
  }

  private parsed(name: string, prepared: PreparedStatement): void {
    this.statements.set(name, prepared);
    ParseComplete(this.io.w);
  }

  /** Bind; a promise only when a portal of the same name had an open row stream to close first. */
  bind(m: Bind): Promise<void> | undefined {
    const stmt = this.statement(m.statement);
    const n = stmt.paramTypes.length;
    if (m.params.length !== n) {
      throw new GatewayError(
        SqlState.protocol_violation,
        `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${n}`,
      );
    }
    const pf = m.paramFormats;
    if (pf.length > 1 && pf.length !== m.params.length) {
      throw new GatewayError(SqlState.protocol_violation, `bind message has ${pf.length} parameter formats but ${m.params.length} parameters`);
    }
    const rf = m.resultFormats;
    checkFormats(pf);
    checkFormats(rf);
    const ncols = stmt.columns?.length ?? 0;
    if (rf.length > 1 && rf.length !== ncols) {
      throw new GatewayError(SqlState.protocol_violation, `bind message has ${rf.length} result formats but query has ${ncols} columns`);
    }
    const params = new Array<unknown>(n);
    for (let i = 0; i < n; i++) params[i] = this.decodeParam(stmt.paramTypes[i] ?? 0, pf.length === 0 ? 0 : pf.length === 1 ? pf[0]! : pf[i]!, m.params[i]!, i + 1);
    if (m.portal !== '' && this.portals.has(m.portal)) {
      throw new GatewayError(SqlState.duplicate_cursor, `cursor "${m.portal}" already exists`);
    }
    const portal: Portal = { statement: stmt, params, resultFormats: rf, started: false, cursor: null, result: null };
    const closing = this.closePortal(m.portal);
    if (closing !== undefined) return closing.then(() => this.bound(m.portal, portal));
    this.bound(m.portal, portal);
    return undefined;
  }

  private bound(name: string, portal: Portal): void {
    this.portals.set(name, portal);
    BindComplete(this.io.w);
  }

  private decodeParam(oid: number, format: number, bytes: Uint8Array | null, index: number): unknown {
    if (bytes === null) return null;
    if (format === 0) {
      // the usual key: an int4 / int2 in plain digits, read without making a string (int4in's answer)
      if ((oid === Oid.int4 && bytes.length <= 9) || (oid === Oid.int2 && bytes.length <= 4)) {
        const v = plainDigits(bytes);
        if (v !== null) return v;
      }
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
      return oid === 0 ? text : this.io.codec.textIn(oid, -1, text, this.io.settings);
    }
    // a binary int4 key: its four bytes, big-endian (int4recv)
    if (oid === Oid.int4 && bytes.length === 4) return (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!;
    try {
      return this.io.codec.binaryIn(oid, bytes);
    } catch (e) {
      throw binaryParamError(e, index);
    }
  }

  describe(m: Describe): void {
    if (m.target === 'S') {
      const stmt = this.statement(m.name);
      ParameterDescription(this.io.w, stmt.paramTypes);
      if (stmt.columns) RowDescription(this.io.w, stmt.columns);
      else NoData(this.io.w);
      return;
    }
    const cursor = this.portals.has(m.name) ? null : this.io.session.describeCursor?.(m.name) ?? null;
    if (cursor !== null) {
      RowDescription(this.io.w, cursor.columns, [cursor.binary ? 1 : 0]);
      return;
    }
    const portal = this.portal(m.name);
    const columns = portal.statement.columns;
    if (columns) RowDescription(this.io.w, columns, portal.resultFormats);
    else NoData(this.io.w);
  }

  /**
   * Execute; a promise only when something must be awaited (the handler's answer, a row stream, a full socket,
   * COPY). `syncFollows`: the next message, already received, is Sync (HandlerSession.execute).
   */
  execute(m: Execute, syncFollows = false): Promise<void> | undefined {
    const portal = this.portal(m.portal);
    if (!portal.started) {
      portal.started = true;
      const session = this.io.session;
      const result = session.executeNow !== undefined ? session.executeNow(portal.statement, portal.params, syncFollows) : session.execute(portal.statement, portal.params, syncFollows);
      if (result instanceof Promise) return result.then((r) => this.started(portal, r, m));
      return this.started(portal, result, m);
    }
    return this.resume(portal, m);
  }

  /** the first Execute of a portal, with the handler's result */
  private started(portal: Portal, result: StatementResult, m: Execute): Promise<void> | undefined {
    portal.result = result;
    switch (result.kind) {
      case 'rows':
        portal.cursor = new RowCursor(result.batches, rowEncoding(result.columns, portal.resultFormats), result.ready ?? null);
        return this.resume(portal, m);
      case 'command':
        CommandComplete(this.io.w, result.tag);
        return undefined;
      case 'empty':
        EmptyQueryResponse(this.io.w);
        return undefined;
      case 'copyOut':
        return sendCopyOut(this.io, result);
      case 'copyIn':
        return receiveCopyIn(this.io, result);
    }
  }

  /** rows up to the Execute's limit, then CommandComplete or PortalSuspended */
  private resume(portal: Portal, m: Execute): Promise<void> | undefined {
    const result = portal.result;
    if (portal.cursor && result?.kind === 'rows') {
      const n = portal.cursor.send(this.io, m.maxRows);
      if (typeof n !== 'number') return n.then((sent) => this.sent(portal, sent));
      return this.sent(portal, n);
    }
    if (result?.kind === 'empty') {
      EmptyQueryResponse(this.io.w);
      return undefined;
    }
    throw new GatewayError(SqlState.object_not_in_prerequisite_state, `portal "${m.portal}" cannot be run`);
  }

  private sent(portal: Portal, n: number): Promise<void> | undefined {
    const result = portal.result;
    if (this.io.isClosed() || result?.kind !== 'rows') return undefined;
    if (portal.cursor!.done) {
      CommandComplete(this.io.w, result.tag(n));
      return undefined;
    }
    PortalSuspended(this.io.w);
    return this.io.flush();
  }

  async close(m: Close): Promise<void> {
    if (m.target === 'S') {
      const stmt = this.statements.get(m.name);
      this.statements.delete(m.name);
      // closing a statement closes the portals built from it, as in PostgreSQL
      for (const [name, p] of this.portals.entries()) if (stmt && p.statement === stmt) await this.closePortal(name);
    } else await this.closePortal(m.name);
    CloseComplete(this.io.w);
  }

  /** SQL DEALLOCATE name / DEALLOCATE ALL (null) reaches protocol-level statements too, as in PostgreSQL. */
  deallocate(name: string | null): boolean {
    if (name === null) {
      this.statements.clear();
      return true;
    }
    return this.statements.delete(name);
  }

  /** an unnamed statement or portal exists (dropUnnamed has work to do) */
  get hasUnnamed(): boolean {
    return this.statements.has('') || this.portals.has('');
  }

  get portalCount(): number {
    return this.portals.size;
  }

  /** A simple Query drops the unnamed statement and portal, as PostgreSQL does. */
  async dropUnnamed(): Promise<void> {
    this.statements.delete('');
    await this.closePortal('');
  }

  /**
   * At transaction end (Sync with status I) portals are gone; prepared statements stay. A promise only when
   * a portal's row stream was still open (its close is awaited).
   */
  closeAllPortals(): Promise<void> | undefined {
    // the usual case (an autocommit round trip): only the unnamed portal, its rows sent
    if (this.portals.size === 1) {
      const unnamed = this.portals.get('');
      if (unnamed !== undefined && (unnamed.cursor === null || unnamed.cursor.done)) {
        this.portals.delete('');
        return undefined;
      }
    }
    const all = this.portals.entries();
    for (let i = 0; i < all.length; i++) {
      const p = all[i]![1];
      if (p.cursor !== null && !p.cursor.done) return this.closeAllPortalsInTurn(all);
    }
    this.portals.clear();
    return undefined;
  }

  private async closeAllPortalsInTurn(all: ReadonlyArray<readonly [string, Portal]>): Promise<void> {
    for (const [name] of all) await this.closePortal(name);
  }

  /** Drops the portal; a promise only when its row stream was still open (closing releases the handler's work). */
  private closePortal(name: string): Promise<void> | undefined {
    const p = this.portals.get(name);
    if (!p) return undefined;
    this.portals.delete(name);
    if (p.cursor === null || p.cursor.done) return undefined;
    return p.cursor.close().catch(() => undefined);
  }

  private statement(name: string): PreparedStatement {
    const s = this.statements.get(name);
    if (!s) throw new GatewayError(SqlState.invalid_sql_statement_name, `prepared statement "${name}" does not exist`);
    return s;
  }

  private portal(name: string): Portal {
    const p = this.portals.get(name);
    if (!p) throw new GatewayError(SqlState.invalid_cursor_name, `portal "${name}" does not exist`);
    return p;
  }
}

/**
 * The value of an optionally signed run of ASCII digits short enough to be in range (callers bound the length),
 * else null (the type's textIn then judges it: spaces, `+`, overflow, errors).
 */
function plainDigits(bytes: Uint8Array): number | null {
  const n = bytes.length;
  let i = bytes[0] === 45 /* - */ ? 1 : 0;
  if (i === n) return null;
  let v = 0;
  for (; i < n; i++) {
    const d = bytes[i]! - 48;
    if (d < 0 || d > 9) return null;
    v = v * 10 + d;
  }
  // -0 is 0 for int4in
  return bytes[0] === 45 ? (v === 0 ? 0 : -v) : v;
}

/**
 * A binary parameter the type's receive function refused, as PostgreSQL reports it: reading past the value's
 * bytes is pq_getmsg*'s `08P01 insufficient data left in message`; bytes left over are exec_bind_message's
 * `22P03 incorrect binary data format in bind parameter N`.
 */
function binaryParamError(e: unknown, index: number): GatewayError {
  const incorrect = (): GatewayError => new GatewayError(SqlState.invalid_binary_representation, `incorrect binary data format in bind parameter ${index}`);
  if (!GatewayError.is(e)) return incorrect();
  if (e.code !== SqlState.invalid_binary_representation) return e;
  if (e.message === 'insufficient data left in message') return new GatewayError(SqlState.protocol_violation, e.message);
  return e.message === 'incorrect binary data format' ? incorrect() : e;
}

function checkFormats(formats: readonly number[]): void {
  for (const f of formats) {
    if (f !== 0 && f !== 1) throw new GatewayError(SqlState.invalid_parameter_value, `unsupported format code: ${f}`);
  }
}
