/**
 * MemoryTable: a table held in process memory — session temp tables, and user tables until Iceberg
 * storage arrives. Its contents are an immutable list of batches, so a transaction can take a snapshot
 * cheaply and ROLLBACK restores it (copy-on-write at batch granularity).
 */
import type { Batch } from '../common/batch.ts';
import { pgError } from '../common/errors.ts';
import { SqlState } from '../common/sqlstate.ts';
import type { ColumnDef, ScanContext, ScanPredicate, WritableTableSource } from '../catalog/table-source.ts';
import { Oid } from '../common/pgtypes/oids.ts';
import { checkMemoryKeys } from './memory-table-keys.ts';

const INDEXABLE = new Set<number>([Oid.int2, Oid.int4, Oid.int8, Oid.float4, Oid.float8, Oid.text, Oid.varchar, Oid.name, Oid.bool, Oid.oid]);

/** row locations of one key: [batch index, row] pairs */
type HashIndex = Map<string, [number, number][]>;

/** a hashable key for the values `=` can be answered from a hash index for (others: no index) */
function keyOf(v: unknown): string | null {
  switch (typeof v) {
    case 'number': return Number.isNaN(v) ? 'nNaN' : `n${v === 0 ? 0 : v}`; // -0 = 0, NaN = NaN as in PostgreSQL
    case 'bigint': return `n${v}`;
    case 'string': return `s${v}`;
    case 'boolean': return `b${v}`;
    default: return null;
  }
}

export class MemoryTable implements WritableTableSource {
  private data: readonly Batch[] = [];
  private rows = 0;
  /** pg_class OID of the relation this table is the source of: its keys are read from the catalog at each write */
  relOid: number | null = null;
  /** the unique keys of `data` (memory-table-keys.ts), kept while `data` is that array */
  private keySets: { data: readonly Batch[]; sets: Map<string, Set<string>> } | null = null;

  constructor(
    public columns: readonly ColumnDef[],
    public name: string,
  ) {}

  get estimatedRows(): number {
    return this.rows;
  }

  /** hash indexes built on first use by `col = value` scans, valid for one `data` array (copy-on-write) */
  private indexes = new Map<number, HashIndex>();
  private indexedData: readonly Batch[] | null = null;

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    // the array reference is captured, so a concurrent insert never shows up half-way through a scan
    const snapshot = this.data;
    const lookup = this.equalityLookup(ctx.filters, snapshot);
    if (lookup !== null) {
      if (lookup.length > 0) yield lookup;
      return;
    }
    for (const batch of snapshot) {
      if (ctx.signal.aborted) return;
      yield batch;
    }
  }

  /**
   * A pushed `col = const` (point lookups: `WHERE id = $1`) answered from a hash index on that column instead
   * of a scan; pushdown is inexact, so the rows of the key are a superset the executor filters again.
   * Only types whose JS values are primitives and whose `=` is plain equality (not bpchar: its `=` ignores
 * trailing blanks).
   */
  private equalityLookup(filters: readonly ScanPredicate[] | undefined, snapshot: readonly Batch[]): Batch | null {
    if (filters === undefined || this.rows < 32) return null;
    for (const f of filters) {
      if (f.kind !== 'compare' || f.op !== '=') continue;
      const type = this.columns[f.column]?.type;
      if (type === undefined || !INDEXABLE.has(type.oid)) continue;
      const key = keyOf(f.value);
      if (key === null) continue;
      const hits = this.indexOn(f.column, snapshot).get(key) ?? [];
      return {
        length: hits.length,
        columns: this.columns.map((_c, c) => hits.map(([b, r]) => snapshot[b]!.columns[c]![r])),
      };
    }
    return null;
  }

  private indexOn(column: number, snapshot: readonly Batch[]): HashIndex {
    if (this.indexedData !== snapshot) {
      this.indexes = new Map();
      this.indexedData = snapshot;
    }
    let index = this.indexes.get(column);
    if (index !== undefined) return index;
    index = new Map();
    snapshot.forEach((batch, b) => {
      const values = batch.columns[column]!;
      for (let r = 0; r < batch.length; r++) {
        const k = keyOf(values[r]);
        if (k === null) continue;
        const list = index!.get(k);
        if (list === undefined) index!.set(k, [[b, r]]);
        else list.push([b, r]);
      }
    });
    this.indexes.set(column, index);
    return index;
  }

  async insert(batches: AsyncIterable<Batch>, ctx?: Pick<ScanContext, 'catalog'>): Promise<number> {
    return this.write(this.data, batches, ctx);
  }

  /** UPDATE / DELETE / MERGE: the table's whole new contents, swapped in only when they hold its keys */
  async replaceAll(batches: AsyncIterable<Batch>, ctx?: Pick<ScanContext, 'catalog'>): Promise<number> {
    return this.write([], batches, ctx);
  }

  /** `kept` + the new batches become the contents once NOT NULL and the keys hold (else nothing changes) */
  private async write(kept: readonly Batch[], batches: AsyncIterable<Batch>, ctx: Pick<ScanContext, 'catalog'> | undefined): Promise<number> {
    let added = 0;
    const fresh: Batch[] = [];
    for await (const batch of batches) {
      if (batch.length === 0) continue;
      this.checkNotNull(batch);
      fresh.push(batch);
      added += batch.length;
    }
    const next = [...kept, ...fresh];
    const rel = this.relOid === null ? undefined : ctx?.catalog.relationByOid(this.relOid);
    if (rel !== undefined && rel.source === this && (rel.primaryKey !== undefined || rel.indexes !== undefined)) {
      const known = this.keySets !== null && this.keySets.data === kept ? this.keySets.sets : undefined;
      this.keySets = null;
      this.keySets = { data: next, sets: checkMemoryKeys(rel, this.columns, kept, fresh, known) };
    }
    const base = kept === this.data ? this.rows : kept.reduce((n, b) => n + b.length, 0);
    this.data = next;
    this.rows = base + added;
    return added;
  }

  private checkNotNull(batch: Batch): void {
    this.columns.forEach((col, c) => {
      if (col.nullable) return;
      const values = batch.columns[c];
      if (values === undefined) return;
      for (let r = 0; r < batch.length; r++) {
        if (values[r] === null || values[r] === undefined) {
          throw pgError(SqlState.not_null_violation, `null value in column "${col.name}" of relation "${this.name}" violates not-null constraint`, {
            table: this.name,
            column: col.name,
          });
        }
      }
    });
  }

  async truncate(): Promise<void> {
    this.data = [];
    this.rows = 0;
  }

  /** replaces the whole contents (UPDATE/DELETE rewrite the table) */
  replace(batches: readonly Batch[]): void {
    this.data = batches;
    this.rows = batches.reduce((n, b) => n + b.length, 0);
  }

  snapshot(): readonly Batch[] {
    return this.data;
  }

  restore(snapshot: readonly Batch[]): void {
    this.replace(snapshot);
  }
}
