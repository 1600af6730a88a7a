import { test, expect } from 'vitest';
import { ParquetDataWriter } from '../write/parquet-data-writer.ts';
import { readParquetColumns } from '../read/parquet-reader.ts';
import { parseSchema } from '../spec/schema.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
test('x', async () => {
  const files = new Map<string, Uint8Array>();
  const io = { read: async (u: string) => files.get(u)!, readRange: async () => new Uint8Array(), write: async (u: string, d: Uint8Array) => { files.set(u, d); }, writeIfAbsent: async () => true };
  const schema = parseSchema({ type: 'struct', 'schema-id': 0, fields: [
    { id: 1, name: 'a', required: true, type: 'int' }, { id: 2, name: 'b', required: false, type: 'decimal(10, 2)' },
    { id: 3, name: 'c', required: false, type: 'string' }, { id: 4, name: 'd', required: false, type: 'timestamptz' }, { id: 5, name: 'u', required: false, type: 'uuid' }] });
  const w = new ParquetDataWriter(io, 'mem://x/data', schema);
  await w.add({ length: 2, columns: [[1, 2], [Numeric.parse('1.5'), null], ['x', null], [5n, null], ['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', null]] });
  const [f] = await w.close();
  console.log(f!.path, f!.fileSizeInBytes, f!.metrics.map((m) => [m.valueCount, m.nullCount, m.lowerBound(), m.upperBound()]));
  for await (const c of readParquetColumns(files.get(f!.path)!, f!.path, schema.fields.map((x) => ({ fieldId: x.id, type: x.type, missingValue: 'MISSING' })))) console.log(c.columns);
});
