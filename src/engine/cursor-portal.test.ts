/**
 * SQL cursors are portals too (PostgreSQL): Describe Portal by a cursor's name gives its row shape, and a
 * prepared FETCH describes as the cursor's rows (psycopg 3 named cursors: DECLARE, Describe portal, FETCH).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQueryEngine, type QueryEngine } from './index.ts';
import type { HandlerSession } from '../wire/handler.ts';

let engine: QueryEngine;
let session: HandlerSession;

async function run(sql: string): Promise<void> {
  for await (const r of session.simpleQuery(sql)) if (r.kind === 'rows') for await (const _ of r.batches) { /* drain */ }
}

beforeAll(async () => {
  engine = await createQueryEngine({ databases: ['lake'] });
  session = await engine.connect({ user: 'alice', database: 'lake', parameters: {}, backendPid: 79, remoteAddress: '127.0.0.1', remotePort: 5000, localAddress: '127.0.0.1', localPort: 5433, ssl: false });
});
afterAll(async () => {
  await session?.close();
});

describe('cursors as portals', () => {
  it('describeCursor and prepared FETCH / MOVE', async () => {
    await run('begin');
    await run('declare c1 cursor for select g, g::text as t from generate_series(1, 5) g');
    await run('declare c2 binary cursor for select 1 as one');
    expect(session.describeCursor?.('c1')?.columns.map((c) => [c.name, c.typeOid])).toEqual([['g', 23], ['t', 25]]);
    expect(session.describeCursor?.('c1')?.binary).toBe(false);
    expect(session.describeCursor?.('c2')?.binary).toBe(true);
    expect(session.describeCursor?.('nope')).toBeNull();
    expect((await session.prepare('fetch forward 2 from c1', [])).columns?.map((c) => c.name)).toEqual(['g', 't']);
    expect((await session.prepare('move 1 in c1', [])).columns).toBeNull();
    expect((await session.prepare('fetch 1 from nope', [])).columns).toBeNull();
    await run('rollback');
    expect(session.describeCursor?.('c1')).toBeNull();
  });
});
