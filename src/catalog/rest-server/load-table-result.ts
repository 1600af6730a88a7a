/**
 * LoadTableResult `{ metadata-location, metadata, config }`. The metadata file's own text is spliced into
 * the response unparsed, so 64-bit snapshot ids and sequence numbers reach the client exactly as written
 * (a JSON.parse/stringify round trip would round them through a double).
 */
import { gunzipSync } from 'node:zlib';
import { GatewayError } from '../../common/errors.ts';
import { SqlState } from '../../common/sqlstate.ts';
import type { RestMetadataIO, RestResponse } from './rest-request.ts';

export async function readMetadataText(io: RestMetadataIO, location: string): Promise<string> {
  let bytes = await io.read(location);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes); // .gz.metadata.json
  const text = new TextDecoder().decode(bytes).trim();
  if (!text.startsWith('{') || !text.endsWith('}')) {
    throw new GatewayError(SqlState.io_error, `metadata file "${location}" is not a JSON object`);
  }
  return text;
}

export async function loadTableResult(io: RestMetadataIO, metadataLocation: string, config: Readonly<Record<string, string>> = {}): Promise<RestResponse> {
  const text = await readMetadataText(io, metadataLocation);
  return {
    status: 200,
    body: `{"metadata-location":${JSON.stringify(metadataLocation)},"metadata":${text},"config":${JSON.stringify(config)}}`,
  };
}
