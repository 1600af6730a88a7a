/**
 * `rest_port` end to end: lakegate serves SQL and the Iceberg REST catalog over the same catalogs.
 * A table registered with SQL is loaded through REST and vice versa; bearer-token and OAuth2 auth.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRestCatalog } from '../catalog/rest/index.ts';
import { startServer, type RunningServer } from './main.ts';

const FIXTURES = join(import.meta.dirname, '../../../shared/fixtures/iceberg');
const BUNNIES = 's3a://hyperparam-iceberg/spark/bunnies';
const TOKEN = 'sekret-token';

describe('Iceberg REST catalog next to the wire server', () => {
  let warehouse: string;
  let server: RunningServer;
  let sql: pg.Client;
  let uri: string;

  beforeAll(async () => {
    warehouse = await mkdtemp(join(tmpdir(), 'lakegate-rest-wh-'));
    server = await startServer({
      host: '127.0.0.1', port: 0, warehouse, auth: 'trust', sample_data: false,
      databases: ['lakegate', 'analytics'], path_map: [`${BUNNIES}=${FIXTURES}/icebird-spark-bunnies`],
      rest_port: 0, rest_token: TOKEN,
    });
    uri = `http://127.0.0.1:${server.restPort!}`;
    sql = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${server.port}/lakegate` });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await server?.close();
    await rm(warehouse, { recursive: true, force: true });
  });

  it('requires the bearer token; OAuth2 client credentials with the token as secret work too', async () => {
    const bare = await fetch(`${uri}/v1/config`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({ error: { message: expect.any(String), type: 'NotAuthorizedException', code: 401 } });
    expect((await fetch(`${uri}/v1/config`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    await expect(openRestCatalog({ uri })).rejects.toMatchObject({ code: '28000' });
    await expect(openRestCatalog({ uri, credential: 'me:wrong' })).rejects.toMatchObject({ code: '28000' });
    const viaOauth = await openRestCatalog({ uri, credential: `me:${TOKEN}` });
    expect(viaOauth.properties['prefix']).toBe('lakegate');
    const viaToken = await openRestCatalog({ uri, token: TOKEN, warehouse: 'analytics' });
    expect(viaToken.properties['prefix']).toBe('analytics');
  });

  it('shows tables registered with SQL, and SQL sees tables registered through REST', async () => {
    await sql.query('CREATE SCHEMA lake');
    await sql.query(`CALL system.register_table('lake', 'bunnies', NULL, NULL, '${BUNNIES}/metadata/v5.metadata.json')`);
    const rest = await openRestCatalog({ uri, token: TOKEN });
    expect(await rest.listTables(['lake'])).toEqual([{ namespace: ['lake'], name: 'bunnies' }]);
    expect((await rest.loadTableLocation({ namespace: ['lake'], name: 'bunnies' })).metadataLocation).toBe(`${BUNNIES}/metadata/v5.metadata.json`);

    await rest.registerTable({ namespace: ['lake'], name: 'bunnies_v3' }, `${BUNNIES}/metadata/v3.metadata.json`);
    const r = await sql.query('SELECT count(*)::int AS n FROM lake.bunnies_v3');
    expect(r.rows).toEqual([{ n: 20 }]);
    await rest.renameTable({ namespace: ['lake'], name: 'bunnies_v3' }, { namespace: ['lake'], name: 'old' });
    expect((await sql.query('SELECT count(*)::int AS n FROM lake.old')).rows).toEqual([{ n: 20 }]);
    expect(await rest.dropTable({ namespace: ['lake'], name: 'old' })).toBe(true);
    await expect(sql.query('SELECT * FROM lake.old')).rejects.toMatchObject({ code: '42P01' });

    // a table created through REST is an (empty) SQL table at once
    const created = await fetch(`${uri}/v1/lakegate/namespaces/lake/tables`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'events', schema: { type: 'struct', fields: [{ id: 1, name: 'id', type: 'long', required: true }, { id: 2, name: 'note', type: 'string', required: false }] } }),
    });
    expect(created.status).toBe(200);
    expect((await sql.query('SELECT count(*)::int AS n FROM lake.events')).rows).toEqual([{ n: 0 }]);
    await sql.query(`INSERT INTO lake.events VALUES (1, 'from SQL')`);
    const loaded = (await (await fetch(`${uri}/v1/lakegate/namespaces/lake/tables/events`, { headers: { authorization: `Bearer ${TOKEN}` } })).text());
    expect(loaded).toMatch(/"operation"\s*:\s*"append"/);

    // the other database is a separate catalog
    const analytics = await openRestCatalog({ uri, token: TOKEN, warehouse: 'analytics' });
    expect(await analytics.listNamespaces()).toEqual([]);
  });
});
