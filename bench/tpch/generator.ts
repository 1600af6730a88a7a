/**
 * Deterministic TPC-H rows (spec 4.2.3 value rules; dbgen's formulas for retail price, partsupp's supplier
 * keys, sparse order keys, o_totalprice, return flag and line status), one seeded mulberry32 stream per
 * table so every table can be generated alone, in any order, identically on every run. orders and lineitem
 * share one stream (an order's status and total price come from its lines): generating one replays the other.
 *
 * Rows are arrays of PostgreSQL text values (never NULL; TPC-H has no NULLs).
 */
import { mulberry32 } from '../../src/common/prng.ts';
import {
  COLORS, CONTAINER_S1, CONTAINER_S2, NATIONS, PRIORITIES, REGIONS, SEGMENTS, SHIP_INSTRUCT, SHIP_MODES, TYPE_S1,
  TYPE_S2, TYPE_S3,
} from './distributions.ts';
import { textPool } from './text-pool.ts';

export const TPCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'] as const;
export type TpchTable = (typeof TPCH_TABLES)[number];
export type TpchRow = string[];

const DAY_MS = 86_400_000;
const START_MS = Date.UTC(1992, 0, 1);
/** spec 4.2.2.12: CURRENTDATE = 1995-06-17 decides l_returnflag / l_linestatus */
const CURRENT_DAY = (Date.UTC(1995, 5, 17) - START_MS) / DAY_MS;
/** o_orderdate ∈ [STARTDATE, ENDDATE − 151 days], ENDDATE = 1998-12-31 */
const LAST_ORDER_DAY = (Date.UTC(1998, 11, 31) - START_MS) / DAY_MS - 151;
const DATES: string[] = [];
for (let d = 0; d <= LAST_ORDER_DAY + 121 + 30; d++) DATES.push(new Date(START_MS + d * DAY_MS).toISOString().slice(0, 10));

const SEEDS: Record<TpchTable, number> = {
  region: 101, nation: 102, supplier: 103, customer: 104, part: 105, partsupp: 106, orders: 107, lineitem: 107,
};

/** cardinalities at scale factor sf (at least 1 row each; spec 4.2.5) */
export function tpchScale(sf: number): { suppliers: number; customers: number; parts: number; orders: number; clerks: number } {
  const n = (base: number): number => Math.max(1, Math.round(base * sf));
  return { suppliers: n(10_000), customers: n(150_000), parts: n(200_000), orders: n(1_500_000), clerks: n(1_000) };
}

/** exact row count, or lineitem's expected count (4 lines per order on average) */
export function tpchRowCount(table: TpchTable, sf: number): number {
  const s = tpchScale(sf);
  switch (table) {
    case 'region': return 5;
    case 'nation': return 25;
    case 'supplier': return s.suppliers;
    case 'customer': return s.customers;
    case 'part': return s.parts;
    case 'partsupp': return s.parts * 4;
    case 'orders': return s.orders;
    case 'lineitem': return s.orders * 4;
  }
}

/** cents → '123.45' / '-0.50' (numeric(15,2) text) */
export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  const frac = a % 100;
  return `${sign}${(a - frac) / 100}.${frac < 10 ? '0' : ''}${frac}`;
}

const pad9 = (n: number): string => String(n).padStart(9, '0');

/** dbgen's retail price in cents: 90000 + ((partkey/10) mod 20001) + 100 · (partkey mod 1000) */
export function retailPriceCents(partkey: number): number {
  return 90000 + (Math.floor(partkey / 10) % 20001) + 100 * (partkey % 1000);
}

/** the i-th (0..3) supplier of a part (spec 4.2.3, PARTSUPP) */
export function partSupplier(partkey: number, i: number, suppliers: number): number {
  return ((partkey + i * (Math.floor(suppliers / 4) + Math.floor((partkey - 1) / suppliers))) % suppliers) + 1;
}

/** dbgen's sparse order keys: 8 keys used out of every 32 */
export function orderKey(index: number): number {
  const i = index - 1;
  return Math.floor(i / 8) * 32 + (i % 8) + 1;
}

type Rnd = () => number;
const between = (rnd: Rnd, lo: number, hi: number): number => lo + Math.floor(rnd() * (hi - lo + 1));
const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

