/**
 * psql 15's describe meta-commands against lakegate and against PostgreSQL 15 holding the same schema
 * (sweep/sweep-pair.ts), unaligned output, sizes normalised. Each command must not error where PostgreSQL does not;
 * its output must equal PostgreSQL's unless KNOWN pins the difference (exact lines where they are short), so a fix
 * or a regression shows up as a test change. SWEEP_PRINT=1 prints every difference as a pin to paste.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgBinDir } from '../helpers/pg-cluster.ts';
import { runClient } from './compat-target.ts';
import { startSweepPair, SweepCheck, type KnownDifference, type SweepPair } from './sweep/sweep-pair.ts';

const COMMANDS: readonly string[] = [
  '\\d', '\\d+', '\\d shop.*', '\\d shop.customers', '\\d+ shop.customers', '\\d shop.orders', '\\d+ shop.orders',
  '\\d shop.order_summary', '\\d+ shop.order_summary', '\\d+ v_notes', '\\d notes', '\\d+ notes', '\\d notes_id_seq',
  '\\d shop.invoice_seq', '\\d shop.orders_pkey', '\\d+ shop.orders_code_uidx', '\\d shop.orders_customer_idx',
  '\\dt', '\\dt+', '\\dt shop.*', '\\dt+ shop.*', '\\di', '\\di+ shop.*', '\\di shop.*', '\\ds', '\\ds+ shop.*',
  '\\dv', '\\dv+ shop.*', '\\dm', '\\dn', '\\dn+', '\\df', '\\df+ shop.*', '\\dfS+ now', '\\dfS', '\\dfa', '\\dfw',
  '\\dT', '\\dT+', '\\dT+ shop.*', '\\dTS', '\\dD', '\\dDS', '\\dC', '\\dC+ bigint', '\\dc', '\\dcS', '\\dcS+', '\\dconfig',
  '\\dconfig work_mem', '\\dp', '\\dp shop.*', '\\z shop.*', '\\ddp', '\\dx', '\\dx+', '\\dy', '\\dE', '\\des', '\\dew',
  '\\det', '\\deu', '\\dL', '\\dLS', '\\dO', '\\dP', '\\dP+', '\\drds', '\\dRp', '\\dRs', '\\dg', '\\du', '\\du+', '\\l',
  '\\l+', '\\db', '\\db+', '\\da', '\\daS', '\\dA', '\\dA+', '\\dAc', '\\dAf', '\\dAf btree', '\\dAc+ hash', '\\dAo btree', '\\dAp btree', '\\do',
  '\\doS ||', '\\dF', '\\dF+', '\\dF+ english', '\\dFd', '\\dFp', '\\dFt', '\\dd', '\\ddS', '\\dX', '\\drg', '\\sf now',
  '\\sf+ pg_catalog.lower', '\\sv shop.order_summary', '\\sv+ v_notes',
  // system objects
  '\\dS', '\\dtS', '\\dvS', '\\diS', '\\dsS', '\\dt information_schema.*', '\\dv information_schema.*',
  '\\d information_schema.tables', '\\d pg_catalog.pg_class', '\\d+ pg_catalog.pg_stat_activity', '\\d pg_catalog.pg_class_oid_index',
  '\\dT pg_catalog.int*', '\\doS+ =', '\\dfS+ lower', '\\df+ pg_catalog.length', '\\dx+ plpgsql', '\\dAc btree int4', '\\dy+',
  '\\dconfig search_path', '\\dconfig *statement*', '\\dpS pg_catalog.pg_class', '\\dD information_schema.*',
  '\\dT+ information_schema.*', '\\dl', '\\d pg_catalog.*', '\\d information_schema.*', '\\dT+ pg_catalog.*', '\\dD+', '\\dx+',
];

const MISSING_BUILTINS = 'lakegate lists only the built-ins it implements (no ranges, geometry, text search, xml, …)';

/** The differences that remain, pinned. Exact lines where they are few. */
const KNOWN: Readonly<Record<string, KnownDifference>> = {
  '\\dfS': { why: MISSING_BUILTINS },
  '\\daS': { why: MISSING_BUILTINS },
  '\\dC': { why: `${MISSING_BUILTINS}: casts of bit, money, geometric, range, xml and macaddr8 types` },
  '\\dn+': {
    why: "public's ACL: lakegate has no aclitem type I/O, so nspacl is NULL",
    onlyPostgres: ['public|pg_database_owner|pg_database_owner=UC/pg_database_owner', '=U/pg_database_owner|standard public schema'],
    onlyLakegate: ['public|pg_database_owner||standard public schema'],
  },
  '\\doS ||': { why: `${MISSING_BUILTINS}: || of bit varying, tsquery, tsvector` },
  '\\dAo btree': { why: 'pg_amop is empty' },
  '\\dAp btree': { why: 'pg_amproc is empty' },
  '\\sf+ pg_catalog.lower': { why: 'PostgreSQL errors: lower() also has range and multirange forms, which lakegate lacks' },
  '\\d+ pg_catalog.pg_stat_activity': { why: "system views' definitions are not PostgreSQL's (lakegate computes their rows)" },
  '\\doS+ =': { why: `${MISSING_BUILTINS}: = of aclitem, enums, ranges, geometry, macaddr, …` },
  '\\dfS+ lower': { why: `${MISSING_BUILTINS}: lower(anyrange), lower(anymultirange)` },
  '\\df+ pg_catalog.length': { why: `${MISSING_BUILTINS}: length(bytea, name), length(lseg), length(path), length(tsvector)` },
  '\\dconfig *statement*': { why: 'pg_settings lacks the log_* settings lakegate does not have' },
  '\\dpS pg_catalog.pg_class': { why: "the system catalogs' ACLs: lakegate has no aclitem type I/O, so relacl is NULL" },
  '\\dconfig': { why: "non-default settings are the server's own (config file, port, data directory)" },
  '\\l': { why: 'lakegate serves only its configured databases (no postgres, template0, template1)' },
  '\\l+': { why: 'lakegate serves only its configured databases; sizes' },
  '\\du': { why: 'lakegate lists its own roles' },
  '\\du+': { why: 'lakegate lists its own roles' },
  '\\dg': { why: 'lakegate lists its own roles' },
};

