/**
 * Stands in for a catalog table whose metadata file cannot be read (missing: 58030, damaged: XX001). The
 * table stays listed so that reading it reports the reason, naming the file, rather than 42P01 "relation
 * does not exist"; it has no columns, and every scan raises the load error. Other tables are unaffected.
 */
import type { Batch } from '../common/batch.ts';
import { GatewayError } from '../common/errors.ts';
import type { ColumnDef, TableSource } from '../catalog/table-source.ts';

export class BrokenTableSource implements TableSource {
  readonly columns: readonly ColumnDef[] = [];
  readonly estimatedRows = 0;

  constructor(readonly error: GatewayError) {}

  /** true for the load failures that make a table a BrokenTableSource (its files, not the catalog) */
  static isFileFailure(e: unknown): e is GatewayError {
    return GatewayError.is(e) && (e.code === 'XX001' || e.code === '58030');
  }

  // eslint-disable-next-line require-yield
  async *scan(): AsyncIterable<Batch> {
    throw this.error;
  }
}
