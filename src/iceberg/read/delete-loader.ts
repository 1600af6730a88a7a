/**
 * Loads delete files once per scan (a delete file usually applies to many data files):
 * position deletes (§ Position Delete Files: 2147483546 file_path, 2147483545 pos) → positions per data
 * file path; equality deletes (§ Equality Delete Files) → the set of deleted key tuples over equality_ids;
 * deletion vectors (v3, § Deletion Vectors: file_format PUFFIN, content 1) → one ranged read of the
 * `deletion-vector-v1` blob at content_offset / content_size_in_bytes, the positions of referenced_data_file.
 */
import { pgError } from '../../common/errors.ts';
import { Numeric } from '../../common/pgtypes/numeric.ts';
import type { IcebergIO } from '../io.ts';
import type { DataFile } from '../spec/manifest.ts';
import type { NestedField } from '../spec/schema.ts';
import { readParquetColumns, type ParquetInput } from './parquet-reader.ts';
import { deserializeDeletionVector } from '../puffin/deletion-vector.ts';
import { fileReadError } from '../read-errors.ts';

export const DELETE_FILE_PATH_ID = 2147483546;
export const DELETE_POS_ID = 2147483545;

export interface EqualityDeleteSet {
  readonly fieldIds: readonly number[];
  readonly keys: ReadonlySet<string>;
}

/** Canonical key of a tuple of JS values; a null in a delete row matches a null in the data. */
export function tupleKey(values: readonly unknown[]): string {
  let s = '';
  for (const v of values) {
    s += v === null || v === undefined ? '\u0000N'
      : typeof v === 'bigint' ? `i${v}`
      : typeof v === 'number' ? `i${Object.is(v, -0) ? '-0' : v}`
      : typeof v === 'string' ? `s${v}`
      : typeof v === 'boolean' ? `b${v}`
      : v instanceof Uint8Array ? `x${Buffer.from(v).toString('hex')}`
      : Numeric.isNumeric(v) ? `n${v.toString()}`
      : `j${JSON.stringify(v)}`;
    s += '\u0001';
  }
  return s;
}

export class DeleteLoader {
  private readonly positions = new Map<string, Promise<Map<string, number[]>>>();
  private readonly equality = new Map<string, Promise<EqualityDeleteSet>>();

  /** `fieldById`: resolves equality field ids to their type (any schema of the table) */
  constructor(private readonly io: IcebergIO, readonly fieldById: (id: number) => NestedField | undefined) {}

  async positionsFor(deleteFile: DataFile, dataFilePath: string): Promise<readonly number[]> {
    if (deleteFile.fileFormat === 'PUFFIN') return this.deletionVector(deleteFile, dataFilePath);
    return (await this.positionsByPath(deleteFile)).get(dataFilePath) ?? [];
  }

  /**
   * the data files a position delete file (or DV) names: its referenced_data_file when set, else every
   * `file_path` in it (a v2 writer's one delete file per partition covers several data files)
   */
  async referencedPaths(deleteFile: DataFile): Promise<readonly string[]> {
    if (deleteFile.referencedDataFile !== null) return [deleteFile.referencedDataFile];
    return [...(await this.positionsByPath(deleteFile)).keys()];
  }

  /** a position delete file's positions per data file path, read once per loader */
  private positionsByPath(f: DataFile): Promise<Map<string, number[]>> {
    let p = this.positions.get(f.filePath);
    if (!p) {
      p = this.loadPositions(f);
      this.positions.set(f.filePath, p);
    }
    return p;
  }

  /** the positions of a deletion vector; it only ever applies to its referenced_data_file */
  private async deletionVector(f: DataFile, dataFilePath: string): Promise<readonly number[]> {
    if (f.referencedDataFile !== dataFilePath) return [];
    const key = `${f.filePath}\u0000${f.contentOffset}`;
    let p = this.positions.get(key);
    if (!p) {
      p = this.loadDeletionVector(f).then((positions) => new Map([[dataFilePath, positions]]));
      this.positions.set(key, p);
    }
    return (await p).get(dataFilePath) ?? [];
  }

  private async loadDeletionVector(f: DataFile): Promise<number[]> {
    if (f.contentOffset === null || f.contentSizeInBytes === null) {
      throw pgError('XX001', `deletion vector in "${f.filePath}" has no content_offset / content_size_in_bytes`);
    }
    const blob = await this.io.readRange(f.filePath, Number(f.contentOffset), Number(f.contentSizeInBytes));
    try {
      if (blob.byteLength !== Number(f.contentSizeInBytes)) throw new Error(`blob at offset ${f.contentOffset} is cut short (${blob.byteLength} of ${f.contentSizeInBytes} bytes)`);
      return deserializeDeletionVector(blob);
    } catch (e) {
      throw fileReadError('Puffin', f.filePath, e);
    }
  }

  private async loadPositions(f: DataFile): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>();
    const cols = [
      { fieldId: DELETE_FILE_PATH_ID, type: { kind: 'primitive', name: 'string' } as const, missingValue: null },
      { fieldId: DELETE_POS_ID, type: { kind: 'primitive', name: 'long' } as const, missingValue: null },
    ];
    for await (const chunk of readParquetColumns(this.input(f), f.filePath, cols)) {
      const [paths, pos] = chunk.columns as [unknown[], unknown[]];
      for (let i = 0; i < chunk.length; i++) {
        const path = paths[i] as string | null;
        if (path === null || pos[i] === null) throw pgError('XX000', `position delete file "${f.filePath}" lacks file_path/pos`);
        let list = out.get(path);
        if (!list) out.set(path, (list = []));
        list.push(Number(pos[i] as bigint));
      }
    }
    return out;
  }

  private input(f: DataFile): ParquetInput {
    return { io: this.io, size: Number(f.fileSizeInBytes) };
  }

  equalitySet(deleteFile: DataFile): Promise<EqualityDeleteSet> {
    let p = this.equality.get(deleteFile.filePath);
    if (!p) {
      p = this.loadEquality(deleteFile);
      this.equality.set(deleteFile.filePath, p);
    }
    return p;
  }

  private async loadEquality(f: DataFile): Promise<EqualityDeleteSet> {
    const ids = f.equalityIds ?? [];
    if (ids.length === 0) throw pgError('XX000', `equality delete file "${f.filePath}" has no equality_ids`);
    const cols = ids.map((id) => {
      const field = this.fieldById(id);
      if (!field) throw pgError('XX000', `equality delete file "${f.filePath}": field id ${id} is not in the table schema`);
      return { fieldId: id, type: field.type, missingValue: null };
    });
    const keys = new Set<string>();
    for await (const chunk of readParquetColumns(this.input(f), f.filePath, cols)) {
      for (let i = 0; i < chunk.length; i++) keys.add(tupleKey(chunk.columns.map((c) => c[i])));
    }
    return { fieldIds: ids, keys };
  }
}
