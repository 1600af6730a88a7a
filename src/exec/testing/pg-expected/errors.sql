select * from nope
select nope from t
select t.nope from t
select x.a from t
select a from t, u
select a, count(*) from t
select b from t group by a
select 1 from t order by 5
select sum(a) from t where sum(a) > 1
select row_number() from t
select a from t where a = 'x'
select 1 + 'x'
select * from t join u using (zz)
select (select a from t)
select (select a, b from t)
select 1 union select 1, 2
select distinct a from t order by b
select count(*) from t where count(*) > 0
select a from t limit -1
select 10 / 0
select 'abc'::int
select a from t where b
select nosuchfn(1)
select 1 frm t
select a from t where a = 1 group by b
select t.* from u
select * from t where a = (select a from u)
select 1 from t group by 3
select a from t union select b from t
select array[]
select * from t join u on t.a = u.a where a = 1
with w as (select 1), w as (select 2) select 1
select a from t order by c
select count(*) over w from t
select b from t group by rollup(a)
insert into t values (1, 'x', 3)
select ntile(0) over () from t
select dept from emp e join emp m on e.mgr = m.id
