/**
 * MemorySequenceStore: sequences held in this process's memory — those of the `public` memory schema (one
 * per database, like its memory tables) and a session's TEMP sequences. Allocation is synchronous.
 */
import { pgError } from '../../common/errors.ts';
import { allocateValues, type SequenceAllocation } from './sequence-options.ts';
import type { SequenceStore, StoredSequence } from './sequence-store.ts';

export class MemorySequenceStore implements SequenceStore {
  readonly persistent = false;
  private readonly byKey = new Map<string, StoredSequence>();

  listNow(): readonly StoredSequence[] {
    return [...this.byKey.values()];
  }

  async list(): Promise<readonly StoredSequence[]> {
    return this.listNow();
  }

  /** the caller checked the relation does not exist: a left-over entry (its schema was dropped) is replaced */
  async create(seq: StoredSequence): Promise<boolean> {
    this.byKey.set(key(seq.namespace, seq.name), seq);
    return true;
  }

  async drop(namespace: string, name: string): Promise<boolean> {
    return this.byKey.delete(key(namespace, name));
  }

  async update(namespace: string, name: string, fn: (seq: StoredSequence) => StoredSequence): Promise<StoredSequence> {
    const seq = this.readNow(namespace, name);
    const next = fn(seq);
    this.byKey.delete(key(namespace, name));
    this.byKey.set(key(next.namespace, next.name), next);
    return next;
  }

  async read(namespace: string, name: string): Promise<StoredSequence> {
    return this.readNow(namespace, name);
  }

  readNow(namespace: string, name: string): StoredSequence {
    const seq = this.byKey.get(key(namespace, name));
    if (seq === undefined) throw pgError('42P01', `relation "${namespace}.${name}" does not exist`);
    return seq;
  }

  allocate(namespace: string, name: string, count: number): SequenceAllocation {
    const seq = this.readNow(namespace, name);
    const { allocation, state } = allocateValues(name, seq.options, seq.state, count);
    this.byKey.set(key(namespace, name), { ...seq, state });
    return allocation;
  }
}

function key(namespace: string, name: string): string {
  return `${namespace}\u0000${name}`;
}
