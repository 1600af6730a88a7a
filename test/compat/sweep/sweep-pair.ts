/**
 * The two servers a client sweep compares: lakegate (in this process, serving one database) and a database of the
 * same name on the throwaway PostgreSQL 15, both holding SWEEP_SCHEMA. The sweeps run an unmodified client's
 * catalog calls against both and diff the answers (see ../README.md, "Client sweeps").
 */
import pg from 'pg';
import { expect } from 'vitest';
import { startLakegate, type LakegateServer } from '../../helpers/lakegate-server.ts';
import { sharedPgCluster } from '../../helpers/pg-cluster.ts';

/**
 * In lakegate, `shop` is an Iceberg namespace and `public` holds the serial table and its view. Primary and foreign
 * keys, a UNIQUE constraint, a unique and a plain index, comments, a sequence, a serial column, a few types.
 * COMMENT ON SCHEMA is left out: lakegate refuses it (0A000), see the pinned refusal in psql-describe-sweep.
 */
export const SWEEP_SCHEMA: readonly string[] = [
  'CREATE SCHEMA shop',
  `CREATE TABLE shop.customers (
    id integer PRIMARY KEY, name text NOT NULL, email varchar(80) UNIQUE, balance numeric(12,2),
    created timestamptz DEFAULT '2024-01-01 00:00:00+00', active boolean DEFAULT true)`,
  `CREATE TABLE shop.orders (
    id bigint PRIMARY KEY, customer_id integer NOT NULL REFERENCES shop.customers (id), amount numeric(10,2),
    ordered_on date, ordered_at timestamp, ratio double precision, note varchar(40), code char(3), qty smallint,
    weight real, data bytea, uid uuid, t time, doc jsonb)`,
  'CREATE UNIQUE INDEX orders_code_uidx ON shop.orders (code)',
  'CREATE INDEX orders_customer_idx ON shop.orders (customer_id)',
  'CREATE VIEW shop.order_summary AS SELECT customer_id, count(*) AS n, sum(amount) AS total FROM shop.orders GROUP BY customer_id',
  `COMMENT ON TABLE shop.customers IS 'people who buy'`,
  `COMMENT ON COLUMN shop.customers.balance IS 'in EUR'`,
  `COMMENT ON VIEW shop.order_summary IS 'per customer'`,
  'CREATE SEQUENCE shop.invoice_seq START 100',
  'CREATE TABLE public.notes (id serial PRIMARY KEY, body text, at timestamptz)',
  'CREATE VIEW public.v_notes AS SELECT id, body FROM public.notes',
  `INSERT INTO shop.customers (id, name, email, balance, active) VALUES (1, 'ann', 'ann@example.com', 10.50, true), (2, 'bob', NULL, 0, false)`,
  `INSERT INTO shop.orders (id, customer_id, amount, ordered_on, note, code) VALUES (100, 1, 19.99, '2024-03-01', 'first', 'abc')`,
  `INSERT INTO public.notes (body) VALUES ('hello')`,
];

export interface SweepPair {
  readonly database: string;
  readonly lakegate: { readonly host: string; readonly port: number; readonly url: string };
  readonly postgres: { readonly host: string; readonly port: number; readonly url: string };
  close(): Promise<void>;
}

async function run(url: string, statements: readonly string[]): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    for (const sql of statements) await c.query(sql);
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** Starts lakegate serving `database` and makes a fresh `database` on the shared PostgreSQL; both get SWEEP_SCHEMA. */
export async function startSweepPair(database: string): Promise<SweepPair> {
  const cluster = await sharedPgCluster();
  await run(cluster.url, [`DROP DATABASE IF EXISTS ${database}`, `CREATE DATABASE ${database}`]);
  const pgUrl = new URL(cluster.url);
  pgUrl.pathname = `/${database}`;
  let lakegate: LakegateServer | undefined;
  try {
    lakegate = await startLakegate({ config: { databases: [database] } });
    await run(pgUrl.toString(), SWEEP_SCHEMA);
    await run(lakegate.url, SWEEP_SCHEMA);
  } catch (e) {
    await lakegate?.close();
    throw e;
  }
  const lg = lakegate;
  return {
    database,
    lakegate: { host: lg.host, port: lg.port, url: lg.url },
    postgres: { host: cluster.host, port: cluster.port, url: pgUrl.toString() },
    close: async () => {
      await lg.close();
      await run(cluster.url, [`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`]).catch(() => undefined);
    },
  };
}

/** Lines of `a` missing from `b`, as a multiset (each line of `b` matches once). */
export function linesMissing(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const l of b) left.set(l, (left.get(l) ?? 0) + 1);
  const out: string[] = [];
  for (const l of a) {
    const n = left.get(l) ?? 0;
    if (n > 0) left.set(l, n - 1);
    else out.push(l);
  }
  return out;
}

