/**
 * psql meta-commands (`psql -X`): each must run without ERROR and show the fixture's names.
 * psql picks its catalog SQL from the server_version it is sent, so this also checks that lakegate
 * reports a version psql 15 talks to with its modern queries.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPgBinDir } from '../helpers/pg-cluster.ts';
import { commandExists, prepareCompat, runClient, skipReason, type CompatEnv } from './compat-target.ts';

const binDir = findPgBinDir();
const psql = binDir && existsSync(join(binDir, 'psql')) ? join(binDir, 'psql') : commandExists('psql') ? 'psql' : null;
const skip = skipReason('psql', psql ? null : 'psql (postgresql-client)');

const S = 'compat_psql';
/** meta-command → strings its output must contain */
const CASES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['\\l', ['Name', 'Encoding', 'UTF8']],
  ['\\dn', [S, 'public']],
  [`\\dt ${S}.*`, ['customers', 'orders', 'table']],
  [`\\dv ${S}.*`, ['order_summary', 'view']],
  [`\\d ${S}.customers`, ['Table "compat_psql.customers"', 'integer', 'numeric(12,2)', 'not null', 'customers_pkey', 'PRIMARY KEY, btree (id)', 'Referenced by']],
  [`\\d+ ${S}.orders`, ['Table "compat_psql.orders"', 'bigint', 'character varying(40)', 'orders_customer_idx', 'Foreign-key constraints', 'REFERENCES compat_psql.customers(id)']],
  [`\\d+ ${S}.customers`, ['in EUR', 'Access method']],
  [`\\dt+ ${S}.customers`, ['people who buy']],
  [`\\d+ ${S}.order_summary`, ['View "compat_psql.order_summary"', 'View definition']],
  ['\\df', ['List of functions']],
  ['\\du', ['Role name', 'Attributes']],
  ['\\conninfo', ['You are connected to database']],
];

describe.skipIf(skip !== null)(`psql${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let ctx: CompatEnv;
  beforeAll(async () => {
    ctx = await prepareCompat('psql');
  });
  afterAll(async () => {
    await ctx?.close();
  });
  for (const [command, needles] of CASES) {
    it(command, async () => {
      const out = await runClient(psql ?? 'psql', ['-X', '-v', 'ON_ERROR_STOP=1', '-P', 'pager=off', '-c', command], ctx.env, 30_000);
      expect(out).not.toMatch(/ERROR|FATAL|invalid/);
      for (const n of needles) {
        if (n === 'orders_customer_idx' && ctx.env.COMPAT_NO_INDEX === '1') continue;
        expect(out, `${command} output:\n${out}`).toContain(n);
      }
    });
  }
});

if (skip !== null) it.skip(`psql: ${skip}`, () => {});
