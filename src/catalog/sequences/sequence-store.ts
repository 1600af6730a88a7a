/**
 * SequenceStore: where a schema's sequences live. Memory (the `public` memory schema, TEMP sequences) or the
 * embedded SQL catalog's database (sequences of Iceberg namespaces: shared by every session and process,
 * kept across restarts). A nextval is one atomic allocation of a block of values; gaps are allowed,
 * duplicates never.
 */
import type { SequenceAllocation, SequenceOptions, SequenceState } from './sequence-options.ts';

/** OWNED BY table.column (serial: deptype 'a'; identity: 'i') — the table is in the sequence's schema */
export interface SequenceOwner {
  readonly table: string;
  readonly column: string;
  /** an identity column's sequence (pg_depend deptype 'i'): GENERATED ALWAYS ('a') or BY DEFAULT ('d'); else serial / OWNED BY (deptype 'a') */
  readonly identity?: 'a' | 'd';
}

export interface StoredSequence {
  readonly namespace: string;
  readonly name: string;
  readonly options: SequenceOptions;
  readonly state: SequenceState;
  readonly ownedBy?: SequenceOwner;
}

export interface SequenceStore {
  /** true when values survive a restart and are shared by every process (the SQL catalog) */
  readonly persistent: boolean;
  list(): Promise<readonly StoredSequence[]>;
  /** false when it exists already (the caller raises 42P07 or the IF NOT EXISTS notice) */
  create(seq: StoredSequence): Promise<boolean>;
  drop(namespace: string, name: string): Promise<boolean>;
  /** read-modify-write of one sequence in one transaction (ALTER SEQUENCE, setval, OWNED BY, RENAME when `fn` renames) */
  update(namespace: string, name: string, fn: (seq: StoredSequence) => StoredSequence): Promise<StoredSequence>;
  read(namespace: string, name: string): Promise<StoredSequence>;
  /** up to `count` next values (fewer at a bound; the next call wraps or fails with 2200H); synchronous where the store can be */
  allocate(namespace: string, name: string, count: number): SequenceAllocation | Promise<SequenceAllocation>;
  /** values logged ahead and not handed out yet (`log_cnt`); absent: none */
  loggedAhead?(namespace: string, name: string): number;
}
