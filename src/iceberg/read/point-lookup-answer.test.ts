/**
 * keepableAnswer's bounds: small answers of primitive values are kept (empty ones too), the projection rides
 * along; too many rows, too many characters or an object value (bytea, Numeric…) are not kept; the shared NULL
 * columns of a widened batch are not inspected.
 */
import { describe, expect, it } from 'vitest';
import { nullColumn, widenBatch, type Batch } from '../../common/batch.ts';
import { ANSWER_MAX_CHARS, ANSWER_MAX_ROWS, keepableAnswer } from './point-lookup-answer.ts';

const rows = (n: number, v: unknown): Batch => ({ length: n, columns: [Array.from({ length: n }, () => v)] });

describe('keepableAnswer', () => {
  it('keeps small answers of primitives, and empty ones, with their projection', () => {
    const projection = [1];
    const one: Batch = { length: 1, columns: [[7], ['v7'], [7n], [true], [null], [1.5]] };
    const kept = keepableAnswer([one], projection);
    expect(kept).toEqual({ projection, batches: [one] });
    expect(kept?.projection).toBe(projection);
    expect(keepableAnswer([], undefined)).toEqual({ projection: undefined, batches: [] });
    expect(keepableAnswer([rows(ANSWER_MAX_ROWS, 1)], undefined)).toBeDefined();
  });

  it('does not keep big answers or object values', () => {
    expect(keepableAnswer([rows(ANSWER_MAX_ROWS, 1), rows(1, 1)], undefined)).toBeUndefined();
    expect(keepableAnswer([rows(1, 'x'.repeat(ANSWER_MAX_CHARS + 1))], undefined)).toBeUndefined();
    expect(keepableAnswer([rows(2, 'x'.repeat(ANSWER_MAX_CHARS / 2 + 1))], undefined)).toBeUndefined();
    expect(keepableAnswer([rows(1, new Uint8Array([1]))], undefined)).toBeUndefined();
    expect(keepableAnswer([rows(1, { digits: '1' })], undefined)).toBeUndefined();
  });

  it('passes over the shared NULL columns of a widened batch', () => {
    const widened = widenBatch(rows(2, 'a'), [3], 200);
    expect(widened.columns[0]).toBe(nullColumn(2));
    expect(keepableAnswer([widened], [3])?.batches).toEqual([widened]);
  });
});
