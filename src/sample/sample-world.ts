/**
 * SampleWorld: the small, shared facts the order generator needs from the other tables — each customer's
 * signup day (customers are numbered in signup order, so "customers who existed on day d" is a prefix),
 * each product's price, and the product popularity distribution (Zipf over a shuffled ranking, so a few
 * products sell a lot and most sell little). Customers and products are generated here too, row by row,
 * from their own fixed seeds: the same scale always gives the same rows.
 */
import { mulberry32 } from '../common/prng.ts';
import { sampleSizes, type SampleSizes } from './sample-schema.ts';
import { ADJECTIVES, BRANDS, CATEGORIES, COUNTRIES, FIRST_NAMES, LAST_NAMES, SEGMENTS } from './sample-vocabulary.ts';

/** 2022-01-01, first signup day (days since 1970-01-01) */
export const SIGNUP_FIRST_DAY = 18993;
/** 2023-01-01, first order day */
export const ORDERS_FIRST_DAY = 19358;
/** 2024-12-31, last day of the data */
export const LAST_DAY = 20088;

const SEED_CUSTOMERS = 20_230_101;
const SEED_PRODUCTS = 20_230_102;
/** product popularity is Zipf(s) over ranks */
const ZIPF_S = 1.07;

export type Rng = () => number;

/** index into `weights` drawn with probability proportional to its weight */
export function pickWeighted(rnd: Rng, weights: readonly number[], total: number): number {
  let x = rnd() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/** index in [0, n) skewed towards 0 (about Zipf with exponent 1 for small n) */
export function pickSkewed(rnd: Rng, n: number): number {
  return Math.min(n - 1, Math.floor(n ** rnd()) - 1);
}

/** first index whose cumulative value exceeds x (cdf ascending) */
export function searchCdf(cdf: Float64Array, x: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const ascii = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]/g, '');

export interface CustomerRow {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly country: string;
  readonly city: string;
  readonly segment: string;
  readonly signupDay: number;
}

export interface ProductRow {
  readonly id: number;
  readonly sku: string;
  readonly name: string;
  readonly category: string;
  readonly brand: string;
  readonly priceCents: number;
  readonly costCents: number;
}

/** customers 1..n in signup order; signups grow linearly over 2022–2024 (stratified, so days ascend) */
export function* customerRows(n: number): Generator<CustomerRow> {
  const rnd = mulberry32(SEED_CUSTOMERS);
  const countryWeights = COUNTRIES.map((c) => c.weight);
  const countryTotal = countryWeights.reduce((a, b) => a + b, 0);
  const segmentWeights = SEGMENTS.map((s) => s[1]);
  const span = LAST_DAY - SIGNUP_FIRST_DAY + 1;
  for (let id = 1; id <= n; id++) {
    // density ∝ 1 + 2t on [0, 1): inverse CDF of (t + t²) / 2
    const u = (id - 1 + rnd()) / n;
    const t = (Math.sqrt(1 + 8 * u) - 1) / 2;
    const first = FIRST_NAMES[Math.floor(rnd() * FIRST_NAMES.length)]!;
    const last = LAST_NAMES[Math.floor(rnd() * LAST_NAMES.length)]!;
    const country = COUNTRIES[pickWeighted(rnd, countryWeights, countryTotal)]!;
    yield {
      id,
      name: `${first} ${last}`,
      email: `${ascii(first)}.${ascii(last)}${id}@example.com`,
      country: country.name,
      city: country.cities[pickSkewed(rnd, country.cities.length)]!,
      segment: SEGMENTS[pickWeighted(rnd, segmentWeights, 100)]![0],
      signupDay: SIGNUP_FIRST_DAY + Math.min(span - 1, Math.floor(t * span)),
    };
  }
}

/** products 1..n: category by weight, price log-uniform in its range ending in .99, cost 40–75 % of it */
export function* productRows(n: number): Generator<ProductRow> {
  const rnd = mulberry32(SEED_PRODUCTS);
  const weights = CATEGORIES.map((c) => c.weight);
  const total = weights.reduce((a, b) => a + b, 0);
  for (let id = 1; id <= n; id++) {
    const cat = CATEGORIES[pickWeighted(rnd, weights, total)]!;
    const noun = cat.nouns[Math.floor(rnd() * cat.nouns.length)]!;
    const brand = BRANDS[pickSkewed(rnd, BRANDS.length)]!;
    const adjective = ADJECTIVES[Math.floor(rnd() * ADJECTIVES.length)]!;
    const model = 100 + Math.floor(rnd() * 900);
    const units = Math.floor(cat.minPrice * (cat.maxPrice / cat.minPrice) ** rnd());
    const priceCents = Math.max(1, units) * 100 - 1;
    yield {
      id,
      sku: `${cat.name.slice(0, 3).toUpperCase()}-${String(id).padStart(6, '0')}`,
      name: `${brand} ${adjective} ${noun} ${model}`,
      category: cat.name,
      brand,
      priceCents,
      costCents: Math.round(priceCents * (0.4 + 0.35 * rnd())),
    };
  }
}

export interface SampleWorld {
  readonly sizes: SampleSizes;
  /** signup day of customer id i+1, ascending */
  readonly signupDay: Int32Array;
  readonly priceCents: Int32Array;
  /** cumulative popularity (0..1] by product index */
  readonly popularityCdf: Float64Array;
}

export function sampleWorld(scale: number): SampleWorld {
  const sizes = sampleSizes(scale);
  const signupDay = new Int32Array(sizes.customers);
  for (const c of customerRows(sizes.customers)) signupDay[c.id - 1] = c.signupDay;
  const priceCents = new Int32Array(sizes.products);
  for (const p of productRows(sizes.products)) priceCents[p.id - 1] = p.priceCents;
  // popularity rank r has weight 1/(r+1)^s; ranks are dealt to products by a seeded shuffle
  const rnd = mulberry32(SEED_PRODUCTS + 1);
  const rankOf = Array.from({ length: sizes.products }, (_, i) => i);
  for (let i = rankOf.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [rankOf[i], rankOf[j]] = [rankOf[j]!, rankOf[i]!];
  }
  const popularityCdf = new Float64Array(sizes.products);
  let sum = 0;
  for (let p = 0; p < sizes.products; p++) popularityCdf[p] = sum += 1 / (rankOf[p]! + 1) ** ZIPF_S;
  for (let p = 0; p < sizes.products; p++) popularityCdf[p] = popularityCdf[p]! / sum;
  return { sizes, signupDay, priceCents, popularityCdf };
}
