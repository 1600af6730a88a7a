/**
 * Finding and loading a table's metadata file. `metadata/version-hint.text` (Hadoop-style tables) may hold
 * an int version (`7` → `v7.metadata.json`), a file stem (`v3`, `00002-<uuid>`), or be missing; then the
 * metadata folder is listed and the highest version wins. `.gz.metadata.json` files are gunzipped.
 */
import { gunzipSync } from 'node:zlib';
import { pgError } from '../../common/errors.ts';
import type { IcebergIO } from '../io.ts';
import { parseTableMetadata, type TableMetadata } from './table-metadata.ts';
import { fileReadError } from '../read-errors.ts';

/** A missing file is 58030 (from IcebergIO); unreadable content (gzip, JSON, required fields) is XX001 naming the file. */
export async function loadTableMetadata(io: IcebergIO, metadataUri: string): Promise<TableMetadata> {
  let bytes = await io.read(metadataUri);
  try {
    if (metadataUri.endsWith('.gz.metadata.json') || metadataUri.endsWith('.metadata.json.gz') || (bytes[0] === 0x1f && bytes[1] === 0x8b)) {
      bytes = gunzipSync(bytes);
    }
    return parseTableMetadata(new TextDecoder().decode(bytes));
  } catch (e) {
    throw fileReadError('table metadata', metadataUri, e);
  }
}

/** version number of a metadata file name: `v12.metadata.json` → 12, `00012-<uuid>.metadata.json` → 12 */
export function metadataFileVersion(name: string): number | null {
  const m = /^v?(\d+)(?:-[^/]*)?\.(?:gz\.)?metadata\.json(?:\.gz)?$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** URI of the latest metadata file of the table whose root folder is `tableUri`. */
export async function findLatestMetadataFile(io: IcebergIO, tableUri: string): Promise<string> {
  const folder = tableUri.replace(/\/+$/, '') + '/metadata';
  let names: string[] | null = null;
  const listing = async (): Promise<string[]> => (names ??= io.list ? await io.list(folder) : []);

  let hint: string | null = null;
  try {
    hint = new TextDecoder().decode(await io.read(`${folder}/version-hint.text`)).trim();
  } catch {
    hint = null; // missing hint: fall back to listing
  }
  if (hint) {
    if (/^\d+$/.test(hint)) {
      const version = Number(hint);
      const all = await listing();
      const exact = [`v${version}.metadata.json`, `v${version}.gz.metadata.json`].find((n) => all.includes(n));
      const named = exact ?? all.find((n) => metadataFileVersion(n) === version);
      // without a listing, trust the Hadoop naming
      return `${folder}/${named ?? `v${version}.metadata.json`}`;
    }
    const name = hint.endsWith('.json') ? hint : `${hint}.metadata.json`;
    return name.includes('/') ? name : `${folder}/${name}`;
  }
  let best: { name: string; version: number } | null = null;
  for (const n of await listing()) {
    const v = metadataFileVersion(n);
    if (v !== null && (best === null || v > best.version)) best = { name: n, version: v };
  }
  if (!best) throw pgError('58030', `no Iceberg metadata file found under "${folder}"`);
  return `${folder}/${best.name}`;
}
