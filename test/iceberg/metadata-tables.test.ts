/**
 * Trino-style metadata tables (`"t$snapshots"`, `"t$files"`…) and the snapshot procedures
 * (rollback_to_snapshot, set_current_snapshot) over the shared fixtures, copied to a temp folder because
 * the procedures write new metadata files. Answers from the fixtures' expected.json.
 */
import { chmodSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLakegate, type LakegateServer } from '../helpers/lakegate-server.ts';

const FIXTURES = join(import.meta.dirname, '../../../shared/fixtures/iceberg');
const passthrough = { getTypeParser: () => (v: string) => v };

function copyWritable(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
  const walk = (p: string): void => {
    chmodSync(p, statSync(p).isDirectory() ? 0o755 : 0o644);
    if (statSync(p).isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(to);
}

const LINEITEM_V1 = '7817332053627255703';
const LINEITEM_V2 = '2354745328521181395';
const BUNNIES = ['7505300640432048841', '469881615898633426', '2701171901096418979'];

describe('Iceberg metadata tables and snapshot procedures', () => {
  let dir: string;
  let server: LakegateServer;
  let client: pg.Client;
  const q = async (sql: string): Promise<string[][]> => {
    const r = await client.query({ text: sql, rowMode: 'array' });
    return (r.rows as unknown[][]).map((row) => row.map((v) => (v === null ? 'NULL' : String(v))));
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lakegate-mt-'));
    for (const f of ['duckdb-lineitem_iceberg', 'icebird-spark-bunnies', 'icebird-spark-rename_column']) copyWritable(join(FIXTURES, f), join(dir, f));
    server = await startLakegate({
      config: {
        path_map: [
          `s3a://hyperparam-iceberg/spark/bunnies=${dir}/icebird-spark-bunnies`,
          `s3a://hyperparam-iceberg/spark/rename_column=${dir}/icebird-spark-rename_column`,
          `lineitem_iceberg=${dir}/duckdb-lineitem_iceberg`,
        ],
      },
    });
    client = new pg.Client({ connectionString: server.url, types: passthrough as never });
    await client.connect();
    await client.query('CREATE SCHEMA lake');
    await q(`CALL system.register_table(schema_name => 'lake', table_name => 'lineitem', table_location => 'lineitem_iceberg')`);
    await q(`CALL system.register_table(schema_name => 'lake', table_name => 'bunnies', metadata_file => 's3a://hyperparam-iceberg/spark/bunnies/metadata/v5.metadata.json')`);
    await q(`CALL system.register_table(schema_name => 'lake', table_name => 'renamed', metadata_file => 's3a://hyperparam-iceberg/spark/rename_column/metadata/v3.metadata.json')`);
  });

  afterAll(async () => {
    await client?.end();
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('$snapshots: ids, parents, operations, manifest lists and the summary as jsonb', async () => {
    expect(await q(`SELECT snapshot_id, parent_id, operation, summary->>'total-records', manifest_list LIKE 'lineitem_iceberg/metadata/snap-%' FROM lake."lineitem$snapshots" ORDER BY committed_at`)).toEqual([
      [LINEITEM_V1, 'NULL', 'append', '60175', 't'],
      [LINEITEM_V2, LINEITEM_V1, 'overwrite', '51793', 't'],
    ]);
    expect(await q(`SELECT committed_at FROM lake."lineitem$snapshots" WHERE snapshot_id = ${LINEITEM_V2}`)).toEqual([['2025-05-02 12:21:20.005+00']]);
    expect(await q(`SELECT pg_typeof(summary)::text, pg_typeof(committed_at)::text FROM lake."bunnies$snapshots" LIMIT 1`)).toEqual([['jsonb', 'timestamp with time zone']]);
    expect(await q(`SELECT snapshot_id FROM lake."bunnies$snapshots" ORDER BY committed_at`)).toEqual(BUNNIES.map((b) => [b]));
  });

  it('$history: the snapshot log with current-ancestor flags', async () => {
    expect(await q(`SELECT snapshot_id, parent_id, is_current_ancestor FROM lake."bunnies$history" ORDER BY made_current_at`)).toEqual([
      [BUNNIES[0]!, 'NULL', 't'], [BUNNIES[1]!, BUNNIES[0]!, 't'], [BUNNIES[2]!, BUNNIES[1]!, 't'],
    ]);
  });

  it('$manifests: per-manifest counts (the copy-on-write DELETE shows as a deleted data file)', async () => {
    expect(await q(`SELECT added_snapshot_id, added_data_files_count, added_rows_count, existing_data_files_count, deleted_data_files_count, deleted_rows_count, content
      FROM lake."lineitem$manifests" ORDER BY path`)).toEqual([
      [LINEITEM_V2, '0', '0', '0', '1', '60175', '0'],
      [LINEITEM_V2, '1', '51793', '0', '0', '0', '0'],
    ]);
    expect(await q(`SELECT partition_spec_id, partition_summaries->1->>'lower_bound', partition_summaries->1->>'contains_null' FROM lake."renamed$manifests"`)).toEqual([['0', '2022-01-01', 'true']]);
  });

  it('$files: live files only, with metrics and decoded bounds', async () => {
    expect(await q(`SELECT content, file_path, file_format, record_count, file_size_in_bytes, lower_bounds->>'11', upper_bounds->>'11' FROM lake."lineitem$files"`)).toEqual([
      ['0', 'lineitem_iceberg/data/00000-5-dad9988f-2a3b-464c-adb6-6034de93da19-00001.parquet', 'PARQUET', '51793', '1225526', '1992-01-04', '1998-11-29'],
    ]);
    // the DELETED entry of the copy-on-write overwrite is not a current file, but $entries keeps it
    expect(await q(`SELECT count(*) FROM lake."lineitem$files" WHERE file_path LIKE '%66fee7c2%'`)).toEqual([['0']]);
    expect(await q(`SELECT status, data_file->>'record_count' FROM lake."lineitem$entries" WHERE data_file->>'file_path' LIKE '%66fee7c2%'`)).toEqual([['2', '60175']]);
    // bunnies: the rewritten data file plus the still-live (dangling) position-delete file
    expect(await q(`SELECT content, record_count, value_counts->>'1', null_value_counts->>'9', lower_bounds->>'2147483546' LIKE 's3a://%' FROM lake."bunnies$files" ORDER BY content`)).toEqual([
      ['0', '20', '20', '0', 'NULL'], ['1', '1', 'NULL', 'NULL', 't'],
    ]);
    expect(await q(`SELECT partition::text, record_count FROM lake."renamed$files" ORDER BY record_count, file_path`)).toEqual([
      ['{"date": "2022-01-02", "id_bucket": 2}', '1'], ['{"date": null, "id_bucket": 3}', '1'], ['{"date": "2022-01-01", "id_bucket": 0}', '2'],
    ]);
  });

  it('$partitions: record, file and size totals per partition', async () => {
    expect(await q(`SELECT partition->>'id_bucket', partition->>'date', record_count, file_count FROM lake."renamed$partitions" ORDER BY 1`)).toEqual([
      ['0', '2022-01-01', '2', '1'], ['2', '2022-01-02', '1', '1'], ['3', 'NULL', '1', '1'],
    ]);
    expect(await q(`SELECT partition::text, record_count, file_count, total_size FROM lake."lineitem$partitions"`)).toEqual([['{}', '51793', '1', '1225526']]);
  });

  it('$refs, $properties, $metadata_log_entries', async () => {
    expect(await q(`SELECT * FROM lake."lineitem$refs"`)).toEqual([['main', 'BRANCH', LINEITEM_V2, 'NULL', 'NULL', 'NULL']]);
    expect(await q(`SELECT value FROM lake."bunnies$properties" WHERE key = 'write.delete.mode'`)).toEqual([['merge-on-read']]);
    expect(await q(`SELECT count(*) FROM lake."bunnies$metadata_log_entries"`)).toEqual([['4']]);
  });

  it('time travel on snapshot-scoped metadata tables', async () => {
    expect(await q(`SELECT record_count FROM lake."lineitem$files" FOR SYSTEM_VERSION AS OF ${LINEITEM_V1}`)).toEqual([['60175']]);
    expect(await q(`SELECT count(*) FROM lake."bunnies$files" FOR SYSTEM_VERSION AS OF ${BUNNIES[0]}`)).toEqual([['1']]);
  });

  it('resolves by name only: unqualified through search_path, never listed in pg_class', async () => {
    expect(await q(`SELECT count(*) FROM pg_class WHERE relname LIKE '%$%'`)).toEqual([['0']]);
    expect(await q(`SELECT count(*) FROM information_schema.tables WHERE table_name LIKE '%$%'`)).toEqual([['0']]);
    await q('SET search_path = lake, public');
    try {
      expect(await q(`SELECT count(*) FROM "lineitem$snapshots"`)).toEqual([['2']]);
    } finally {
      await q('RESET search_path');
    }
    await expect(q(`SELECT * FROM lake."lineitem$nope"`)).rejects.toMatchObject({ code: '42P01' });
    await expect(q(`SELECT * FROM lake."nosuch$files"`)).rejects.toMatchObject({ code: '42P01' });
    await expect(q(`SELECT * FROM "lineitem$files"`)).rejects.toMatchObject({ code: '42P01' });
  });

  it('rollback_to_snapshot and set_current_snapshot write a new metadata file and move the pointer', async () => {
    expect(await q('SELECT count(*) FROM lake.lineitem')).toEqual([['51793']]);
    await q(`CALL system.rollback_to_snapshot('lake', 'lineitem', ${LINEITEM_V1})`);
    expect(await q('SELECT count(*) FROM lake.lineitem')).toEqual([['60175']]);
    expect(await q(`SELECT snapshot_id FROM lake."lineitem$refs"`)).toEqual([[LINEITEM_V1]]);
    expect(await q(`SELECT snapshot_id, is_current_ancestor FROM lake."lineitem$history" ORDER BY made_current_at`)).toEqual([
      [LINEITEM_V1, 't'], [LINEITEM_V2, 'f'], [LINEITEM_V1, 't'],
    ]);
    expect(await q(`SELECT record_count FROM lake."lineitem$files"`)).toEqual([['60175']]);

    // the new file: version 3 next to v2, every other field kept exactly (ids beyond 2^53 included)
    const metaDir = join(dir, 'duckdb-lineitem_iceberg/metadata');
    const written = readdirSync(metaDir).filter((n) => /^00003-.*\.metadata\.json$/.test(n));
    expect(written).toHaveLength(1);
    const text = readFileSync(join(metaDir, written[0]!), 'utf8');
    expect(text).toContain(`"current-snapshot-id": ${LINEITEM_V1}`);
    expect(text).toContain(`"snapshot-id": ${LINEITEM_V2}`);
    expect(text).toContain('"metadata-file": "lineitem_iceberg/metadata/v2.metadata.json"');
    expect(text).toContain('"write.update.mode": "merge-on-read"');

    // V2 is no ancestor of V1 any more: rollback refuses, set_current_snapshot does it
    await expect(q(`CALL system.rollback_to_snapshot('lake', 'lineitem', ${LINEITEM_V2})`)).rejects.toMatchObject({
      code: '22023', message: `Cannot roll back to snapshot, not an ancestor of the current state: ${LINEITEM_V2}`,
    });
    await q(`CALL system.set_current_snapshot(schema_name => 'lake', table_name => 'lineitem', snapshot_id => ${LINEITEM_V2})`);
    expect(await q('SELECT count(*) FROM lake.lineitem')).toEqual([['51793']]);
    expect(await q(`SELECT count(*) FROM lake."lineitem$metadata_log_entries"`)).toEqual([['3']]);

    // bunnies (v5.metadata.json → 00006-…): back to the first snapshot, 21 rows
    await q(`CALL system.rollback_to_snapshot('lake', 'bunnies', ${BUNNIES[0]})`);
    expect(await q('SELECT count(*) FROM lake.bunnies')).toEqual([['21']]);
    expect(readdirSync(join(dir, 'icebird-spark-bunnies/metadata')).filter((n) => n.startsWith('00006-'))).toHaveLength(1);
  });

  it('procedure errors', async () => {
    await expect(q(`CALL system.rollback_to_snapshot('lake', 'lineitem', 1234)`)).rejects.toMatchObject({ code: '22023', message: 'Cannot roll back to unknown snapshot id: 1234' });
    await expect(q(`CALL system.set_current_snapshot('lake', 'lineitem', 1234)`)).rejects.toMatchObject({ code: '22023' });
    await expect(q(`CALL system.set_current_snapshot('lake', 'lineitem', 'abc')`)).rejects.toMatchObject({ code: '22P02' });
    await expect(q(`CALL system.set_current_snapshot('lake', 'nope', 1234)`)).rejects.toMatchObject({ code: '42P01' });
    await expect(q(`CALL system.set_current_snapshot('lake', 'lineitem')`)).rejects.toMatchObject({ code: '22004' });
    // rolling back to the current snapshot is a no-op
    await q(`CALL system.set_current_snapshot('lake', 'lineitem', ${LINEITEM_V2})`);
    expect(await q('SELECT count(*) FROM lake.lineitem')).toEqual([['51793']]);
  });
});
