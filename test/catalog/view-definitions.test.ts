/**
 * pg_get_viewdef, pg_views.definition and information_schema.views.view_definition print a view as PostgreSQL 15's
 * ruleutils does (src/pgcatalog/ruleutils-view-def.ts). Expected texts are a scratch PostgreSQL 15's for the same
 * tables and CREATE VIEW statements: [view, CREATE VIEW, pg_get_viewdef(v, true), pg_get_viewdef(v)]. A view outside
 * the covered forms keeps its stored SQL text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineQuery, type EngineQuery } from '../../src/pgcatalog/testing/engine-query.ts';

const CASES: readonly (readonly [string, string, string, string])[] = [
  ['v1', 'create view shop.v1 as select * from shop.customers',
    ' SELECT customers.id,\n    customers.name,\n    customers.email,\n    customers.balance,\n    customers.created,\n    customers.active\n   FROM shop.customers;',
    ' SELECT customers.id,\n    customers.name,\n    customers.email,\n    customers.balance,\n    customers.created,\n    customers.active\n   FROM shop.customers;'],
  ['v2', 'create view shop.v2 as select o.id, c.name as cname, o.amount from shop.orders o join shop.customers c on o.customer_id = c.id order by o.id desc',
    ' SELECT o.id,\n    c.name AS cname,\n    o.amount\n   FROM shop.orders o\n     JOIN shop.customers c ON o.customer_id = c.id\n  ORDER BY o.id DESC;',
    ' SELECT o.id,\n    c.name AS cname,\n    o.amount\n   FROM (shop.orders o\n     JOIN shop.customers c ON ((o.customer_id = c.id)))\n  ORDER BY o.id DESC;'],
  ['v3', 'create view shop.v3 as select c.id, count(*) from shop.customers c left join shop.orders o on o.customer_id = c.id group by c.id',
    ' SELECT c.id,\n    count(*) AS count\n   FROM shop.customers c\n     LEFT JOIN shop.orders o ON o.customer_id = c.id\n  GROUP BY c.id;',
    ' SELECT c.id,\n    count(*) AS count\n   FROM (shop.customers c\n     LEFT JOIN shop.orders o ON ((o.customer_id = c.id)))\n  GROUP BY c.id;'],
  ['v5', 'create view shop.v5 as select name, email from shop.customers where id = 1 or id = 2 limit 3',
    ' SELECT customers.name,\n    customers.email\n   FROM shop.customers\n  WHERE customers.id = 1 OR customers.id = 2\n LIMIT 3;',
    ' SELECT customers.name,\n    customers.email\n   FROM shop.customers\n  WHERE ((customers.id = 1) OR (customers.id = 2))\n LIMIT 3;'],
  ['v6', 'create view shop.v6 as select customer_id, sum(amount) from shop.orders o group by customer_id having sum(amount) > 1 order by 2',
    ' SELECT o.customer_id,\n    sum(o.amount) AS sum\n   FROM shop.orders o\n  GROUP BY o.customer_id\n HAVING sum(o.amount) > 1::numeric\n  ORDER BY (sum(o.amount));',
    ' SELECT o.customer_id,\n    sum(o.amount) AS sum\n   FROM shop.orders o\n  GROUP BY o.customer_id\n HAVING (sum(o.amount) > (1)::numeric)\n  ORDER BY (sum(o.amount));'],
  ['v7', 'create view shop.v7 as select distinct name from shop.customers',
    ' SELECT DISTINCT customers.name\n   FROM shop.customers;',
    ' SELECT DISTINCT customers.name\n   FROM shop.customers;'],
  ['w1', 'create view shop.w1 as select o.id, c.name, p.note from shop.orders o join shop.customers c on o.customer_id = c.id left join shop.orders p on p.id = o.id where o.qty = 3 and (o.ratio > 2 or o.weight < 1) and not c.active',
    ' SELECT o.id,\n    c.name,\n    p.note\n   FROM shop.orders o\n     JOIN shop.customers c ON o.customer_id = c.id\n     LEFT JOIN shop.orders p ON p.id = o.id\n  WHERE o.qty = 3 AND (o.ratio > 2::double precision OR o.weight < 1::double precision) AND NOT c.active;',
    ' SELECT o.id,\n    c.name,\n    p.note\n   FROM ((shop.orders o\n     JOIN shop.customers c ON ((o.customer_id = c.id)))\n     LEFT JOIN shop.orders p ON ((p.id = o.id)))\n  WHERE ((o.qty = 3) AND ((o.ratio > (2)::double precision) OR (o.weight < (1)::double precision)) AND (NOT c.active));'],
  ['w3', 'create view shop.w3 as select customer_id, count(distinct amount), max(note), min(ordered_on), avg(qty) from shop.orders group by customer_id having count(*) > 1 order by 2 desc, customer_id limit 5 offset 1',
    ' SELECT orders.customer_id,\n    count(DISTINCT orders.amount) AS count,\n    max(orders.note::text) AS max,\n    min(orders.ordered_on) AS min,\n    avg(orders.qty) AS avg\n   FROM shop.orders\n  GROUP BY orders.customer_id\n HAVING count(*) > 1\n  ORDER BY (count(DISTINCT orders.amount)) DESC, orders.customer_id\n OFFSET 1\n LIMIT 5;',
    ' SELECT orders.customer_id,\n    count(DISTINCT orders.amount) AS count,\n    max((orders.note)::text) AS max,\n    min(orders.ordered_on) AS min,\n    avg(orders.qty) AS avg\n   FROM shop.orders\n  GROUP BY orders.customer_id\n HAVING (count(*) > 1)\n  ORDER BY (count(DISTINCT orders.amount)) DESC, orders.customer_id\n OFFSET 1\n LIMIT 5;'],
  ['w4', "create view shop.w4 as select id from shop.orders where note = 'x' and code = 'abc' and id = 5",
    " SELECT orders.id\n   FROM shop.orders\n  WHERE orders.note::text = 'x'::text AND orders.code = 'abc'::bpchar AND orders.id = 5;",
    " SELECT orders.id\n   FROM shop.orders\n  WHERE (((orders.note)::text = 'x'::text) AND (orders.code = 'abc'::bpchar) AND (orders.id = 5));"],
  ['w5', 'create view shop.w5 as select shop.orders.id from shop.orders order by orders.id',
    ' SELECT orders.id\n   FROM shop.orders\n  ORDER BY orders.id;',
    ' SELECT orders.id\n   FROM shop.orders\n  ORDER BY orders.id;'],
  ['w6', 'create view shop.w6 as select c.email, c.name from shop.customers c where c.email = c.name and 5 < c.id and c.balance >= 0 order by name',
    ' SELECT c.email,\n    c.name\n   FROM shop.customers c\n  WHERE c.email::text = c.name AND 5 < c.id AND c.balance >= 0::numeric\n  ORDER BY c.name;',
    ' SELECT c.email,\n    c.name\n   FROM shop.customers c\n  WHERE (((c.email)::text = c.name) AND (5 < c.id) AND (c.balance >= (0)::numeric))\n  ORDER BY c.name;'],
  ['x1', 'create view shop.x1 as select id, amount * 2 as doubled, amount * qty, qty + 1 as q1, id - customer_id as d, ratio / 2 as r, weight * 2 as w from shop.orders',
    ' SELECT orders.id,\n    orders.amount * 2::numeric AS doubled,\n    orders.amount * orders.qty::numeric AS "?column?",\n    orders.qty + 1 AS q1,\n    orders.id - orders.customer_id AS d,\n    orders.ratio / 2::double precision AS r,\n    orders.weight * 2::double precision AS w\n   FROM shop.orders;',
    ' SELECT orders.id,\n    (orders.amount * (2)::numeric) AS doubled,\n    (orders.amount * (orders.qty)::numeric) AS "?column?",\n    (orders.qty + 1) AS q1,\n    (orders.id - orders.customer_id) AS d,\n    (orders.ratio / (2)::double precision) AS r,\n    (orders.weight * (2)::double precision) AS w\n   FROM shop.orders;'],
  ['x2', 'create view shop.x2 as select customer_id, sum(amount * qty) as s, sum(amount) * 2 as s2 from shop.orders where amount + 1 > 5 and qty * 2 < 10 group by customer_id',
    ' SELECT orders.customer_id,\n    sum(orders.amount * orders.qty::numeric) AS s,\n    sum(orders.amount) * 2::numeric AS s2\n   FROM shop.orders\n  WHERE (orders.amount + 1::numeric) > 5::numeric AND (orders.qty * 2) < 10\n  GROUP BY orders.customer_id;',
    ' SELECT orders.customer_id,\n    sum((orders.amount * (orders.qty)::numeric)) AS s,\n    (sum(orders.amount) * (2)::numeric) AS s2\n   FROM shop.orders\n  WHERE (((orders.amount + (1)::numeric) > (5)::numeric) AND ((orders.qty * 2) < 10))\n  GROUP BY orders.customer_id;'],
  ['x3', "create view shop.x3 as select orders.id, (amount + 1) * 2 as a, amount - (qty - 1) as b, amount - qty - 1 as c, name || 'x' as n, email || '@' as e from shop.orders, shop.customers where customer_id = customers.id",
    " SELECT orders.id,\n    (orders.amount + 1::numeric) * 2::numeric AS a,\n    orders.amount - (orders.qty - 1)::numeric AS b,\n    orders.amount - orders.qty::numeric - 1::numeric AS c,\n    customers.name || 'x'::text AS n,\n    customers.email::text || '@'::text AS e\n   FROM shop.orders,\n    shop.customers\n  WHERE orders.customer_id = customers.id;",
    " SELECT orders.id,\n    ((orders.amount + (1)::numeric) * (2)::numeric) AS a,\n    (orders.amount - ((orders.qty - 1))::numeric) AS b,\n    ((orders.amount - (orders.qty)::numeric) - (1)::numeric) AS c,\n    (customers.name || 'x'::text) AS n,\n    ((customers.email)::text || '@'::text) AS e\n   FROM shop.orders,\n    shop.customers\n  WHERE (orders.customer_id = customers.id);"],
  ['x4', 'create view shop.x4 as select o.id, o.qty * o.qty as sq, o.id * 2 as id2, o.qty * 2 as q2 from shop.orders o',
    ' SELECT o.id,\n    o.qty * o.qty AS sq,\n    o.id * 2 AS id2,\n    o.qty * 2 AS q2\n   FROM shop.orders o;',
    ' SELECT o.id,\n    (o.qty * o.qty) AS sq,\n    (o.id * 2) AS id2,\n    (o.qty * 2) AS q2\n   FROM shop.orders o;'],
];

let db: EngineQuery;
beforeAll(async () => {
  db = await engineQuery(95, [
    'create schema shop',
    `create table shop.customers (id integer primary key, name text not null, email varchar(80), balance numeric(12,2),
      created timestamptz, active boolean)`,
    `create table shop.orders (id bigint primary key, customer_id integer not null, amount numeric(10,2), ordered_on date,
      ordered_at timestamp, ratio double precision, note varchar(40), code char(3), qty smallint, weight real)`,
    ...CASES.map((c) => c[1]),
    'create view shop.other as select case when id > 1 then name end as n from shop.customers',
  ]);
});
afterAll(async () => {
  await db?.close();
});

describe('view definitions as PostgreSQL 15 prints them', () => {
  it.each(CASES)('%s', async (name, _create, pretty, plain) => {
    const rows = await db.query(`select pg_get_viewdef('shop.${name}'::regclass, true), pg_get_viewdef('shop.${name}'::regclass),
      pg_get_viewdef('shop.${name}', false), (select definition from pg_views where schemaname = 'shop' and viewname = '${name}'),
      (select view_definition from information_schema.views where table_schema = 'shop' and table_name = '${name}')`);
    expect(rows).toEqual([[pretty, plain, plain, plain, plain]]);
  });

  it('a view outside the covered forms (CASE) keeps its stored text', async () => {
    const [[def]] = (await db.query("select pg_get_viewdef('shop.other'::regclass, true)")) as [[string]];
    expect(def.startsWith(' SELECT')).toBe(true);
    expect(def).toContain('CASE');
    expect(def.endsWith(';')).toBe(true);
  });

  it('the wrap-column form keeps the stored text (PostgreSQL packs targets up to the width)', async () => {
    const [[def]] = (await db.query("select pg_get_viewdef('shop.v7'::regclass, 80)")) as [[string]];
    expect(def).toContain('DISTINCT');
  });
});