const V_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, ';
/** spec's v-string: random characters, average length (min+max)/2 */
function vString(rnd: Rnd, min: number, max: number): string {
  const len = between(rnd, min, max);
  let s = '';
  for (let i = 0; i < len; i++) s += V_ALPHABET[Math.floor(rnd() * V_ALPHABET.length)];
  return s;
}

/** country code = nationkey + 10 (Q22 selects on it), then three random local groups */
function phone(rnd: Rnd, nationkey: number): string {
  return `${nationkey + 10}-${between(rnd, 100, 999)}-${between(rnd, 100, 999)}-${between(rnd, 1000, 9999)}`;
}

function* regionRows(rnd: Rnd): Generator<TpchRow> {
  const pool = textPool();
  for (let k = 0; k < REGIONS.length; k++) yield [String(k), REGIONS[k]!, pool.comment(rnd, 31, 115)];
}

function* nationRows(rnd: Rnd): Generator<TpchRow> {
  const pool = textPool();
  for (let k = 0; k < NATIONS.length; k++) {
    const [name, region] = NATIONS[k]!;
    yield [String(k), name, String(region), pool.comment(rnd, 31, 114)];
  }
}

/** k distinct row numbers in 1..n chosen by their own stream */
function chooseRows(seed: number, n: number, k: number): Set<number> {
  const rnd = mulberry32(seed);
  const out = new Set<number>();
  while (out.size < Math.min(k, n)) out.add(between(rnd, 1, n));
  return out;
}

function* supplierRows(rnd: Rnd, sf: number): Generator<TpchRow> {
  const { suppliers } = tpchScale(sf);
  const pool = textPool();
  // spec: SF·5 suppliers say "Customer … Complaints" (Q16 excludes them), SF·5 "Customer … Recommends"
  const special = Math.max(1, Math.round(sf * 5));
  const complaints = chooseRows(0xc0, suppliers, special);
  const recommends = chooseRows(0xc1, suppliers, special);
  for (let k = 1; k <= suppliers; k++) {
    const nation = between(rnd, 0, 24);
    const address = vString(rnd, 10, 40);
    const ph = phone(rnd, nation);
    const bal = between(rnd, -99_999, 999_999);
    let comment = pool.comment(rnd, 25, 100);
    const word = complaints.has(k) ? 'Complaints' : recommends.has(k) ? 'Recommends' : null;
    if (word !== null) {
      const insert = `Customer ${pool.comment(rnd, 0, 10)}${word}`;
      if (comment.length < insert.length + 5) comment = pool.comment(rnd, insert.length + 5, 100);
      const at = between(rnd, 0, comment.length - insert.length);
      comment = comment.slice(0, at) + insert + comment.slice(at + insert.length);
    }
    yield [String(k), `Supplier#${pad9(k)}`, address, String(nation), ph, money(bal), comment];
  }
}

function* customerRows(rnd: Rnd, sf: number): Generator<TpchRow> {
  const { customers } = tpchScale(sf);
  const pool = textPool();
  for (let k = 1; k <= customers; k++) {
    const nation = between(rnd, 0, 24);
    yield [String(k), `Customer#${pad9(k)}`, vString(rnd, 10, 40), String(nation), phone(rnd, nation),
      money(between(rnd, -99_999, 999_999)), pick(rnd, SEGMENTS), pool.comment(rnd, 29, 116)];
  }
}

function* partRows(rnd: Rnd, sf: number): Generator<TpchRow> {
  const { parts } = tpchScale(sf);
  const pool = textPool();
  for (let k = 1; k <= parts; k++) {
    const words: string[] = [];
    while (words.length < 5) {
      const w = pick(rnd, COLORS);
      if (!words.includes(w)) words.push(w);
    }
    const m = between(rnd, 1, 5);
    const type = `${pick(rnd, TYPE_S1)} ${pick(rnd, TYPE_S2)} ${pick(rnd, TYPE_S3)}`;
    const size = between(rnd, 1, 50);
    const container = `${pick(rnd, CONTAINER_S1)} ${pick(rnd, CONTAINER_S2)}`;
    yield [String(k), words.join(' '), `Manufacturer#${m}`, `Brand#${m}${between(rnd, 1, 5)}`, type, String(size), container,
      money(retailPriceCents(k)), pool.comment(rnd, 5, 22)];
  }
}

