drop table if exists t, u, emp;
create table t (a int4, b text);
insert into t values (1,'x'),(2,'y'),(3,NULL),(NULL,'z');
create table u (a int4, c text);
insert into u values (1,'one'),(2,'two'),(2,'deux'),(5,'five');
create table emp (id int4 not null, name text, dept text, salary int8, mgr int4);
insert into emp values (1,'ann','eng',100,null),(2,'bob','eng',80,1),(3,'cid','ops',80,1),(4,'dan','ops',60,3),(5,'eve','eng',80,2),(6,'fay',null,50,null);
