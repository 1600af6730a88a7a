/**
 * pg_sequence, pg_sequences and information_schema.sequences (one row per relation of kind 'S', from its
 * SequenceSource), and the column ↔ sequence links of serial and identity columns that pg_attribute
 * (attidentity), pg_attrdef, pg_depend and information_schema.columns show.
 * @see https://www.postgresql.org/docs/15/catalog-pg-sequence.html
 * @see https://www.postgresql.org/docs/15/view-pg-sequences.html
 */
import type { RelationInfo } from '../../catalog/catalog-view.ts';
import { SEQUENCE_TYPE_OID, type SequenceOptions } from '../../catalog/sequences/sequence-options.ts';
import { SequenceSource } from '../../catalog/sequences/sequence-source.ts';
import type { CatalogSnapshot } from '../catalog-snapshot.ts';
import type { CatalogRow } from '../system-table.ts';
import { regclassIn, regclassOut } from '../reg-names.ts';

interface Sequence {
  readonly rel: RelationInfo;
  readonly source: SequenceSource;
}

function* sequences(snap: CatalogSnapshot): Iterable<Sequence> {
  for (const rel of snap.relations) if (rel.kind === 'S' && rel.source instanceof SequenceSource) yield { rel, source: rel.source };
}

export function* pgSequenceRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const { rel, source } of sequences(snap)) {
    const o = source.latest.options;
    yield {
      seqrelid: rel.oid, seqtypid: SEQUENCE_TYPE_OID[o.dataType], seqstart: o.start, seqincrement: o.increment,
      seqmax: o.max, seqmin: o.min, seqcache: o.cache, seqcycle: o.cycle,
    };
  }
}

export function* pgSequencesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const { rel, source } of sequences(snap)) {
    const o = source.latest.options;
    const s = source.latest.state;
    yield {
      schemaname: rel.schema, sequencename: rel.name, sequenceowner: snap.session.user, data_type: SEQUENCE_TYPE_OID[o.dataType],
      start_value: o.start, min_value: o.min, max_value: o.max, increment_by: o.increment, cycle: o.cycle, cache_size: o.cache,
      last_value: s.isCalled ? s.lastValue : null,
    };
  }
}

const PRECISION = { smallint: 16, integer: 32, bigint: 64 } as const;

export function* informationSchemaSequencesRows(snap: CatalogSnapshot): Iterable<CatalogRow> {
  for (const { rel, source } of sequences(snap)) {
    const o = source.latest.options;
    yield {
      sequence_catalog: snap.catalog.database, sequence_schema: rel.schema, sequence_name: rel.name, data_type: o.dataType,
      numeric_precision: PRECISION[o.dataType], numeric_precision_radix: 2, numeric_scale: 0,
      start_value: String(o.start), minimum_value: String(o.min), maximum_value: String(o.max), increment: String(o.increment),
      cycle_option: o.cycle ? 'YES' : 'NO',
    };
  }
}

/** a column's owned sequence: the serial / OWNED BY link (deptype 'a') or its identity ('a' ALWAYS, 'd' BY DEFAULT) */
export interface ColumnSequence {
  readonly seq: RelationInfo;
  readonly identity: '' | 'a' | 'd';
  readonly options: SequenceOptions;
}

const linksBySnapshot = new WeakMap<CatalogSnapshot, Map<string, ColumnSequence>>();

function links(snap: CatalogSnapshot): Map<string, ColumnSequence> {
  let map = linksBySnapshot.get(snap);
  if (map === undefined) {
    map = new Map();
    for (const { rel, source } of sequences(snap)) {
      const owner = source.latest.ownedBy;
      if (owner === undefined) continue;
      map.set(`${rel.schema}\u0000${owner.table}\u0000${owner.column}`, { seq: rel, identity: owner.identity ?? '', options: source.latest.options });
    }
    linksBySnapshot.set(snap, map);
  }
  return map;
}

/** the sequence owned by a column of `rel`, if any */
export function columnSequence(snap: CatalogSnapshot, rel: RelationInfo, column: string): ColumnSequence | undefined {
  const map = links(snap);
  return map.size === 0 ? undefined : map.get(`${rel.schema}\u0000${rel.name}\u0000${column}`);
}

/** attidentity of a column: 'a' / 'd' for identity columns, '' otherwise */
export function identityOf(snap: CatalogSnapshot, rel: RelationInfo, column: string): '' | 'a' | 'd' {
  return columnSequence(snap, rel, column)?.identity ?? '';
}

/** pg_depend rows of OWNED BY: sequence → column, deptype 'a' (serial, OWNED BY) or 'i' (identity) */
export function* sequenceOwnershipDepends(snap: CatalogSnapshot): Iterable<{ seq: number; table: number; attnum: number; deptype: string }> {
  if (links(snap).size === 0) return;
  for (const rel of snap.relations) {
    if (rel.kind !== 'r') continue;
    const cols = snap.columnsOf(rel);
    for (let i = 0; i < cols.length; i++) {
      const link = columnSequence(snap, rel, cols[i]!.name);
      if (link !== undefined) yield { seq: link.seq.oid, table: rel.oid, attnum: i + 1, deptype: link.identity === '' ? 'a' : 'i' };
    }
  }
}

const NEXTVAL_DEFAULT = /^nextval\('((?:[^']|'')+)'::regclass\)$/;

/**
 * A DEFAULT as pg_get_expr prints it now: PostgreSQL keeps the sequence's OID in `nextval('s'::regclass)` and
 * prints its name qualified only when search_path does not find it; lakegate keeps the name, so it is
 * looked up and printed again the same way. Other defaults print as stored.
 */
export function shownDefault(snap: CatalogSnapshot, expr: string): string {
  const m = NEXTVAL_DEFAULT.exec(expr);
  if (m === null) return expr;
  const text = m[1]!.replace(/''/g, "'");
  const oid = regclassIn(text, snap, true);
  if (oid === null) return expr;
  return `nextval('${regclassOut(oid, snap).replace(/'/g, "''")}'::regclass)`;
}
