/**
 * PostgreSQL as its users would run TPC-H: a throwaway cluster (test/helpers/pg-cluster.ts) with
 * shared_buffers holding the data, 2 parallel workers per gather, primary keys and foreign-key indexes
 * (bench/tpch/schema.ts), VACUUM ANALYZE, then every table and index read into shared_buffers (pg_prewarm).
 */
import type pg from 'pg';
import { startPgCluster, type PgCluster } from '../../test/helpers/pg-cluster.ts';
import { progress, QueryTimeout, type Engine, type TextRow } from './engine.ts';
import { connectText, copyCsv, sqlState, textRows } from './pg-client.ts';
import { tpchCreateDdl, tpchPostLoadDdl } from '../tpch/index.ts';
import type { TpchDataset } from './tpch-source.ts';

export class PgEngine implements Engine {
  readonly name = 'pg' as const;
  private cluster: PgCluster | null = null;
  private client: pg.Client | null = null;
  private timeoutSet = -1;

  constructor(private readonly sf: number) {}

  async load(data: TpchDataset): Promise<number> {
    // data + indexes are ≈ 2 GB per SF: keep them all in shared_buffers
    const sharedMb = Math.max(512, Math.ceil(this.sf * 3072));
    this.cluster = await startPgCluster({
      settings: {
        shared_buffers: `${sharedMb}MB`,
        effective_cache_size: `${sharedMb * 2}MB`,
        work_mem: '64MB',
        maintenance_work_mem: '512MB',
        max_parallel_workers_per_gather: '2',
        max_worker_processes: '8',
        max_parallel_workers: '4',
        jit: 'off',
      },
    });
    const c = await connectText(this.cluster.url);
    this.client = c;
    const t0 = performance.now();
    for (const ddl of tpchCreateDdl({ target: 'postgres' })) await c.query(ddl);
    for (const f of data.tables.values()) await copyCsv(c, f.table, f.file, data.delimiter, 'pg');
    progress('pg: primary keys, foreign-key indexes, VACUUM ANALYZE');
    for (const ddl of tpchPostLoadDdl({ target: 'postgres', keys: true })) await c.query(ddl);
    await c.query('VACUUM ANALYZE');
    await c.query('CREATE EXTENSION IF NOT EXISTS pg_prewarm');
    await c.query(`SELECT pg_prewarm(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i')`);
    return (performance.now() - t0) / 1000;
  }

  async query(sql: string, timeoutMs: number): Promise<TextRow[]> {
    const c = this.client;
    if (c === null) throw new Error('pg: not loaded');
    if (this.timeoutSet !== timeoutMs) {
      await c.query(`SET statement_timeout = ${Math.round(timeoutMs)}`);
      this.timeoutSet = timeoutMs;
    }
    try {
      return await textRows(c, sql);
    } catch (e) {
      if (sqlState(e) === '57014') throw new QueryTimeout(timeoutMs);
      throw e;
    }
  }

  async close(): Promise<void> {
    await this.client?.end().catch(() => {});
    await this.cluster?.stop();
    this.client = null;
    this.cluster = null;
  }
}
