/**
 * QueryHandler: the seam between the wire protocol (wire/) and whatever answers queries (engine/).
 * wire/ owns bytes, framing, auth, portals' row limits and formats; the handler owns SQL.
 * The engine implements these interfaces; wire/ never imports the engine (dependency inversion, as in
 * pg-gateway's hooks and pgwire's handler traits).
 */
import type { Batch } from '../common/batch.ts';
import type { GatewayError } from '../common/errors.ts';

/** One result column, as RowDescription describes it. */
export interface ResultColumn {
  readonly name: string;
  /** pg_class OID of the source table, or 0 */
  readonly tableOid: number;
  /** pg_attribute.attnum of the source column, or 0 */
  readonly columnAttr: number;
  readonly typeOid: number;
  /** pg_type.typlen */
  readonly typeSize: number;
  readonly typeMod: number;
}

/** The text I/O settings of a session (defined beside the type I/O that uses them). */
export type { OutputSettings } from '../common/pgtypes/output-settings.ts';
import type { OutputSettings } from '../common/pgtypes/output-settings.ts';

export interface StartupInfo {
  readonly user: string;
  readonly database: string;
  /** every startup parameter as sent, including `options` and `application_name` */
  readonly parameters: Readonly<Record<string, string>>;
  readonly backendPid: number;
  readonly remoteAddress: string;
  readonly remotePort: number;
  readonly localAddress: string;
  readonly localPort: number;
  readonly ssl: boolean;
}

/** What a statement produced. Row results stream as batches so that wire/ can await socket drain. */
export type StatementResult =
  | {
      readonly kind: 'rows';
      readonly columns: readonly ResultColumn[];
      readonly batches: AsyncIterable<Batch>;
      /**
       * every batch, already computed, when the statement ran to its end without waiting (the engine's fast
       * path for small plans); `batches` yields the same ones. wire/ then sends them without a promise per batch.
       */
      readonly ready?: readonly Batch[];
      /** command tag once all rows were sent, e.g. `SELECT 3`, `FETCH 2`, `INSERT 0 1` (for RETURNING) */
      readonly tag: (rowCount: number) => string;
      /** BINARY cursors: FETCH results are sent in binary even in the simple protocol */
      readonly binary?: boolean;
    }
  | { readonly kind: 'command'; readonly tag: string }
  /** empty query string: EmptyQueryResponse */
  | { readonly kind: 'empty' }
  | {
      readonly kind: 'copyOut';
      /** 0 text, 1 binary: the CopyOutResponse overall format */
      readonly format: 0 | 1;
      readonly columnCount: number;
      /** each chunk becomes one CopyData message */
      readonly data: AsyncIterable<Uint8Array>;
      readonly tag: (rowCount: number) => string;
      readonly rowCount: () => number;
    }
  | {
      readonly kind: 'copyIn';
      readonly format: 0 | 1;
      readonly columnCount: number;
      /** called once with the stream of CopyData payloads; ends on CopyDone, throws on CopyFail (57014). Returns the tag. */
      readonly consume: (data: AsyncIterable<Uint8Array>) => Promise<string>;
    };

/** A statement prepared by Parse. */
export interface PreparedStatement {
  /** parameter type OIDs, the given ones with the unknown (0) ones inferred */
  readonly paramTypes: readonly number[];
  /** result columns when executed, or null if the statement returns no rows (NoData) */
  readonly columns: readonly ResultColumn[] | null;
}

/** One session of the handler, created after authentication; lives as long as the connection. */
export interface HandlerSession {
  /** ParameterStatus values to send after AuthenticationOk */
  initialParameterStatus(): ReadonlyArray<readonly [string, string]>;
  /** reported parameters (GUC_REPORT) whose values changed since the last call, to send before ReadyForQuery */
  takeParameterChanges(): ReadonlyArray<readonly [string, string]>;
  /** 'I' idle, 'T' in a transaction block, 'E' in a failed transaction block */
  transactionStatus(): 'I' | 'T' | 'E';
  outputSettings(): OutputSettings;

  /** Simple query: one result per statement, in order. Throws (GatewayError) at the failing statement. */
  simpleQuery(sql: string): AsyncIterable<StatementResult>;
  /**
   * Optional: a simple Query of exactly one statement without an async iterator: its result, or a promise of
   * it; null when the text holds no statement or several (wire/ then calls simpleQuery). Throws as simpleQuery.
   */
  simpleQueryNow?(sql: string): StatementResult | Promise<StatementResult> | null;

