import { describe, expect, it } from 'vitest';
import { allocateValues, applySequenceOptions, checkSetval } from './sequence-options.ts';
import { MemorySequenceStore } from './memory-sequence-store.ts';

describe('sequence options and allocation (PostgreSQL init_params / nextval_internal)', () => {
  it('defaults by direction and type', () => {
    expect(applySequenceOptions(undefined, {}).options).toEqual({ dataType: 'bigint', start: 1n, increment: 1n, min: 1n, max: 2n ** 63n - 1n, cache: 1n, cycle: false });
    const down = applySequenceOptions(undefined, { increment: -1n, dataType: 'smallint' });
    expect(down.options).toMatchObject({ start: -1n, min: -32768n, max: -1n });
    expect(down.state).toEqual({ lastValue: -1n, isCalled: false });
  });

  it('a changed type brings its default bounds; a set bound stays', () => {
    const int = applySequenceOptions(undefined, { dataType: 'integer' }).options;
    expect(applySequenceOptions(int, { dataType: 'bigint' }).options.max).toBe(2n ** 63n - 1n);
    const capped = applySequenceOptions(undefined, { dataType: 'integer', max: 100n }).options;
    expect(applySequenceOptions(capped, { dataType: 'bigint' }).options.max).toBe(100n);
  });

  it('rejects what PostgreSQL rejects, with its wording', () => {
    expect(() => applySequenceOptions(undefined, { increment: 0n })).toThrow('INCREMENT must not be zero');
    expect(() => applySequenceOptions(undefined, { min: 5n, max: 5n })).toThrow('MINVALUE (5) must be less than MAXVALUE (5)');
    expect(() => applySequenceOptions(undefined, { dataType: 'smallint', max: 40000n })).toThrow('MAXVALUE (40000) is out of range for sequence data type smallint');
    const o = applySequenceOptions(undefined, { max: 10n }).options;
    expect(() => applySequenceOptions(o, { restart: 11n })).toThrow('RESTART value (11) cannot be greater than MAXVALUE (10)');
    expect(() => checkSetval('s', o, 0n)).toThrow('setval: value 0 is out of bounds for sequence "s" (1..10)');
  });

  it('allocates blocks that stop at the bound, then wraps (CYCLE) or fails (2200H)', () => {
    const o = applySequenceOptions(undefined, { increment: 3n, max: 10n }).options;
    const first = allocateValues('s', o, { lastValue: 1n, isCalled: false }, 100);
    expect(first.allocation).toEqual({ first: 1n, count: 4, increment: 3n });
    expect(first.state).toEqual({ lastValue: 10n, isCalled: true });
    expect(() => allocateValues('s', o, first.state, 1)).toThrow(/reached maximum value of sequence "s" \(10\)/);
    const cyc = { ...o, cycle: true };
    expect(allocateValues('s', cyc, first.state, 2).allocation).toEqual({ first: 1n, count: 2, increment: 3n });
  });

  it('a memory store hands out each value once', async () => {
    const store = new MemorySequenceStore();
    const { options, state } = applySequenceOptions(undefined, {});
    await store.create({ namespace: 'public', name: 's', options, state: state! });
    const a = store.allocate('public', 's', 5);
    const b = store.allocate('public', 's', 1);
    expect([a.first, a.count, b.first]).toEqual([1n, 5, 6n]);
    expect((await store.read('public', 's')).state).toEqual({ lastValue: 6n, isCalled: true });
  });
});