/** A pinned difference: why, and optionally the exact lines only PostgreSQL / only lakegate print. */
export interface KnownDifference {
  readonly why: string;
  readonly onlyPostgres?: readonly string[];
  readonly onlyLakegate?: readonly string[];
  /** the lines are equal as sets; only their order differs */
  readonly orderOnly?: true;
}

/**
 * How one answer compares: 'equal', or the difference as lines only PostgreSQL / only lakegate give (in order), or
 * 'order' when both give the same lines in another order.
 */
export type Comparison = 'equal' | 'order' | { readonly onlyPostgres: string[]; readonly onlyLakegate: string[] };

export function compareLines(postgres: readonly string[], lakegate: readonly string[]): Comparison {
  if (postgres.length === lakegate.length && postgres.every((l, i) => l === lakegate[i])) return 'equal';
  const onlyPostgres = linesMissing(postgres, lakegate);
  const onlyLakegate = linesMissing(lakegate, postgres);
  if (onlyPostgres.length === 0 && onlyLakegate.length === 0) return 'order';
  return { onlyPostgres, onlyLakegate };
}

/**
 * Problems of one answer against its pin: an unpinned difference, a pinned one that changed (or went away: then
 * the pin must go), or the pinned lines not matching. Empty when the answer is as pinned.
 */
export function checkAgainstPin(name: string, cmp: Comparison, pin: KnownDifference | undefined): string[] {
  if (pin === undefined) {
    if (cmp === 'equal') return [];
    if (cmp === 'order') return [`${name}: same lines in another order (unpinned)`];
    return [`${name}: differs (unpinned): only PostgreSQL ${JSON.stringify(cmp.onlyPostgres.slice(0, 8))} / only lakegate ${JSON.stringify(cmp.onlyLakegate.slice(0, 8))}`];
  }
  if (cmp === 'equal') return [`${name}: now equal to PostgreSQL — remove its pin ("${pin.why}")`];
  if (pin.orderOnly === true) return cmp === 'order' ? [] : [`${name}: pinned as order-only, but the lines differ`];
  if (cmp === 'order') return [`${name}: now differs only in order — pin it as orderOnly`];
  const out: string[] = [];
  if (pin.onlyPostgres !== undefined && JSON.stringify(pin.onlyPostgres) !== JSON.stringify(cmp.onlyPostgres)) {
    out.push(`${name}: lines only PostgreSQL prints changed: ${JSON.stringify(cmp.onlyPostgres.slice(0, 12))}`);
  }
  if (pin.onlyLakegate !== undefined && JSON.stringify(pin.onlyLakegate) !== JSON.stringify(cmp.onlyLakegate)) {
    out.push(`${name}: lines only lakegate prints changed: ${JSON.stringify(cmp.onlyLakegate.slice(0, 12))}`);
  }
  return out;
}

/** One sweep's verdict, answer by answer: lakegate errors where PostgreSQL has none, and answers off their pins. */
export class SweepCheck {
  readonly errors: string[] = [];
  readonly problems: string[] = [];
  /** the differences in pin form, printed with SWEEP_PRINT=1 (to write or update pins) */
  private readonly proposed: Record<string, unknown> = {};

  constructor(
    private readonly known: Readonly<Record<string, KnownDifference>>,
    private readonly isError: (line: string) => boolean,
  ) {}

  add(name: string, pgLines: readonly string[], lgLines: readonly string[]): void {
    const lgError = lgLines.find(this.isError);
    if (lgError !== undefined && !pgLines.some(this.isError)) this.errors.push(`${name}: ${lgError}`);
    const cmp = compareLines(pgLines, lgLines);
    this.problems.push(...checkAgainstPin(name, cmp, this.known[name]));
    if (cmp !== 'equal') this.proposed[name] = cmp === 'order' ? { orderOnly: true } : { onlyPostgres: cmp.onlyPostgres.slice(0, 6), onlyLakegate: cmp.onlyLakegate.slice(0, 6) };
  }

  printProposedPins(): void {
    if (process.env.SWEEP_PRINT === '1') console.log(JSON.stringify(this.proposed, null, 1));
  }
}

/**
 * A client program's sweep output against each server ("## <section>" headers, lines, a final DONE), parsed by
 * `sections`, compared section by section; `EXC…` lines are the client's exceptions. Fails the calling test.
 */
export function expectSectionsAgree(pgOut: string, lgOut: string, sections: (out: string) => Map<string, string[]>, known: Readonly<Record<string, KnownDifference>>): void {
  expect(pgOut).toContain('DONE');
  expect(lgOut).toContain('DONE');
  const pg = sections(pgOut);
  const lg = sections(lgOut);
  expect([...lg.keys()]).toEqual([...pg.keys()]);
  const check = new SweepCheck(known, (l) => l.startsWith('EXC'));
  for (const [name, pgLines] of pg) check.add(name, pgLines, lg.get(name) ?? []);
  check.printProposedPins();
  expect(check.errors).toEqual([]);
  expect(check.problems).toEqual([]);
}
