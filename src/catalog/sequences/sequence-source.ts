/**
 * SequenceSource: the TableSource of a sequence relation (pg_class relkind 'S'). `SELECT * FROM s` reads its
 * one row — last_value, log_cnt, is_called — from the store; nextval / setval go through it too, so it keeps
 * the last state this process saw (pg_sequences.last_value, information_schema) without waiting.
 */
import type { Batch } from '../../common/batch.ts';
import { Oid } from '../../common/pgtypes/oids.ts';
import type { ColumnDef, ScanContext, TableSource } from '../table-source.ts';
import type { SequenceAllocation } from './sequence-options.ts';
import type { SequenceStore, StoredSequence } from './sequence-store.ts';

const COLUMNS: readonly ColumnDef[] = [
  { name: 'last_value', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
  { name: 'log_cnt', type: { oid: Oid.int8, typmod: -1 }, nullable: false },
  { name: 'is_called', type: { oid: Oid.bool, typmod: -1 }, nullable: false },
];

export class SequenceSource implements TableSource {
  readonly columns = COLUMNS;
  readonly estimatedRows = 1;

  constructor(readonly store: SequenceStore, public latest: StoredSequence) {}

  get namespace(): string {
    return this.latest.namespace;
  }

  get name(): string {
    return this.latest.name;
  }

  async *scan(ctx: ScanContext): AsyncIterable<Batch> {
    if (ctx.signal.aborted) return;
    const seq = await this.store.read(this.namespace, this.name);
    this.latest = seq;
    const logged = this.store.loggedAhead?.(this.namespace, this.name) ?? 0;
    yield { length: 1, columns: [[seq.state.lastValue], [BigInt(logged)], [seq.state.isCalled]] };
  }

  /** up to `count` next values; synchronous when the store is (memory) */
  allocate(count: number): SequenceAllocation | Promise<SequenceAllocation> {
    const a = this.store.allocate(this.namespace, this.name, count);
    if (a instanceof Promise) return a.then((v) => this.noteAllocation(v));
    return this.noteAllocation(a);
  }

  private noteAllocation(a: SequenceAllocation): SequenceAllocation {
    this.latest = { ...this.latest, state: { lastValue: a.first + BigInt(a.count - 1) * a.increment, isCalled: true } };
    return a;
  }
}
