/**
 * A small in-test QueryHandler (a test double of the wire/handler.ts seam) for protocol tests, while the
 * real engine is written in parallel. It understands a handful of statement shapes:
 *   select <int>                       one int4 column
 *   select * from series(N[, batch])   N rows (n int4, label text), in batches
 *   select * from wide(N)              N rows with ~1 KB labels, 100 per batch
 *   select $1::int4, $2::text …        echoes its parameters (types from the casts)
 *   select pg_sleep(S)                 waits S seconds or until cancelled (57014)
 *   select * from missing              42P01 with position
 *   boom                               a plain Error (→ XX000)
 *   begin / commit / rollback / set x = v / notice
 *   copy t to stdout [N]  |  copy t from stdin
 */
import { batchFromRows, type Batch } from '../../common/batch.ts';
import { GatewayError, queryCanceled, undefinedTable } from '../../common/errors.ts';
import type { HandlerSession, OutputSettings, PreparedStatement, QueryHandler, ResultColumn, StartupInfo, StatementResult } from '../handler.ts';

const col = (name: string, typeOid: number, typeSize: number): ResultColumn => ({ name, tableOid: 0, columnAttr: 0, typeOid, typeSize, typeMod: -1 });
const INT4 = col('?column?', 23, 4);

export class FakeHandler implements QueryHandler {
  readonly sessions: FakeSession[] = [];
  /** bytes received by COPY FROM STDIN, per session */
  readonly copied: string[] = [];
  async connect(info: StartupInfo): Promise<HandlerSession> {
    if (info.database === 'nodb') throw new GatewayError('3D000', `database "${info.database}" does not exist`);
    const s = new FakeSession(this, info);
    this.sessions.push(s);
    return s;
  }
}

export class FakeSession implements HandlerSession {
  private status: 'I' | 'T' | 'E' = 'I';
  private changes: Array<[string, string]> = [];
  private abort = new AbortController();
  closed = false;
  /** batches produced by series()/wide(), to observe backpressure */
  batchesProduced = 0;
  onNotice?: (n: GatewayError) => void;

  constructor(
    private readonly owner: FakeHandler,
    readonly info: StartupInfo,
  ) {}

  initialParameterStatus(): ReadonlyArray<readonly [string, string]> {
    return [
      ['server_version', '15.18 (lakegate test)'],
      ['client_encoding', 'UTF8'],
      ['DateStyle', 'ISO, MDY'],
      ['integer_datetimes', 'on'],
      ['standard_conforming_strings', 'on'],
      ['application_name', this.info.parameters['application_name'] ?? ''],
    ];
  }
  takeParameterChanges(): ReadonlyArray<readonly [string, string]> {
    const c = this.changes;
    this.changes = [];
    return c;
  }
  transactionStatus(): 'I' | 'T' | 'E' {
    return this.status;
  }
  outputSettings(): OutputSettings {
    return { dateStyle: 'ISO, MDY', intervalStyle: 'postgres', timeZone: 'UTC', extraFloatDigits: 1, byteaOutput: 'hex' };
  }

  async *simpleQuery(sql: string): AsyncIterable<StatementResult> {
    for (const stmt of sql.split(';')) {
      if (stmt.trim() === '') continue;
      yield await this.run(stmt.trim(), []);
    }
  }

  async prepare(sql: string, paramTypes: readonly number[]): Promise<PreparedStatement> {
    const casts = [...sql.matchAll(/\$(\d+)(?:::(\w+))?/g)];
    const n = Math.max(paramTypes.length, ...casts.map((m) => Number(m[1])), 0);
    const types: number[] = [];
    for (let i = 0; i < n; i++) {
      const cast = casts.find((m) => Number(m[1]) === i + 1)?.[2];
      types.push(paramTypes[i] || (cast === 'int4' ? 23 : cast === 'int8' ? 20 : cast === 'bool' ? 16 : 25));
    }
    if (/missing/.test(sql)) throw undefinedTable('missing', sql.indexOf('missing') + 1);
    const columns = n > 0 ? types.map((t, i) => col(`p${i + 1}`, t, t === 23 ? 4 : t === 20 ? 8 : -1)) : this.columnsOf(sql);
    return { paramTypes: types, columns, sql } as PreparedStatement;
  }

  async execute(prepared: PreparedStatement, params: readonly unknown[]): Promise<StatementResult> {
    return this.run((prepared as PreparedStatement & { sql: string }).sql, params);
  }

  async sync(): Promise<void> {
    if (this.status === 'E') this.status = 'I';
  }
  cancel(): void {
    this.abort.abort();
  }
  async close(): Promise<void> {
    this.closed = true;
    this.abort.abort();
  }