  /** Parse: `paramTypes` are the OIDs the client gave (0 = infer). */
  prepare(sql: string, paramTypes: readonly number[]): Promise<PreparedStatement>;
  /**
   * Optional: prepare() that answers the statement itself, not a promise, when nothing had to be awaited (the
   * engine's cached plans over an up-to-date catalog); otherwise the promise prepare() would give. wire/ prefers it.
   */
  prepareNow?(sql: string, paramTypes: readonly number[]): PreparedStatement | Promise<PreparedStatement>;
  /**
   * Bind + Execute: params are already decoded JS values (see pgtypes/values.ts) typed as
   * prepared.paramTypes. Returns the (lazy) result; wire/ pulls batches up to the Execute row limit and
   * keeps the iterator for the next Execute (PortalSuspended). `syncFollows`: the message after this Execute,
   * already received, is Sync — nothing else shares the pipeline's implicit transaction from here on, so a
   * statement that opens none may commit by itself (the engine then skips staging a single autocommit write).
   */
  execute(prepared: PreparedStatement, params: readonly unknown[], syncFollows?: boolean): Promise<StatementResult>;
  /**
   * Optional: execute() that answers the result itself, not a promise, when the statement completed without
   * waiting (the engine's cached small plans); otherwise the promise execute() would give. wire/ prefers it.
   */
  executeNow?(prepared: PreparedStatement, params: readonly unknown[], syncFollows?: boolean): StatementResult | Promise<StatementResult>;
  /** Sync in the extended protocol: ends the implicit transaction if any (commit, or roll back after an error). */
  sync(): Promise<void>;
  /**
   * Optional: sync() without a promise when nothing must be awaited (no implicit transaction to commit);
   * otherwise the promise sync() would give. wire/ prefers it.
   */
  syncNow?(): void | Promise<void>;
  /**
   * Optional: wire/ calls this after it answered a message with an ErrorResponse (a Bind whose parameter does
   * not decode, an unknown portal, ...): as any ERROR in PostgreSQL, it aborts the transaction — a block turns
   * 'E', an extended-protocol pipeline's implicit transaction rolls back at Sync.
   */
  messageFailed?(): void;
  /**
   * wire/ calls this before a message that reached the server after the last Parse began (the client waited
   * for an answer in between, e.g. Parse + Flush): what the Parse checked for the messages pipelined with it
   * (the engine's catalog freshness) does not hold for this one.
   */
  pipelineEnded?(): void;
  /**
   * wire/ sets this at each socket read of the connection to that read's number on the read clock
   * (wire/read-clock.ts): a check of shared state made once readsSoFar() >= readMark came after every message the
   * session has received. Undefined (no wire, or not set yet): unknown — check every time.
   */
  readMark?: number;

  /** CancelRequest for this backend: aborts the running statement with 57014. */
  cancel(): void;
  /** the connection is gone (Terminate or socket closed): release everything (temp tables, portals, work) */
  close(): Promise<void>;

  /** wire/ installs this to forward NoticeResponse messages */
  onNotice?: (notice: GatewayError) => void;
  /**
   * wire/ installs this: SQL `DEALLOCATE name` / `DEALLOCATE ALL` (null) also closes protocol-level
   * prepared statements, which share one namespace in PostgreSQL. Returns true if one was closed.
   */
  onDeallocate?: (name: string | null) => boolean;
  /** wire/ installs this: pg_terminate_backend closes the connection (FATAL 57P01) */
  onTerminate?: () => void;
  /**
   * Text output of values whose text depends on the catalog (regclass, regtype, regproc, regnamespace, ...):
   * returns the text, or null to use pgtypes' textOut. wire/ calls it for those type OIDs only.
   */
  renderText?: (typeOid: number, value: unknown) => string | null;
  /**
   * Text input of values whose input depends on the catalog (regclass, regtype, ... and their arrays: names
   * resolved through the search path, 42P01 for an unknown relation): returns the value, or undefined to use
   * pgtypes' textIn. wire/ calls it for Bind parameters of those type OIDs only.
   */
  parseText?: (typeOid: number, text: string) => unknown;
  /**
   * SQL cursors (DECLARE name CURSOR) are portals too in PostgreSQL: Describe Portal by a cursor's name returns
   * its row shape (psycopg 3 named cursors do this). Returns the columns and whether the cursor is BINARY, or
   * null if there is no such cursor.
   */
  describeCursor?: (name: string) => { readonly columns: readonly ResultColumn[]; readonly binary: boolean } | null;
}

export interface QueryHandler {
  /** After authentication succeeded. Throws a GatewayError (e.g. 3D000 unknown database) to refuse. */
  connect(info: StartupInfo): Promise<HandlerSession>;
}
