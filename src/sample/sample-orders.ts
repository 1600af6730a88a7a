/**
 * Orders and their lines, one day at a time from 2023-01-01 to 2024-12-31 (UTC). Daily volume grows over
 * the two years, is higher at weekends, peaks on Black Friday / Cyber Monday and in December, dips in
 * January; times of day follow a daytime/evening curve. Customers are drawn among those signed up by that
 * day (older customers order more), products by popularity. Status depends on the order's age at the end
 * of the data (recent orders are still pending or shipped). Both tables come from one seeded stream, so
 * generating it twice (once per table commit) gives the same rows.
 */
import { mulberry32 } from '../common/prng.ts';
import { CHANNELS } from './sample-vocabulary.ts';
import { LAST_DAY, ORDERS_FIRST_DAY, pickWeighted, searchCdf, type SampleWorld } from './sample-world.ts';

const SEED_ORDERS = 20_230_103;
/** relative order volume by UTC hour */
const HOUR_WEIGHTS = [2, 1, 1, 1, 1, 2, 3, 5, 7, 8, 9, 10, 11, 10, 9, 9, 10, 11, 13, 14, 14, 12, 8, 4];
const HOUR_TOTAL = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
/** lines per order: 1..6 */
const LINE_WEIGHTS = [35, 25, 18, 11, 7, 4];
/** units per line: 1..5 */
const QUANTITY_WEIGHTS = [70, 18, 7, 3, 2];
const FREE_SHIPPING_CENTS = 5000;
const SHIPPING_CENTS = 499;

/** one day's rows, columnar; values as lakegate represents them except money, which stays in cents */
export interface OrderDay {
  readonly day: number;
  readonly orders: {
    readonly orderId: bigint[]; readonly customerId: number[]; readonly orderedAt: bigint[]; readonly status: string[];
    readonly channel: string[]; readonly shippingCents: number[]; readonly totalCents: number[];
  };
  readonly items: {
    readonly orderId: bigint[]; readonly lineNo: number[]; readonly productId: number[]; readonly quantity: number[];
    readonly unitPriceCents: number[]; readonly discountCents: number[];
  };
}

const utc = (day: number): Date => new Date(day * 86_400_000);

/** Black Friday (the day after the fourth Thursday of November) of a year, as a day number */
function blackFriday(year: number): number {
  const nov1 = Date.UTC(year, 10, 1) / 86_400_000;
  const firstThursday = nov1 + ((4 - utc(nov1).getUTCDay() + 7) % 7);
  return firstThursday + 21 + 1;
}

/** relative order volume of a day (before noise) */
export function dayWeight(day: number): number {
  const d = utc(day);
  const t = (day - ORDERS_FIRST_DAY) / (LAST_DAY - ORDERS_FIRST_DAY);
  let w = 1 + 0.9 * t; // the shop grows
  const weekday = d.getUTCDay();
  if (weekday === 0 || weekday === 6) w *= 1.2;
  const month = d.getUTCMonth();
  const date = d.getUTCDate();
  const bf = blackFriday(d.getUTCFullYear());
  if (day === bf) w *= 3.2;
  else if (day === bf + 3) w *= 2.6; // Cyber Monday
  else if (day > bf - 7 && day < bf + 7) w *= 1.4;
  else if (month === 11 && date <= 22) w *= 1.5;
  else if (month === 11 && date >= 24 && date <= 26) w *= 0.6;
  else if (month === 0) w *= 0.85;
  else if (month === 6 || month === 7) w *= 0.92;
  return w;
}

function statusOf(rnd: () => number, age: number): string {
  const x = rnd();
  if (age <= 1) return x < 0.5 ? 'pending' : x < 0.95 ? 'processing' : 'cancelled';
  if (age <= 4) return x < 0.2 ? 'processing' : x < 0.95 ? 'shipped' : 'cancelled';
  if (age <= 10) return x < 0.4 ? 'shipped' : x < 0.95 ? 'delivered' : x < 0.98 ? 'cancelled' : 'returned';
  return x < 0.89 ? 'delivered' : x < 0.93 ? 'cancelled' : 'returned';
}

