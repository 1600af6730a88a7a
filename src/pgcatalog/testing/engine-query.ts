/**
 * Runs SQL through a whole engine session (parse → bind → execute against pgcatalog) and returns rows as
 * PostgreSQL's text, for tests that compare catalog answers with PostgreSQL's.
 */
import { textOut } from '../../common/pgtypes/index.ts';
import { createQueryEngine } from '../../engine/index.ts';
import type { HandlerSession } from '../../wire/handler.ts';

export interface EngineQuery {
  query(sql: string): Promise<string[][]>;
  close(): Promise<void>;
}

export async function engineQuery(backendPid: number, setup: readonly string[] = []): Promise<EngineQuery> {
  const engine = await createQueryEngine({ databases: ['lake'] });
  const session: HandlerSession = await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false });
  const query = async (sql: string): Promise<string[][]> => {
    const out: string[][] = [];
    for await (const r of session.simpleQuery(sql)) {
      if (r.kind !== 'rows') continue;
      for await (const b of r.batches) {
        for (let i = 0; i < b.length; i++) {
          out.push(b.columns.map((c, j) => {
            const v = c[i];
            if (v === null || v === undefined) return 'NULL';
            const t = r.columns[j]!.typeOid;
            return session.renderText?.(t, v) ?? textOut(t, v);
          }));
        }
      }
    }
    return out;
  };
  for (const ddl of setup) await query(ddl);
  return {
    query,
    close: async () => {
      await session.close();
      await engine.close();
    },
  };
}
