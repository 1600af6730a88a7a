/**
 * FoldState: an aggregate state folding each non-null value into the previous ones with a two-argument function (the
 * aggregate's transition function that is also its combine function: bit_and(bit), sum(money), cashlarger …).
 */
import type { AggregateState } from './registry-types.ts';

export class FoldState<T> implements AggregateState {
  value: T | null = null;
  /** `map`: the argument as the state holds it (identity unless given) */
  constructor(private readonly merge: (acc: T, x: T) => T, private readonly map: (v: unknown) => T = (v) => v as T) {}
  step(args: readonly unknown[]): void {
    const x = this.map(args[0]);
    this.value = this.value === null ? x : this.merge(this.value, x);
  }
  combine(other: AggregateState): void {
    const o = (other as FoldState<T>).value;
    if (o !== null) this.value = this.value === null ? o : this.merge(this.value, o);
  }
  final(): unknown {
    return this.value;
  }
}
