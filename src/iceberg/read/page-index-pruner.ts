/**
 * Page-index pruning for one file's read under pushed filters (parquet-reader.ts, late materialization): for
 * each row group that survived footer-statistics pruning, the page index of the filter's columns (read
 * lazily, only for row groups that get this far and only when those columns have one) gives the row ranges
 * that may match (page-row-ranges.ts). A row group with none is skipped before anything is decoded; the
 * ranges of the others tell late materialization which batches need the filter evaluated at all.
 * parquet-wasm decodes whole column chunks, so pages are never skipped in decoding, only in evaluation.
 *
 * `LAKEGATE_PAGE_INDEX=off` (environment, inherited by the scan workers) switches it off for A/B runs.
 */
import { spelledOn } from '../../common/env-settings.ts';
import type { ScanMetrics } from '../../catalog/table-source.ts';
import type { IcebergIO } from '../io.ts';
import { referencedFieldIds, type BoundPredicate } from '../scan/bound-predicate.ts';
import { readParquetFooter, type ParquetFooter } from './parquet-footer.ts';
import { readRowGroupPageIndex, type ColumnPageIndex } from './page-index.ts';
import { selectPageRows, type PageColumn, type RowRanges } from './page-row-ranges.ts';

export type PageMetrics = Pick<ScanMetrics, 'pageIndexRowGroups' | 'pageIndexRowGroupsPruned' | 'pagesTotal' | 'pagesScanned'>;

const ENV = 'LAKEGATE_PAGE_INDEX';

/** read per call, not through envFlagOn's cache: page-index.test.ts switches it at runtime (and it is off the lookup path) */
export function pageIndexOn(): boolean {
  return spelledOn(process.env[ENV]);
}

const add = (m: PageMetrics | undefined, k: keyof PageMetrics, n: number): void => {
  if (m) m[k] = (m[k] ?? 0) + n;
};

/**
 * the fields of the filter's one-column leaves: a column pair (`l_shipdate < l_commitdate`, bound `compareFields`)
 * is not decided by one column's page bounds (page-row-ranges.ts keeps every row for it), so its columns' page
 * indexes are not read for it
 */
function oneColumnFieldIds(b: BoundPredicate, out = new Set<number>()): Set<number> {
  if (b.kind === 'and' || b.kind === 'or') for (const a of b.args) oneColumnFieldIds(a, out);
  else if (b.kind !== 'compareFields') referencedFieldIds(b, out);
  return out;
}

export class PageIndexPruner {
  private constructor(
    private readonly io: IcebergIO,
    private readonly uri: string,
    private readonly size: number,
    private readonly footer: ParquetFooter,
    private readonly filter: BoundPredicate,
    /** field id → leaf column index, for the filter's columns present in the file */
    private readonly leaves: ReadonlyMap<number, number>,
    private readonly onRead?: (bytes: number) => void,
  ) {
    this.leafList = [...new Set(leaves.values())];
  }

  private readonly leafList: readonly number[];

  /**
   * A pruner for `uri` (ranged through `io`, which should answer footer ranges from the footer cache), or null
   * when switched off or when the file has no leaf column for any of the filter's fields. Reads the footer
   * (cached: parquet-wasm's own footer reads are then answered from it).
   */
  static async open(io: IcebergIO, uri: string, size: number, filter: BoundPredicate, onRead?: (bytes: number) => void): Promise<PageIndexPruner | null> {
    if (!pageIndexOn() || filter.kind === 'true') return null;
    const ids = oneColumnFieldIds(filter);
    if (ids.size === 0) return null;
    let footer: ParquetFooter;
    try {
      footer = await readParquetFooter(io, uri, size, onRead);
    } catch {
      return null; // an unreadable file fails where it is opened for decoding, with that reader's error
    }
    const leaves = new Map<number, number>();
    for (const id of ids) {
      const leaf = footer.leafByFieldId.get(id);
      if (leaf !== undefined) leaves.set(id, leaf.index);
    }
    return leaves.size === 0 ? null : new PageIndexPruner(io, uri, size, footer, filter, leaves, onRead);
  }

  /**
   * The rows of row group `rg` (of `rows` rows) that may match: null when the page index rules nothing out
   * (or is absent), [] when no row can match (the caller skips the row group).
   */
  async select(rg: number, rows: number, metrics?: PageMetrics): Promise<RowRanges | null> {
    const group = this.footer.rowGroups[rg];
    if (group === undefined || group.numRows !== rows) return null;
    let indexes;
    try {
      indexes = await readRowGroupPageIndex(this.io, this.uri, this.size, this.footer, rg, this.leafList, this.onRead);
    } catch {
      return null; // the index only prunes: a failed read of it leaves the row group to the decoder
    }
    if (indexes.size === 0) return null;
    let onePage = true, pages = 0;
    for (const x of indexes.values()) {
      if (x.firstRows.length !== 1) onePage = false;
      if (x.pages !== undefined) pages++;
    }
    if (onePage) {
      // one page per column: its statistics are the chunk's, which row-group pruning judged already
      if (pages === 0) return null;
      add(metrics, 'pageIndexRowGroups', 1);
      add(metrics, 'pageIndexRowGroupsPruned', 0);
      add(metrics, 'pagesTotal', pages);
      add(metrics, 'pagesScanned', pages);
      return null;
    }
    // an inline arrow, not a named const: tsx (esbuild keepNames) would define its name on every call
    const sel = selectPageRows(this.filter, rows, (fieldId) => this.pageColumn(indexes, fieldId), this.footer.hasColumnOrders);
    if (sel === null) return null;
    add(metrics, 'pageIndexRowGroups', 1);
    add(metrics, 'pageIndexRowGroupsPruned', 0);
    add(metrics, 'pagesTotal', sel.pagesTotal);
    add(metrics, 'pagesScanned', sel.pagesScanned);
    if (sel.ranges.length === 0) {
      add(metrics, 'pageIndexRowGroupsPruned', 1);
      return [];
    }
    const only = sel.ranges[0]!;
    return sel.ranges.length === 1 && only[0] === 0 && only[1] === rows ? null : sel.ranges;
  }

  /** the page index and schema element of `fieldId`'s leaf among `indexes` (one row group's) */
  private pageColumn(indexes: ReadonlyMap<number, ColumnPageIndex>, fieldId: number): PageColumn | undefined {
    const leaf = this.leaves.get(fieldId);
    const index = leaf === undefined ? undefined : indexes.get(leaf);
    const element = this.footer.leafByFieldId.get(fieldId)?.element;
    return index === undefined || element === undefined ? undefined : { index, element };
  }
}
