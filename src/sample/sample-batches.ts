/**
 * The sample tables as streams of columnar Batches (columns in SAMPLE_TABLES order, values in lakegate's JS
 * representation), ready for the Iceberg writer. Orders come one day per batch, so each batch falls in
 * exactly one `day(ordered_at)` partition; the other tables come in batches of about `batchRows` rows.
 */
import type { Batch } from '../common/batch.ts';
import { Numeric } from '../common/pgtypes/index.ts';
import type { SampleTableName } from './sample-schema.ts';
import { orderDays } from './sample-orders.ts';
import { customerRows, productRows, type SampleWorld } from './sample-world.ts';

export const DEFAULT_BATCH_ROWS = 16_384;

/** Numerics are immutable: prices and zero discounts repeat a lot, so equal amounts share one object */
const moneyCache = new Map<number, Numeric>();
const cents = (c: number): Numeric => {
  let n = moneyCache.get(c);
  if (n === undefined) {
    n = Numeric.of(BigInt(c), 2);
    if (moneyCache.size < 100_000) moneyCache.set(c, n);
  }
  return n;
};
const money = (amounts: readonly number[]): Numeric[] => amounts.map(cents);

function* customerBatches(world: SampleWorld, batchRows: number): Generator<Batch> {
  let cols: unknown[][] = [[], [], [], [], [], [], []];
  const flush = (): Batch => {
    const b: Batch = { length: cols[0]!.length, columns: cols };
    cols = [[], [], [], [], [], [], []];
    return b;
  };
  for (const c of customerRows(world.sizes.customers)) {
    const row = [c.id, c.name, c.email, c.country, c.city, c.segment, c.signupDay];
    for (let i = 0; i < row.length; i++) cols[i]!.push(row[i]);
    if (cols[0]!.length >= batchRows) yield flush();
  }
  if (cols[0]!.length > 0) yield flush();
}

function* productBatches(world: SampleWorld, batchRows: number): Generator<Batch> {
  let cols: unknown[][] = [[], [], [], [], [], [], []];
  const flush = (): Batch => {
    const b: Batch = { length: cols[0]!.length, columns: cols };
    cols = [[], [], [], [], [], [], []];
    return b;
  };
  for (const p of productRows(world.sizes.products)) {
    const row = [p.id, p.sku, p.name, p.category, p.brand, cents(p.priceCents), cents(p.costCents)];
    for (let i = 0; i < row.length; i++) cols[i]!.push(row[i]);
    if (cols[0]!.length >= batchRows) yield flush();
  }
  if (cols[0]!.length > 0) yield flush();
}

/** what a pass over the orders learned about order_items (so a progress total can be exact) */
export interface SampleBatchStats {
  orderItems: number;
}

function* orderBatches(world: SampleWorld, stats?: SampleBatchStats): Generator<Batch> {
  for (const { orders: o, items } of orderDays(world)) {
    if (stats !== undefined) stats.orderItems += items.orderId.length;
    if (o.orderId.length === 0) continue;
    yield {
      length: o.orderId.length,
      columns: [o.orderId, o.customerId, o.orderedAt, o.status, o.channel, money(o.shippingCents), money(o.totalCents)],
    };
  }
}

function* orderItemBatches(world: SampleWorld, batchRows: number): Generator<Batch> {
  const empty = (): [bigint[], number[], number[], number[], Numeric[], Numeric[]] => [[], [], [], [], [], []];
  let cols = empty();
  for (const { items } of orderDays(world)) {
    const [orderId, lineNo, productId, quantity, unitPrice, discount] = cols;
    for (let i = 0; i < items.orderId.length; i++) {
      orderId.push(items.orderId[i]!);
      lineNo.push(items.lineNo[i]!);
      productId.push(items.productId[i]!);
      quantity.push(items.quantity[i]!);
      unitPrice.push(cents(items.unitPriceCents[i]!));
      discount.push(cents(items.discountCents[i]!));
    }
    if (orderId.length >= batchRows) {
      yield { length: orderId.length, columns: cols };
      cols = empty();
    }
  }
  if (cols[0].length > 0) yield { length: cols[0].length, columns: cols };
}

export function sampleBatches(table: SampleTableName, world: SampleWorld, batchRows = DEFAULT_BATCH_ROWS, stats?: SampleBatchStats): Generator<Batch> {
  switch (table) {
    case 'customers': return customerBatches(world, batchRows);
    case 'products': return productBatches(world, batchRows);
    case 'orders': return orderBatches(world, stats);
    case 'order_items': return orderItemBatches(world, batchRows);
  }
}

/** exact row counts of every table at this world's scale (order_items needs one pass over the orders) */
export function sampleRowCounts(world: SampleWorld): Record<SampleTableName, number> {
  let items = 0;
  for (const { items: it } of orderDays(world)) items += it.orderId.length;
  return { customers: world.sizes.customers, products: world.sizes.products, orders: world.sizes.orders, order_items: items };
}