function* partsuppRows(rnd: Rnd, sf: number): Generator<TpchRow> {
  const { parts, suppliers } = tpchScale(sf);
  const pool = textPool();
  for (let p = 1; p <= parts; p++) {
    for (let i = 0; i < 4; i++) {
      yield [String(p), String(partSupplier(p, i, suppliers)), String(between(rnd, 1, 9999)),
        money(between(rnd, 100, 100_000)), pool.comment(rnd, 49, 198)];
    }
  }
}

interface Order {
  readonly row: TpchRow;
  readonly lines: TpchRow[];
}

/** orders with their lines: o_orderstatus and o_totalprice are derived from the lines (spec 4.2.3) */
function* orderStream(rnd: Rnd, sf: number, withLines: boolean): Generator<Order> {
  const { orders, customers, parts, suppliers, clerks } = tpchScale(sf);
  const pool = textPool();
  for (let o = 1; o <= orders; o++) {
    const key = orderKey(o);
    const okey = String(key);
    let cust = between(rnd, 1, customers);
    // a third of the customers never order (custkey mod 3 = 0), as in dbgen
    while (cust % 3 === 0 && customers > 2) cust = between(rnd, 1, customers);
    const orderDay = between(rnd, 0, LAST_ORDER_DAY);
    const priority = pick(rnd, PRIORITIES);
    const clerk = `Clerk#${pad9(between(rnd, 1, clerks))}`;
    const comment = pool.comment(rnd, 19, 78);
    const n = between(rnd, 1, 7);
    const lines: TpchRow[] = [];
    let total = 0;
    let shipped = 0;
    for (let l = 1; l <= n; l++) {
      const partkey = between(rnd, 1, parts);
      const suppkey = partSupplier(partkey, between(rnd, 0, 3), suppliers);
      const qty = between(rnd, 1, 50);
      const price = qty * retailPriceCents(partkey);
      const disc = between(rnd, 0, 10);
      const tax = between(rnd, 0, 8);
      const ship = orderDay + between(rnd, 1, 121);
      const commit = orderDay + between(rnd, 30, 90);
      const receipt = ship + between(rnd, 1, 30);
      const flag = receipt <= CURRENT_DAY ? (rnd() < 0.5 ? 'R' : 'A') : 'N';
      const status = ship > CURRENT_DAY ? 'O' : 'F';
      if (status === 'F') shipped++;
      total += Math.trunc((Math.trunc((price * (100 - disc)) / 100) * (100 + tax)) / 100);
      // drawn even when only the orders are wanted: the stream must stay the same
      const instruct = pick(rnd, SHIP_INSTRUCT);
      const mode = pick(rnd, SHIP_MODES);
      const lineComment = pool.comment(rnd, 10, 43);
      if (!withLines) continue;
      lines.push([okey, String(partkey), String(suppkey), String(l), `${qty}.00`, money(price), money(disc), money(tax),
        flag, status, DATES[ship]!, DATES[commit]!, DATES[receipt]!, instruct, mode, lineComment]);
    }
    const orderStatus = shipped === n ? 'F' : shipped === 0 ? 'O' : 'P';
    yield { row: [okey, String(cust), orderStatus, money(total), DATES[orderDay]!, priority, clerk, '0', comment], lines };
  }
}

/** every row of one table, in key order */
export function* tpchRows(table: TpchTable, sf: number): Generator<TpchRow> {
  const rnd = mulberry32(SEEDS[table]);
  switch (table) {
    case 'region': yield* regionRows(rnd); return;
    case 'nation': yield* nationRows(rnd); return;
    case 'supplier': yield* supplierRows(rnd, sf); return;
    case 'customer': yield* customerRows(rnd, sf); return;
    case 'part': yield* partRows(rnd, sf); return;
    case 'partsupp': yield* partsuppRows(rnd, sf); return;
    case 'orders': for (const o of orderStream(rnd, sf, false)) yield o.row; return;
    case 'lineitem': for (const o of orderStream(rnd, sf, true)) yield* o.lines; return;
  }
}
