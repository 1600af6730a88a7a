/**
 * Writing table metadata JSON losslessly: integers held as bigint (snapshot ids, sequence numbers) are
 * written as bare JSON integers (lossless-json), never rounded through a double.
 */
import { stringify } from 'lossless-json';
import { pgError } from '../../common/errors.ts';
import type { IcebergWriteIO } from '../write/write-io.ts';

export function stringifyMetadata(doc: Readonly<Record<string, unknown>>): string {
  const text = stringify(doc, null, 2);
  if (text === undefined) throw pgError('XX000', 'could not serialize Iceberg table metadata');
  return text;
}

/** creates the metadata file; false when a file of that name exists already (another writer's version) */
export function writeMetadataFile(io: IcebergWriteIO, uri: string, doc: Readonly<Record<string, unknown>>): Promise<boolean> {
  return io.writeIfAbsent(uri, new TextEncoder().encode(stringifyMetadata(doc)));
}
