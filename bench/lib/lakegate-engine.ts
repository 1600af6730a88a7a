/**
 * lakegate as a child `node bin/lakegate.mjs serve` on a temp warehouse, loaded through COPY FROM STDIN into
 * Iceberg tables (lineitem and orders partitioned by month). A child so that its peak RSS is the kernel's VmHWM;
 * reset per query through /proc/<pid>/clear_refs ("5" resets the high-water mark, Linux ≥ 4.0). The server is
 * restarted between the load and the queries, so a query's peak is its own and not the load's residue.
 *
 * Timeouts: statement_timeout first; if the server does not answer within a grace period after that (a
 * query that never yields to the event loop), the child is killed and restarted on the same warehouse, so the
 * run goes on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../test/helpers/pg-cluster.ts';
import { progress, QueryTimeout, type Engine, type ScanCounts, type TextRow } from './engine.ts';
import { connectText, copyCsv, sqlState, textRows } from './pg-client.ts';
import { tpchCreateDdl, tpchPostLoadDdl } from '../tpch/index.ts';
import type { TpchDataset } from './tpch-source.ts';
import { startScriptFlags } from './start-flags.ts';

const SCHEMA = 'tpch';
const GRACE_MS = 15_000;

export class LakegateEngine implements Engine {
  readonly name = 'lakegate' as const;
  private readonly warehouse = mkdtempSync(join(tmpdir(), 'lakegate-tpch-wh-'));
  private child: ChildProcess | null = null;
  private client: pg.Client | null = null;
  private url = '';
  private timeoutSet = -1;
  /** highest VmHWM of children killed since the last reset */
  private carriedPeakMb = 0;
  readonly restarts: string[] = [];
  /** seconds of the load spent declaring (checking) the primary keys */
  keySeconds: number | undefined;

  constructor(private readonly nodeArgs: readonly string[] = []) {}

  private async start(): Promise<void> {
    const port = await freePort();
    this.url = `postgres://postgres@127.0.0.1:${port}/lakegate`;
    // as `npm start` runs it (its node flags), then --node-args
    const child = spawn(process.execPath, [...startScriptFlags(), ...this.nodeArgs, 'bin/lakegate.mjs', 'serve'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env, LAKEGATE_HOST: '127.0.0.1', LAKEGATE_PORT: String(port), LAKEGATE_WAREHOUSE: this.warehouse,
        LAKEGATE_AUTH: 'trust', LAKEGATE_SAMPLE_DATA: 'false',
        // TCP only: the child is stopped with SIGKILL, which would leave a stale socket and lock file in /tmp
        LAKEGATE_UNIX_SOCKET_DIRECTORIES: '',
      },
    });
    this.child = child;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`lakegate exited with code ${child.exitCode}`);
      try {
        const c = await connectText(this.url);
        this.client = c;
        this.timeoutSet = -1;
        return;
      } catch {
        if (i > 600) throw new Error('lakegate did not start within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  async load(data: TpchDataset): Promise<number> {
    await this.start();
    const c = this.client!;
    const t0 = performance.now();
    for (const ddl of tpchCreateDdl({ target: 'lakegate', schema: SCHEMA, partitioned: true })) await c.query(ddl);
    for (const f of data.tables.values()) await copyCsv(c, `${SCHEMA}.${f.table}`, f.file, data.delimiter, 'lakegate');
    // the primary keys PostgreSQL's load declares too (checked over the rows, as its index builds are); part of the load
    const tk = performance.now();
    for (const ddl of tpchPostLoadDdl({ target: 'lakegate', schema: SCHEMA, keys: true })) await c.query(ddl);
    this.keySeconds = (performance.now() - tk) / 1000;
    const seconds = (performance.now() - t0) / 1000;
    // Queries run on a restarted server: a load's heap and WASM memory never shrink, so without the restart every
    // query's peak RSS would be the load's residue, not what the query needs. The load's own peak is carried.
    this.carriedPeakMb = Math.max(this.carriedPeakMb, this.currentHwmMb() ?? 0);
    await this.stopChild();
    this.client = null;
    return seconds;
  }

  private async session(timeoutMs: number): Promise<pg.Client> {
    if (this.client === null) {
      await this.start();
      await this.client!.query(`SET search_path TO ${SCHEMA}`);
    }
    const c = this.client!;
    if (this.timeoutSet !== timeoutMs) {
      await c.query(`SET statement_timeout = ${Math.round(timeoutMs)}`);
      this.timeoutSet = timeoutMs;
    }
    return c;
  }

  async query(sql: string, timeoutMs: number): Promise<TextRow[]> {
    const c = await this.session(timeoutMs);
    let timer: NodeJS.Timeout | undefined;
    const hard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new QueryTimeout(timeoutMs)), timeoutMs + GRACE_MS);
    });
    try {
      return await Promise.race([textRows(c, sql), hard]);
    } catch (e) {
      if (sqlState(e) === '57014') throw new QueryTimeout(timeoutMs);
      if (e instanceof QueryTimeout || this.child?.exitCode !== null) {
        // unresponsive past its own statement_timeout, or crashed: restart on the same warehouse
        await this.restart(e instanceof QueryTimeout ? `unresponsive ${GRACE_MS / 1000} s past statement_timeout` : `exited (${String((e as Error).message)})`);
      }
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  async scanCounts(sql: string, timeoutMs: number): Promise<ScanCounts | null> {
    const rows = await this.query(`EXPLAIN ANALYZE ${sql}`, timeoutMs);
    return parseScanCounts(rows.map((r) => r[0] ?? '').join('\n'));
  }

  private async restart(why: string): Promise<void> {
    progress(`lakegate: restarting the server (${why})`);
    this.restarts.push(why);
    this.carriedPeakMb = Math.max(this.carriedPeakMb, this.currentHwmMb() ?? 0);
    await this.stopChild();
    this.client = null;
  }

  private currentHwmMb(): number | null {
    const pid = this.child?.pid;
    if (pid === undefined || this.child?.exitCode !== null) return null;
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : null;
    } catch {
      return null;
    }
  }

  resetPeakRss(): void {
    this.carriedPeakMb = 0;
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      /* older kernels: the peak stays cumulative */
    }
  }

  peakRssMb(): number | null {
    const now = this.currentHwmMb();
    return now === null && this.carriedPeakMb === 0 ? null : Math.max(now ?? 0, this.carriedPeakMb);
  }

  private async stopChild(): Promise<void> {
    await this.client?.end().catch(() => {});
    const child = this.child;
    if (child !== null && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    this.child = null;
  }

  async close(): Promise<void> {
    await this.stopChild();
    rmSync(this.warehouse, { recursive: true, force: true });
  }
}

/** Sums `files scanned k / n` and `row groups scanned k / n` over every scan in an EXPLAIN ANALYZE text. */
export function parseScanCounts(text: string): ScanCounts | null {
  const sum = (re: RegExp): [number, number] | null => {
    let k = 0;
    let n = 0;
    let any = false;
    for (const m of text.matchAll(re)) {
      any = true;
      k += Number(m[1]);
      n += Number(m[2]);
    }
    return any ? [k, n] : null;
  };
  const files = sum(/files scanned:?\s*(\d+)\s*\/\s*(\d+)/gi);
  const groups = sum(/row groups scanned:?\s*(\d+)\s*\/\s*(\d+)/gi);
  if (files === null && groups === null) return null;
  return {
    filesScanned: files?.[0] ?? NaN, filesTotal: files?.[1] ?? NaN,
    rowGroupsScanned: groups?.[0] ?? NaN, rowGroupsTotal: groups?.[1] ?? NaN,
  };
}