  private columnsOf(sql: string): ResultColumn[] | null {
    if (/^select \d+$/i.test(sql)) return [INT4];
    if (/series/i.test(sql)) return [col('n', 23, 4), col('label', 25, -1)];
    if (/pg_sleep/.test(sql)) return [col('pg_sleep', 2278, 4)];
    return null;
  }

  private async run(sql: string, params: readonly unknown[]): Promise<StatementResult> {
    this.abort = new AbortController();
    const signal = this.abort.signal;
    let m: RegExpExecArray | null;
    if ((m = /^select (-?\d+)$/i.exec(sql))) {
      const v = Number(m[1]);
      return rows([INT4], (async function* () { yield batchFromRows([[v]], 1); })());
    }
    if ((m = /^select \* from series\((\d+)(?:,\s*(\d+))?\)$/i.exec(sql))) {
      const total = Number(m[1]);
      const per = Number(m[2] ?? 100);
      return rows(this.columnsOf(sql)!, this.series(total, per, signal, 0));
    }
    if ((m = /^select \* from wide\((\d+)\)$/i.exec(sql))) {
      return rows([col('n', 23, 4), col('label', 25, -1)], this.series(Number(m[1]), 100, signal, 1000));
    }
    if (/^select \$1/i.test(sql)) {
      const prepared = await this.prepare(sql, []);
      return rows(prepared.columns!, (async function* () { yield batchFromRows([params], params.length); })());
    }
    if ((m = /^select pg_sleep\(([\d.]+)\)$/i.exec(sql))) {
      await sleep(Number(m[1]) * 1000, signal);
      return rows([col('pg_sleep', 2278, 4)], (async function* () { yield batchFromRows([['']], 1); })());
    }
    if (/missing/.test(sql)) throw undefinedTable('missing', sql.indexOf('missing') + 1);
    if (sql === 'boom') throw new Error('kaboom');
    if (/^begin$/i.test(sql)) return this.tx('T', 'BEGIN');
    if (/^commit$/i.test(sql)) return this.tx('I', 'COMMIT');
    if (/^rollback$/i.test(sql)) return this.tx('I', 'ROLLBACK');
    if ((m = /^set (\w+)\s*(?:=|to)\s*'?([^']*)'?$/i.exec(sql))) {
      this.changes.push([m[1]!, m[2]!]);
      return { kind: 'command', tag: 'SET' };
    }
    if (sql === 'notice') {
      this.onNotice?.(new GatewayError('01000', 'hello from the handler', { severity: 'NOTICE' }));
      return { kind: 'command', tag: 'DO' };
    }
    if ((m = /^copy\s+t\s+to\s+stdout(?:\s+(\d+))?\s*$/i.exec(sql))) {
      const n = Number(m[1] ?? 3);
      return {
        kind: 'copyOut', format: 0, columnCount: 2,
        data: (async function* () { for (let i = 1; i <= n; i++) yield Buffer.from(`${i}\trow ${i}\n`); })(),
        tag: (k) => `COPY ${k}`, rowCount: () => n,
      };
    }
    if (/^copy\s+t\s+from\s+stdin/i.test(sql)) {
      return {
        kind: 'copyIn', format: 0, columnCount: 2,
        consume: async (data) => {
          const parts: Buffer[] = [];
          for await (const chunk of data) parts.push(Buffer.from(chunk));
          const text = Buffer.concat(parts).toString('utf8');
          this.owner.copied.push(text);
          return `COPY ${text.split('\n').filter(Boolean).length}`;
        },
      };
    }
    if (this.status === 'T') this.status = 'E';
    throw new GatewayError('42601', `syntax error at or near "${sql.split(/\s+/)[0]}"`, { position: 1 });
  }

  private async *series(total: number, per: number, signal: AbortSignal, pad: number): AsyncGenerator<Batch> {
    const filler = 'x'.repeat(pad);
    for (let start = 1; start <= total; start += per) {
      if (signal.aborted) throw queryCanceled();
      const n = Math.min(per, total - start + 1);
      const ns = Array.from({ length: n }, (_, i) => start + i);
      this.batchesProduced++;
      yield { length: n, columns: [ns, ns.map((v) => `row ${v}${filler}`)] };
    }
  }

  private tx(status: 'I' | 'T', tag: string): StatementResult {
    this.status = status;
    return { kind: 'command', tag };
  }
}

function rows(columns: readonly ResultColumn[], batches: AsyncIterable<Batch>): StatementResult {
  return { kind: 'rows', columns, batches, tag: (n) => `SELECT ${n}` };
}


function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(queryCanceled());
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(queryCanceled());
    });
  });
}
