/**
 * Iceberg tables written by Spark, Java and PyIceberg, registered through `CALL system.register_table` and
 * queried over the wire with the path map relocating their files: answers from the fixtures' expected.json.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const FIXTURES = join(import.meta.dirname, '../../../shared/fixtures/iceberg');
const PATH_MAP = [
  `s3a://hyperparam-iceberg/spark/bunnies=${FIXTURES}/icebird-spark-bunnies`,
  `s3a://hyperparam-iceberg/spark/rename_column=${FIXTURES}/icebird-spark-rename_column`,
  `lineitem_iceberg=${FIXTURES}/duckdb-lineitem_iceberg`,
  `data/persistent/iceberg_v1_deprecated=${FIXTURES}/duckdb-iceberg_v1_deprecated`,
];

const passthrough = { getTypeParser: () => (v: string) => v };

describe('Iceberg fixtures through the wire', () => {
  let server: LakegateServer;
  let client: pg.Client;
  const q = async (sql: string): Promise<string[][]> => {
    const r = await client.query({ text: sql, rowMode: 'array' });
    return (r.rows as unknown[][]).map((row) => row.map((v) => (v === null ? 'NULL' : String(v))));
  };

  beforeAll(async () => {
    server = await startLakegate({ config: { path_map: PATH_MAP } });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
  });

  afterAll(async () => {
    await client?.end();
    await server?.close();
  });

  it('registers tables by metadata file or by table location (latest version)', async () => {
    await q(`CALL system.register_table(schema_name => 'lake', table_name => 'lineitem', table_location => 'lineitem_iceberg')`);
    await q(`CALL system.register_table('lake', 'bunnies', NULL, NULL, 's3a://hyperparam-iceberg/spark/bunnies/metadata/v5.metadata.json')`);
    await q(`CALL system.register_table(schema_name => 'lake', table_name => 'legacy', table_location => 'data/persistent/iceberg_v1_deprecated/default/legacy_v1')`);
    expect(await q(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'lake' ORDER BY 1`)).toEqual([['bunnies'], ['legacy'], ['lineitem']]);
  });

  it('answers TPC-H Q6 exactly, now and at the first snapshot', async () => {
    const q6 = (asOf: string) => `SELECT sum(l_extendedprice * l_discount) FROM lake.lineitem ${asOf}
      WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24`;
    expect(await q(q6(''))).toEqual([['1077536.9101']]);
    expect(await q(q6('FOR SYSTEM_VERSION AS OF 7817332053627255703'))).toEqual([['1193053.2253']]);
    expect(await q('SELECT count(*) FROM lake.lineitem')).toEqual([['51793']]);
  });

  it('reads position deletes, an added column and names with spaces', async () => {
    expect(await q('SELECT count(*) FROM lake.bunnies')).toEqual([['20']]);
    expect(await q(`SELECT count(*) FROM lake.bunnies WHERE "Breed Name" = 'Holland Lop'`)).toEqual([['0']]);
    expect(await q('SELECT count(*) FROM lake.bunnies FOR SYSTEM_VERSION AS OF 7505300640432048841')).toEqual([['21']]);
  });

  it('reads deprecated v1 metadata', async () => {
    expect(await q('SELECT * FROM lake.legacy ORDER BY 1')).toEqual([['1', 'alpha', '10'], ['2', 'beta', '20'], ['3', 'alpha', 'NULL']]);
  });

  it('gives clear errors and keeps serving', async () => {
    await expect(q(`CALL system.register_table(schema_name => 'lake', table_name => 'nope', metadata_file => '/nonexistent/v1.metadata.json')`)).rejects.toMatchObject({ code: '58030' });
    await expect(q(`CALL system.register_table(schema_name => 'nope', table_name => 't', table_location => 'lineitem_iceberg')`)).rejects.toMatchObject({ code: '3F000' });
    await expect(q('SELECT count(*) FROM lake.lineitem FOR SYSTEM_VERSION AS OF 1234')).rejects.toMatchObject({ code: '22023' });
    expect(await q('SELECT 1')).toEqual([['1']]);
  });

  it('drops the catalog pointer with DROP TABLE and persists across restarts of the engine', async () => {
    await q('DROP TABLE lake.legacy');
    await expect(q('SELECT * FROM lake.legacy')).rejects.toMatchObject({ code: '42P01' });
    const again = await startLakegate({ config: { path_map: PATH_MAP, warehouse: server.warehouse } });
    const other = new pg.Client({ connectionString: again.url, types: passthrough as never });
    await other.connect();
    try {
      const r = await other.query({ text: 'SELECT count(*) FROM lake.lineitem', rowMode: 'array' });
      expect(r.rows).toEqual([['51793']]);
    } finally {
      await other.end();
      await again.close();
    }
  });
});
