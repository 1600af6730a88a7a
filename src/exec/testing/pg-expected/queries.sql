select 1, 'a', 1+2 as x, 2.50, 3000000000, -1
select * from t order by a
select a, b from t where a > 1 order by a desc
select a + 1 as "A", b || '!' from t order by 1
select t.a, u.c from t join u on t.a = u.a order by 1, 2
select t.a, u.c from t left join u on t.a = u.a order by 1 nulls first, 2
select t.a, u.c from t right join u on t.a = u.a order by 2
select * from t full join u using (a) order by a, c
select * from t natural join u order by c
select count(*), sum(a), max(b), min(a), avg(a) from t
select b, count(*) from t group by b order by b
select dept, count(*), sum(salary) from emp group by dept having count(*) > 1 order by dept
select dept, count(*) filter (where salary >= 80) as hi from emp group by 1 order by 1 nulls first
select count(distinct salary), count(salary) from emp
select string_agg(name, ',' order by name desc) from emp
select a, (select count(*) from u where u.a = t.a) as n from t order by a
select a from t where exists (select 1 from u where u.a = t.a) order by 1
select a from t where not exists (select 1 from u where u.a = t.a) order by 1
select a from t where a in (select a from u) order by 1
select a from t where a not in (select a from u) order by 1
select a, a = any(array[1,3]) as m, a <> all(array[1,3]) from t order by a
select a from t where a in (1, 3) order by a
select a from t where a between 2 and 3 order by a
select case when a = 0 then 0 else 10 / a end from t order by 1
select case a when 1 then 'one' when 2 then 'two' else 'many' end from t order by a
select coalesce(b, 'none'), nullif(a, 2), greatest(a, 2), least(a, 2) from t order by a
select a::text, '5'::int + 1, cast(a as numeric) / 4 from t order by a
select a, b from t order by b desc limit 2 offset 1
select a is null, b is not null, a is distinct from 2, a is not distinct from null from t order by a
select (a > 1) is true, (a > 1) is not false, (a > 1) is unknown from t order by a
select name, salary, row_number() over (order by salary desc, id), rank() over (order by salary desc), dense_rank() over (order by salary desc) from emp order by id
select name, dept, sum(salary) over (partition by dept order by id), count(*) over (partition by dept) from emp order by id
select name, lag(name) over (order by id), lead(salary, 2, -1::int8) over (order by id) from emp order by id
select name, first_value(name) over w, last_value(name) over w, nth_value(name, 2) over w from emp window w as (order by id) order by id
select id, sum(salary) over (order by id rows between 1 preceding and 1 following) from emp order by id
select id, ntile(4) over (order by id), percent_rank() over (order by salary), cume_dist() over (order by salary) from emp order by id
select dept, salary, count(*) from emp group by rollup(dept, salary) order by dept, salary, 3
select dept, salary, count(*), grouping(dept, salary) from emp group by cube(dept, salary) order by dept, salary, 3, 4
select dept, count(*) from emp group by grouping sets ((dept), ()) order by dept
with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select * from r
with recursive chain as (select id, name, mgr, 1 as depth from emp where id = 4 union all select e.id, e.name, e.mgr, c.depth + 1 from emp e join chain c on e.id = c.mgr) select * from chain order by depth
with x as (select a from t where a > 1) select * from x, x as y order by 1, 2
select * from generate_series(1, 3) g
select * from generate_series(1, 3) with ordinality as g(x, n)
select generate_series(1, 3), 'x'
select distinct on (a) a, c from u order by a, c
select distinct dept from emp order by dept
select a from t union select a from u order by 1
select a from t union all select a from u order by 1
select a from t intersect select a from u order by 1
select a from t except all select a from u order by 1
select t.a, s.c from t, lateral (select c from u where u.a = t.a order by c limit 1) s order by 1
select t.a, s.c from t left join lateral (select c from u where u.a = t.a order by c limit 1) s on true order by 1
select * from (values (1, 'a'), (2, null)) v(x, y) order by x
select x from (select a as x from t) s where x is not null order by x
select array[1, 2, 3], (array[1, 2, 3])[2], array['a', 'b'], array[[1, 2], [3, 4]]
select array(select a from u order by a)
select e.name, m.name as boss from emp e left join emp m on e.mgr = m.id order by e.id
select name from emp e where salary > (select avg(salary) from emp where dept = e.dept) order by 1
select upper(name), length(name), substring(name from 2 for 1), position('n' in name), trim(both 'a' from name) from emp order by id
select name like 'a%', name ilike 'B%', name not like '%n' from emp order by id
select extract(year from date '2024-03-05'), date '2024-01-01' + 1
select 7 / 2, 7 % 2, 7.0 / 2, 2 ^ 3, -a from t order by a
select a, b from t order by 2, 1
select name as n from emp order by n limit 2
select dept, max(salary) from emp group by dept order by max(salary) desc, dept
select count(*) from emp where dept = 'eng' and salary > 70 or mgr is null
select 'abc' || 1, 1 || 'abc'
select true and null, false and null, true or null, false or null, not null::bool
select row(1, 'a') is null, row(null, null) is null
select a from t order by a nulls first
select a from t order by a desc nulls last
select sum(a) from t where false
select count(*) from t group by a having a > 10
select 1 as x union select 2 order by x desc
select exists (select 1 from t where a = 2), exists (select 1 from t where a = 99)
select name from emp where mgr = any (select id from emp where dept = 'eng') order by 1
select name from emp where salary >= all (select salary from emp where dept = 'ops') order by 1
select a, b, c from t left join u using (a) where c is null order by a
select u.* , t.b from u join t on u.a = t.a order by u.a, u.c
select count(*) from t, u
select a, count(*) over (partition by a) from u order by a
select a, sum(a) over (order by a range between unbounded preceding and unbounded following) from u order by a
select a, sum(a) over (order by a rows unbounded preceding) from u order by a
select (select max(a) from u) - a from t order by 1
select a, b from t where b in ('x', 'z') order by a
select a from t where b like any (array['x%', 'z%']) order by a
select name, salary from emp order by salary desc, name limit 3
select * from (select dept, count(*) as n from emp group by dept) s where n > 1 order by dept
select coalesce(max(a), 0) from t where a > 100
select sum(salary) / count(*), avg(salary)::int8 from emp
select name from emp where dept is null or salary < 60 order by name
select 'a' union all select 'b' order by 1 desc
select x, y from (values (1, 2), (3, 4)) as v(x, y) where x > 1
select a, b from t where (a, b) = (1, 'x')
with a as (select 1 as x), b as (select x + 1 as y from a) select * from a, b
select max(a) filter (where a < 3), min(c) from u
select distinct a from u order by a desc
select dept, (select count(*) from emp e2 where e2.dept = e.dept) as n from emp e group by dept order by 1
select e.dept, count(*) from emp e group by e.dept having (select max(salary) from emp x where x.dept = e.dept) > 90 order by 1
select name from emp where id = any ('{1,3}') order by 1
select name, 'lit' as l, null as n from emp order by id limit 1
select sum(x) from (select a * 2 as x from t) s
select a, array_agg(c order by c) from u group by a order by a
select * from t where a = 1 or b = 'z' order by a
select abs(-5), round(2.567, 2), lower('ABC'), replace('abc', 'b', 'x'), concat('a', 1, null, 'b')
select name, case when salary > 90 then 'high' when salary > 70 then 'mid' end from emp order by id
select count(*) from (select distinct dept from emp) d
select id from emp order by id offset 4
select id from emp order by id fetch first 2 rows only
select t1.a, t2.a from t t1 cross join t t2 where t1.a < t2.a order by 1, 2
select a, b from t where b is null or a is null order by a
select id, mgr, (select name from emp m where m.id = e.mgr) from emp e order by id
select a, (select string_agg(x::text, ',') from (select u.a + t.a as x from u) s) from t order by a
select a, array(select g from generate_series(1, t.a) g) from t order by a
select a, (select count(*) from generate_series(1, t.a)) from t order by a
select t.a, g from t, generate_series(1, t.a) g order by 1, 2
select x from (select * from (select a as x from t) s1 where x > 1) s2 order by 1
select (select count(*) from (select 1 from u where u.a = t.a) z) from t order by a
select t from t order by a
select (a, b) < (2, 'a'), (a, b) >= (2, 'y') from t order by a
select a from t order by a using >
select count(t.*) from t
select u.a, (select count(*) from t where row(t.a) = row(u.a)) from u order by 1
select a from t where a = 1 union all select a from u where a = 5 union all select 9 order by 1
(select a from t order by a desc limit 1) union all (select a from u order by a limit 1)
select ordinality, x from unnest(array['a', 'b']) with ordinality as x order by 1
select unnest(array[1, 2]) as v, a from t where a = 1
select dept, string_agg(name, '/') filter (where salary > 60) from emp group by dept order by dept
select (x).a, (x).b from (select t as x from t) s order by 1
select s.r, (s.r).value from (select jsonb_each_text('{"a":1,"b":2}') as r) s order by 1
select key, value from jsonb_each_text('{"a":1,"b":2}') order by key
select a, (with c as (select count(*) as n from u where u.a = t.a) select n from c) from t order by a
select name from emp order by name collate "C" desc limit 2
select 'B' < 'a', 'abc' > 'abd', upper('x') || lower('Y')
select e.dept, count(*), min(m.name), max(e.name) from emp e join emp m on e.mgr = m.id group by e.dept order by e.dept nulls first
select distinct on (dept) dept, name from emp order by dept desc, name
select * from emp where salary in (select salary from emp where dept = 'ops') and name <> 'cid' order by id
select id, salary, avg(salary) over (partition by dept) from emp order by id
select count(*) filter (where mgr is null), bool_and(salary > 40), bool_or(salary > 90) from emp
select x, count(*) from (values (1), (1), (null), (2)) v(x) group by x order by x
select coalesce(null, null, 3), nullif('a', 'a') is null, greatest('a', 'b', null)
select * from t cross join lateral (select count(*) as n from u where u.a <= t.a) s order by a
select id, salary, sum(salary) over (order by salary range between 20 preceding and current row), count(*) over (order by salary desc range between current row and 20 following) from emp order by id
select x, sum(x) over (order by x range between 1 preceding and 1 following) from (values (1), (2), (null), (4), (null)) v(x) order by x
select d, count(*) over (order by d range between interval '1 day' preceding and current row) from (values (date '2024-01-01'), (date '2024-01-02'), (date '2024-01-04')) v(d) order by d
select x, first_value(x) over (order by x desc range between 2 preceding and 1 following) from (values (1), (2), (3), (5), (8)) v(x) order by x
