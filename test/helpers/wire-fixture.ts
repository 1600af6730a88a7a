/**
 * startWireFixture: the set-up several wire and COPY test files repeated — lakegate in-process (test/helpers/
 * lakegate-server.ts), one connected pg client, a schema of the test's own and its tables — and the small
 * decoders of raw protocol answers they shared. One place, so that a file's set-up says only what it creates.
 */
import pg from 'pg';
import { startLakegate, type LakegateServer } from './lakegate-server.ts';

export interface WireFixture {
  readonly server: LakegateServer;
  /** connected; ended by close() */
  readonly client: pg.Client;
  /** ends the client, then stops the server (and removes its warehouse) */
  close(): Promise<void>;
}

/**
 * lakegate with a connected client, after `CREATE SCHEMA <schema>` and `statements` in order (tables, rows).
 * Pass it to vitest's beforeAll with a timeout of its own (a cold server and its first commits take seconds).
 */
export async function startWireFixture(schema: string, statements: readonly string[] = []): Promise<WireFixture> {
  const server = await startLakegate();
  const client = new pg.Client({ connectionString: server.url });
  try {
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    for (const sql of statements) await client.query(sql);
  } catch (e) {
    await client.end().catch(() => undefined);
    await server.close();
    throw e;
  }
  return {
    server,
    client,
    close: async () => {
      await client.end();
      await server.close();
    },
  };
}

/** each DataRow's first column as text (NULL as null) */
export function firstColumns(msgs: readonly { type: string; body: Buffer }[]): (string | null)[] {
  return msgs.filter((m) => m.type === 'D').map((m) => {
    const len = m.body.readInt32BE(2);
    return len < 0 ? null : m.body.subarray(6, 6 + len).toString('utf8');
  });
}

/** an int4 in binary format (int4send: four bytes, big-endian) */
export function int4(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}
