/**
 * A node-postgres client that keeps every value as PostgreSQL's text (no JS type parsing), and `rowsOf`,
 * which returns a query's rows as text with NULL spelled `NULL`: tests compare exactly what a server prints.
 */
import pg from 'pg';

export const textTypes = { getTypeParser: () => (v: string) => v };

/** connect to a server URL, or to 127.0.0.1:port as `postgres` on database `lakegate` */
export async function connectText(target: string | { readonly port: number }): Promise<pg.Client> {
  const c = typeof target === 'string'
    ? new pg.Client({ connectionString: target, types: textTypes as never })
    : new pg.Client({ host: '127.0.0.1', port: target.port, user: 'postgres', database: 'lakegate', types: textTypes as never });
  await c.connect();
  return c;
}

export async function rowsOf(c: pg.Client, sql: string): Promise<string[][]> {
  const res = await c.query({ text: sql, rowMode: 'array' });
  return (res.rows as unknown[][]).map((r) => r.map((v) => (v === null ? 'NULL' : String(v))));
}

/** the SQLSTATE a statement fails with, or 'no error' */
export async function sqlStateOf(c: pg.Client, sql: string): Promise<string> {
  try {
    await c.query(sql);
  } catch (e) {
    return String((e as { code?: string }).code);
  }
  return 'no error';
}