/** sizes and the database name of other test files' databases are not ours to compare */
function normalise(out: string): string[] {
  return out
    .replace(/\b\d+ (bytes|kB|MB|GB)\b/g, 'SIZE')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('[stderr]'));
}

const psqlBin = ((): string | null => {
  const dir = findPgBinDir();
  return dir === null ? null : join(dir, 'psql');
})();

async function psql(host: string, port: number, database: string, command: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: '10', PGTZ: 'UTC', PGOPTIONS: '' };
  delete env.PGPASSWORD;
  // ON_ERROR_STOP off: an ERROR is part of the answer compared
  return runClient(psqlBin!, ['-X', '-A', '-h', host, '-p', String(port), '-U', 'postgres', '-d', database, '-c', command], env, 60_000)
    .catch((e: Error) => e.message.replace(/^.*exited \d+\n/, ''));
}

describe.skipIf(process.env.PG_COMPAT === '1' || psqlBin === null)('psql 15 describe meta-commands, lakegate vs PostgreSQL', () => {
  let pair: SweepPair;

  beforeAll(async () => {
    pair = await startSweepPair('sweep_psql');
  }, 120_000);
  afterAll(async () => {
    await pair?.close();
  });

  it('every command answers as PostgreSQL does, or as pinned', async () => {
    const check = new SweepCheck(KNOWN, (l) => l.includes('ERROR'));
    for (const cmd of COMMANDS) {
      const [pgOut, lgOut] = await Promise.all([
        psql(pair.postgres.host, pair.postgres.port, pair.database, cmd),
        psql(pair.lakegate.host, pair.lakegate.port, pair.database, cmd),
      ]);
      check.add(cmd, normalise(pgOut), normalise(lgOut));
    }
    check.printProposedPins();
    expect(check.errors).toEqual([]);
    expect(check.problems).toEqual([]);
  }, 240_000);

  it('pinned: COMMENT ON SCHEMA is refused (0A000), so \\dn+ shows no description for an Iceberg namespace', async () => {
    const out = await psql(pair.lakegate.host, pair.lakegate.port, pair.database, "COMMENT ON SCHEMA shop IS 'the shop'");
    expect(out).toContain('COMMENT ON SCHEMA is not supported');
  });
});
