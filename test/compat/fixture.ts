/**
 * The data every compat client reads: schema <name> with customers / orders (PK, FK, index, comments) and a
 * view, like the reference database of ../shared/design/clients-and-parsers.md. Plain PostgreSQL DDL: on
 * lakegate it needs CREATE SCHEMA / TABLE / VIEW (constraints may be accepted as metadata).
 */
export interface FixtureStatement {
  readonly sql: string;
  /** a feature lakegate may refuse with 0A000; the checks that need it are then skipped (COMPAT_NO_<FEATURE>=1) */
  readonly optional?: 'index';
}

/** The fixture as separate statements, so that an optional one can fail alone. */
export function fixtureStatements(schema: string): FixtureStatement[] {
  return fixtureSql(schema)
    .split(/;\s*\n/)
    .map((sql) => sql.trim())
    .filter((sql) => sql.length > 0)
    .map((sql) => (sql.startsWith('CREATE INDEX') ? { sql, optional: 'index' as const } : { sql }));
}

export function fixtureSql(schema: string): string {
  return `
DROP SCHEMA IF EXISTS ${schema} CASCADE;
CREATE SCHEMA ${schema};
CREATE TABLE ${schema}.customers (
  id integer PRIMARY KEY,
  name text NOT NULL,
  email varchar(80),
  balance numeric(12,2),
  created timestamptz DEFAULT '2024-01-01 00:00:00+00',
  active boolean DEFAULT true
);
CREATE TABLE ${schema}.orders (
  id bigint PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES ${schema}.customers (id),
  amount numeric(10,2),
  ordered_on date,
  ordered_at timestamp,
  ratio double precision,
  note varchar(40)
);
CREATE INDEX orders_customer_idx ON ${schema}.orders (customer_id);
CREATE VIEW ${schema}.order_summary AS
  SELECT customer_id, count(*) AS n, sum(amount) AS total FROM ${schema}.orders GROUP BY customer_id;
COMMENT ON TABLE ${schema}.customers IS 'people who buy';
COMMENT ON COLUMN ${schema}.customers.balance IS 'in EUR';
INSERT INTO ${schema}.customers (id, name, email, balance, active) VALUES
  (1, 'ann', 'ann@example.com', 10.50, true),
  (2, 'bob', NULL, 0, false),
  (3, 'cid', 'cid@example.com', 1234.56, true);
INSERT INTO ${schema}.orders VALUES
  (100, 1, 19.99, '2024-03-01', '2024-03-01 10:00:00', 0.5, 'first'),
  (101, 1, 5.00, '2024-03-02', '2024-03-02 11:30:00', 0.25, NULL),
  (102, 3, 250.00, '2024-04-15', '2024-04-15 09:15:00', 1.5, 'big');
`;
}