/** orders per day summing exactly to `total` (cumulative rounding of noisy day weights) */
function ordersPerDay(total: number, rnd: () => number): number[] {
  const weights: number[] = [];
  for (let day = ORDERS_FIRST_DAY; day <= LAST_DAY; day++) weights.push(dayWeight(day) * (0.9 + 0.2 * rnd()));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts: number[] = [];
  let acc = 0;
  let given = 0;
  for (const w of weights) {
    acc += w;
    const upTo = Math.round((total * acc) / sum);
    counts.push(upTo - given);
    given = upTo;
  }
  return counts;
}

export function* orderDays(world: SampleWorld): Generator<OrderDay> {
  const rnd = mulberry32(SEED_ORDERS);
  const counts = ordersPerDay(world.sizes.orders, rnd);
  const nProducts = world.sizes.products;
  let orderId = 0n;
  let known = 0; // customers signed up by the current day
  for (let i = 0; i < counts.length; i++) {
    const day = ORDERS_FIRST_DAY + i;
    while (known < world.signupDay.length && world.signupDay[known]! <= day) known++;
    const eligible = Math.max(1, known);
    const t = i / (counts.length - 1);
    const channelWeights = CHANNELS.map(([, start, end]) => start + (end - start) * t);
    const n = counts[i]!;
    const seconds: number[] = [];
    for (let k = 0; k < n; k++) seconds.push(pickWeighted(rnd, HOUR_WEIGHTS, HOUR_TOTAL) * 3600 + Math.floor(rnd() * 3600));
    seconds.sort((a, b) => a - b);
    const o: OrderDay['orders'] = { orderId: [], customerId: [], orderedAt: [], status: [], channel: [], shippingCents: [], totalCents: [] };
    const it: OrderDay['items'] = { orderId: [], lineNo: [], productId: [], quantity: [], unitPriceCents: [], discountCents: [] };
    for (const s of seconds) {
      orderId++;
      const lines = 1 + pickWeighted(rnd, LINE_WEIGHTS, 100);
      const chosen: number[] = [];
      let subtotal = 0;
      for (let line = 1; line <= lines; line++) {
        let product = searchCdf(world.popularityCdf, rnd());
        // a product appears once per order (a few tries; tiny catalogues may repeat)
        for (let tries = 0; tries < 4 && chosen.includes(product) && nProducts > lines; tries++) product = searchCdf(world.popularityCdf, rnd());
        chosen.push(product);
        const quantity = 1 + pickWeighted(rnd, QUANTITY_WEIGHTS, 100);
        const price = world.priceCents[product]!;
        const d = rnd();
        const discount = d < 0.85 ? 0 : Math.round(quantity * price * (d < 0.95 ? 0.1 : 0.2));
        subtotal += quantity * price - discount;
        it.orderId.push(orderId);
        it.lineNo.push(line);
        it.productId.push(product + 1);
        it.quantity.push(quantity);
        it.unitPriceCents.push(price);
        it.discountCents.push(discount);
      }
      const shipping = subtotal >= FREE_SHIPPING_CENTS ? 0 : SHIPPING_CENTS;
      o.orderId.push(orderId);
      o.customerId.push(1 + Math.floor(eligible * rnd() ** 1.3));
      o.orderedAt.push(BigInt((day * 86_400 + s) * 1_000_000)); // < 2^53: exact
      o.status.push(statusOf(rnd, LAST_DAY - day));
      o.channel.push(CHANNELS[pickWeighted(rnd, channelWeights, 100)]![0]);
      o.shippingCents.push(shipping);
      o.totalCents.push(subtotal + shipping);
    }
    yield { day, orders: o, items: it };
  }
}
