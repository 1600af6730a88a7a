/**
 * The sample e-commerce dataset the default server starts with (schema `sample`): customers, products,
 * orders and order_items, generated deterministically (fixed-seed PRNG) so that the README's queries give
 * the same answers everywhere. Held in memory until Iceberg storage lands; then the same generator
 * writes Iceberg tables.
 */
import type { ColumnDef } from '../catalog/table-source.ts';
import { Numeric, Oid, sqlType } from '../common/pgtypes/index.ts';
import { mulberry32 } from '../common/prng.ts';

export interface SampleTable {
  readonly name: string;
  readonly columns: readonly ColumnDef[];
  readonly rows: readonly (readonly unknown[])[];
  /** column positions of the primary key */
  readonly primaryKey: readonly number[];
}

const col = (name: string, oid: number, nullable = true, typmod = -1): ColumnDef => ({ name, type: sqlType(oid, typmod), nullable });
const numericTypmod = (p: number, s: number): number => ((p << 16) | s) + 4;
const money = (cents: number): Numeric => Numeric.of(BigInt(cents), 2);

const FIRST = ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'John', 'Radia', 'Leslie'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Backus', 'Perlman', 'Lamport'];
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'CA'];
const CATEGORIES = ['books', 'electronics', 'garden', 'kitchen', 'toys', 'sports'];
const STATUSES = ['placed', 'shipped', 'delivered', 'returned'];
const EPOCH_2024_DAYS = 19723; // 2024-01-01 in days since 1970-01-01
const DAY_MICROS = 86_400_000_000n;

export function generateSampleData(scale = 1): SampleTable[] {
  const rnd = mulberry32(20241130);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const nCustomers = 1000 * scale;
  const nProducts = 200 * scale;
  const nOrders = 10_000 * scale;

  const customers: unknown[][] = [];
  for (let id = 1; id <= nCustomers; id++) {
    const name = `${pick(FIRST)} ${pick(LAST)}`;
    customers.push([id, name, `customer${id}@example.com`, pick(COUNTRIES), EPOCH_2024_DAYS - Math.floor(rnd() * 700)]);
  }
  const prices: number[] = [];
  const products: unknown[][] = [];
  for (let id = 1; id <= nProducts; id++) {
    const cents = 199 + Math.floor(rnd() * 20_000);
    prices.push(cents);
    const category = pick(CATEGORIES);
    products.push([id, `${category} item ${id}`, category, money(cents)]);
  }
  const orders: unknown[][] = [];
  const items: unknown[][] = [];
  for (let id = 1; id <= nOrders; id++) {
    const day = Math.floor(rnd() * 366);
    const ts = BigInt(EPOCH_2024_DAYS + day) * DAY_MICROS + BigInt(Math.floor(rnd() * 86_400)) * 1_000_000n;
    const lines = 1 + Math.floor(rnd() * 4);
    let total = 0;
    for (let line = 1; line <= lines; line++) {
      const product = 1 + Math.floor(rnd() * nProducts);
      const quantity = 1 + Math.floor(rnd() * 3);
      const price = prices[product - 1]!;
      total += price * quantity;
      items.push([BigInt(id), line, product, quantity, money(price)]);
    }
    orders.push([BigInt(id), 1 + Math.floor(rnd() * nCustomers), ts, pick(STATUSES), money(total)]);
  }
  return [
    {
      name: 'customers',
      columns: [col('customer_id', Oid.int4, false), col('name', Oid.text), col('email', Oid.text), col('country', Oid.text), col('signup_date', Oid.date)],
      rows: customers,
      primaryKey: [0],
    },
    {
      name: 'products',
      columns: [col('product_id', Oid.int4, false), col('name', Oid.text), col('category', Oid.text), col('price', Oid.numeric, true, numericTypmod(10, 2))],
      rows: products,
      primaryKey: [0],
    },
    {
      name: 'orders',
      columns: [col('order_id', Oid.int8, false), col('customer_id', Oid.int4), col('order_ts', Oid.timestamptz), col('status', Oid.text), col('total', Oid.numeric, true, numericTypmod(12, 2))],
      rows: orders,
      primaryKey: [0],
    },
    {
      name: 'order_items',
      columns: [col('order_id', Oid.int8, false), col('line_no', Oid.int4, false), col('product_id', Oid.int4), col('quantity', Oid.int4), col('unit_price', Oid.numeric, true, numericTypmod(10, 2))],
      rows: items,
      primaryKey: [0, 1],
    },
  ];
}
