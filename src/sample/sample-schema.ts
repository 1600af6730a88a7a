/**
 * The tables of the sample lakehouse (namespace `sample`): columns with comments, primary keys, foreign
 * keys (metadata only, so BI tools and psql's \d show the relationships), orders' hidden partitioning, and
 * how many rows each table gets at a scale (scale 1 ≈ 1.08 million rows in all).
 */
import type { ColumnDef } from '../catalog/table-source.ts';
import { Oid, sqlType } from '../common/pgtypes/index.ts';

export const SAMPLE_NAMESPACE = 'sample';

export type SampleTableName = 'customers' | 'products' | 'orders' | 'order_items';

export interface SampleForeignKey {
  readonly name: string;
  readonly columns: readonly string[];
  readonly refTable: SampleTableName;
  readonly refColumns: readonly string[];
}

export interface SampleTableDef {
  readonly name: SampleTableName;
  readonly comment: string;
  readonly columns: readonly ColumnDef[];
  /** 0-based positions of the primary key columns */
  readonly primaryKey: readonly number[];
  readonly foreignKeys: readonly SampleForeignKey[];
  /** Trino-style partitioning items (`day(ordered_at)`) */
  readonly partitioning: readonly string[];
}

const numericTypmod = (p: number, s: number): number => ((p << 16) | s) + 4;
const col = (name: string, oid: number, comment: string, nullable = true, typmod = -1): ColumnDef => ({ name, type: sqlType(oid, typmod), nullable, comment });
const money = (name: string, comment: string, p = 10): ColumnDef => col(name, Oid.numeric, comment, false, numericTypmod(p, 2));

export const SAMPLE_TABLES: readonly SampleTableDef[] = [
  {
    name: 'customers',
    comment: 'People and companies who ordered; customer_id grows with signup_date',
    columns: [
      col('customer_id', Oid.int4, 'customer number', false),
      col('name', Oid.text, 'full name', false),
      col('email', Oid.text, 'unique e-mail address', false),
      col('country', Oid.text, 'country name', false),
      col('city', Oid.text, 'city', false),
      col('segment', Oid.text, 'consumer, small business or corporate', false),
      col('signup_date', Oid.date, 'day the account was created', false),
    ],
    primaryKey: [0],
    foreignKeys: [],
    partitioning: [],
  },
  {
    name: 'products',
    comment: 'The catalogue: list price and unit cost in the shop currency',
    columns: [
      col('product_id', Oid.int4, 'product number', false),
      col('sku', Oid.text, 'stock keeping unit', false),
      col('name', Oid.text, 'product name', false),
      col('category', Oid.text, 'product category', false),
      col('brand', Oid.text, 'brand', false),
      money('price', 'list price'),
      money('cost', 'unit cost'),
    ],
    primaryKey: [0],
    foreignKeys: [],
    partitioning: [],
  },
  {
    name: 'orders',
    comment: 'One row per order, 2023-01-01 to 2024-12-31 (UTC), partitioned by day(ordered_at)',
    columns: [
      col('order_id', Oid.int8, 'order number, in time order', false),
      col('customer_id', Oid.int4, 'who ordered', false),
      col('ordered_at', Oid.timestamptz, 'when the order was placed', false),
      col('status', Oid.text, 'pending, processing, shipped, delivered, cancelled or returned', false),
      col('channel', Oid.text, 'web, mobile or marketplace', false),
      money('shipping', 'shipping fee (free from 50.00)'),
      money('total', 'sum of the lines after discounts, plus shipping', 12),
    ],
    primaryKey: [0],
    foreignKeys: [{ name: 'orders_customer_id_fkey', columns: ['customer_id'], refTable: 'customers', refColumns: ['customer_id'] }],
    partitioning: ['day(ordered_at)'],
  },
  {
    name: 'order_items',
    comment: 'Order lines: quantity times unit_price, minus discount',
    columns: [
      col('order_id', Oid.int8, 'the order', false),
      col('line_no', Oid.int4, 'line number within the order, from 1', false),
      col('product_id', Oid.int4, 'the product', false),
      col('quantity', Oid.int4, 'units', false),
      money('unit_price', 'price per unit when ordered'),
      money('discount', 'discount on the line (amount)'),
    ],
    primaryKey: [0, 1],
    foreignKeys: [
      { name: 'order_items_order_id_fkey', columns: ['order_id'], refTable: 'orders', refColumns: ['order_id'] },
      { name: 'order_items_product_id_fkey', columns: ['product_id'], refTable: 'products', refColumns: ['product_id'] },
    ],
    partitioning: [],
  },
];

/** rows per table at scale 1; order_items is about 2.42 lines per order */
export const SCALE_1_ROWS = { customers: 50_000, products: 5_000, orders: 300_000 } as const;

export interface SampleSizes {
  readonly customers: number;
  readonly products: number;
  readonly orders: number;
}

export function sampleSizes(scale: number): SampleSizes {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`sample scale must be a positive number, got ${scale}`);
  const n = (base: number): number => Math.max(1, Math.round(base * scale));
  return { customers: n(SCALE_1_ROWS.customers), products: n(SCALE_1_ROWS.products), orders: n(SCALE_1_ROWS.orders) };
}
