import { describe, expect, it } from 'vitest';
import type { Numeric } from '../common/pgtypes/index.ts';
import { sampleBatches, sampleRowCounts } from './sample-batches.ts';
import { SAMPLE_TABLES, sampleSizes } from './sample-schema.ts';
import { LAST_DAY, ORDERS_FIRST_DAY, sampleWorld } from './sample-world.ts';
import { dayWeight } from './sample-orders.ts';

const cents = (v: unknown): bigint => (v as Numeric).unscaled;
const rowsOf = (table: Parameters<typeof sampleBatches>[0], scale: number): unknown[][] => {
  const rows: unknown[][] = [];
  for (const b of sampleBatches(table, sampleWorld(scale))) {
    for (let r = 0; r < b.length; r++) rows.push(b.columns.map((c) => c[r]));
  }
  return rows;
};

describe('sample generator', () => {
  it('row counts are deterministic and scale linearly', () => {
    expect(sampleRowCounts(sampleWorld(0.01))).toEqual({ customers: 500, products: 50, orders: 3000, order_items: 7345 });
    expect(sampleRowCounts(sampleWorld(0.002))).toEqual({ customers: 100, products: 10, orders: 600, order_items: 1446 });
    expect(sampleSizes(1)).toEqual({ customers: 50_000, products: 5_000, orders: 300_000 });
    expect(sampleSizes(0.00001)).toEqual({ customers: 1, products: 1, orders: 3 });
    expect(() => sampleSizes(0)).toThrow(RangeError);
  });

  it('the same scale gives the same rows (sum of order totals pinned)', () => {
    const total = (): bigint => rowsOf('orders', 0.01).reduce((s, r) => s + cents(r[6]), 0n);
    expect(total()).toBe(94_724_812n); // 947,248.12
    expect(total()).toBe(94_724_812n);
  });

  it('batches match the table definitions (column count, NOT NULL)', () => {
    const world = sampleWorld(0.002);
    const bad: string[] = [];
    for (const def of SAMPLE_TABLES) {
      for (const b of sampleBatches(def.name, world)) {
        if (b.columns.length !== def.columns.length) bad.push(`${def.name}: ${b.columns.length} columns`);
        b.columns.forEach((c, i) => {
          if (c.length !== b.length || !c.every((v) => v !== null && v !== undefined)) bad.push(`${def.name}.${def.columns[i]?.name}`);
        });
      }
    }
    expect(bad).toEqual([]);
  });

  it('orders: ids and times ascend over 2023–2024, totals are lines − discounts + shipping, customers existed', () => {
    const world = sampleWorld(0.01);
    const orders = rowsOf('orders', 0.01);
    const items = rowsOf('order_items', 0.01);
    const lines = new Map<bigint, bigint>();
    for (const [orderId, , , quantity, unitPrice, discount] of items) {
      lines.set(orderId as bigint, (lines.get(orderId as bigint) ?? 0n) + BigInt(quantity as number) * cents(unitPrice) - cents(discount));
    }
    let prevTs = 0n;
    const bad: string[] = [];
    orders.forEach(([orderId, customerId, ts, , , shipping, total], i) => {
      const day = Number((ts as bigint) / 86_400_000_000n);
      const sum = lines.get(orderId as bigint)!;
      if (orderId !== BigInt(i + 1)) bad.push(`order ${i + 1}: id ${orderId}`);
      if ((ts as bigint) < prevTs) bad.push(`order ${orderId}: time goes back`);
      if (day < ORDERS_FIRST_DAY || day > LAST_DAY) bad.push(`order ${orderId}: day ${day}`);
      if (world.signupDay[(customerId as number) - 1]! > day) bad.push(`order ${orderId}: customer not signed up yet`);
      if (cents(total) !== sum + cents(shipping)) bad.push(`order ${orderId}: total`);
      if (cents(shipping) !== (sum >= 5000n ? 0n : 499n)) bad.push(`order ${orderId}: shipping`);
      prevTs = ts as bigint;
    });
    expect(bad).toEqual([]);
    // recent orders are still open; old ones are settled
    const statuses = (from: number): Set<string> => new Set(orders.filter((o) => Number((o[2] as bigint) / 86_400_000_000n) >= from).map((o) => o[3] as string));
    expect([...statuses(LAST_DAY)].every((s) => ['pending', 'processing', 'cancelled'].includes(s))).toBe(true);
    expect(new Set(orders.slice(0, 1000).map((o) => o[3]))).toEqual(new Set(['delivered', 'cancelled', 'returned']));
  });

  it('volume grows, peaks on Black Friday, product popularity is skewed', () => {
    expect(dayWeight(LAST_DAY - 40)).toBeGreaterThan(dayWeight(ORDERS_FIRST_DAY + 40));
    const blackFriday2024 = Date.UTC(2024, 10, 29) / 86_400_000;
    expect(dayWeight(blackFriday2024)).toBeGreaterThan(2 * dayWeight(blackFriday2024 - 14));
    const perProduct = new Map<number, number>();
    for (const r of rowsOf('order_items', 0.01)) perProduct.set(r[2] as number, (perProduct.get(r[2] as number) ?? 0) + 1);
    const counts = [...perProduct.values()].sort((a, b) => b - a);
    const top5 = counts.slice(0, 5).reduce((a, b) => a + b, 0);
    expect(top5 / 7345).toBeGreaterThan(0.35); // 10 % of the products sell over a third of the lines
  });

  it('customers: unique e-mails, known countries, signup days ascending with ids', () => {
    const customers = rowsOf('customers', 0.01);
    expect(new Set(customers.map((c) => c[2])).size).toBe(customers.length);
    const days = customers.map((c) => c[6] as number);
    expect(days).toEqual([...days].sort((a, b) => a - b));
    expect(customers.filter((c) => !/^[a-z]+\.[a-z]+\d+@example\.com$/.test(c[2] as string))).toEqual([]);
    expect(customers[0]).toEqual([1, expect.any(String), expect.any(String), expect.any(String), expect.any(String), expect.any(String), expect.any(Number)]);
  });
});
