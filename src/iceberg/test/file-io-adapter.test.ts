import { describe, expect, it } from 'vitest';
import { FileIO } from '../../storage/index.ts';
import { icebergIOFromFileIO } from '../io.ts';
import { IcebergTableSource } from '../iceberg-table-source.ts';
import { findLatestMetadataFile } from '../spec/metadata-file.ts';
import { FIXTURES } from './fixture-helpers.ts';

describe('IcebergIO over storage FileIO (path maps)', () => {
  const fileIO = new FileIO({
    pathMap: [
      `s3a://hyperparam-iceberg/spark/bunnies=${FIXTURES}/icebird-spark-bunnies`,
      `file://data/persistent/map_stats=${FIXTURES}/duckdb-map_stats`,
    ],
  });
  const io = icebergIOFromFileIO(fileIO);

  it('reads a table with position deletes through FileIO', async () => {
    const t = await IcebergTableSource.load(io, await findLatestMetadataFile(io, 's3a://hyperparam-iceberg/spark/bunnies'));
    let n = 0;
    for await (const b of t.scan({ signal: new AbortController().signal })) n += b.length;
    expect(n).toBe(20);
  });

  it('lists the metadata folder when version-hint.text is missing', async () => {
    expect(await findLatestMetadataFile(io, 'file://data/persistent/map_stats/default.db/map_stats')).toBe(
      'file://data/persistent/map_stats/default.db/map_stats/metadata/00002-0e059d4b-e5e8-41af-a763-76cbf3a3d0bc.metadata.json',
    );
  });
});
