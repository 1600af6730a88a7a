/*
 * pgJDBC DatabaseMetaData sweep (test/compat/jdbc-metadata-sweep.test.ts runs it against lakegate and PostgreSQL and
 * diffs the output): every no-argument capability method by reflection, every pattern-taking method over the sweep
 * schema (test/compat/sweep/sweep-pair.ts), and ResultSetMetaData of queries over every column type.
 * Prints "## <call>" sections, one line per row; an exception prints "EXC <class> <sqlstate> <message>".
 * Args: host port database.
 */
import java.lang.reflect.Method;
import java.sql.*;
import java.util.*;

public class MetaSweep {
  static DatabaseMetaData md;
  interface Call { ResultSet run() throws SQLException; }

  static void dump(String name, Call c) {
    System.out.println("## " + name);
    try (ResultSet rs = c.run()) {
      ResultSetMetaData m = rs.getMetaData();
      StringBuilder h = new StringBuilder("cols:");
      for (int i = 1; i <= m.getColumnCount(); i++) h.append(' ').append(m.getColumnLabel(i));
      System.out.println(h);
      while (rs.next()) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= m.getColumnCount(); i++) { if (i > 1) sb.append(" | "); sb.append(rs.getString(i)); }
        System.out.println(sb);
      }
    } catch (Exception e) {
      System.out.println("EXC " + e.getClass().getSimpleName() + " " + (e instanceof SQLException ? ((SQLException) e).getSQLState() : "") + " " + String.valueOf(e.getMessage()).split("\n")[0]);
    }
  }

  public static void main(String[] a) throws Exception {
    String url = "jdbc:postgresql://" + a[0] + ":" + a[1] + "/" + a[2];
    Properties p = new Properties();
    p.setProperty("user", "postgres");
    try (Connection conn = DriverManager.getConnection(url, p)) {
      md = conn.getMetaData();
      // every no-argument capability / info method, by reflection
      Method[] ms = DatabaseMetaData.class.getMethods();
      Arrays.sort(ms, Comparator.comparing(Method::getName));
      for (Method m : ms) {
        if (m.getParameterCount() != 0) continue;
        Class<?> r = m.getReturnType();
        if (r == ResultSet.class) continue;
        if (m.getName().equals("getConnection") || m.getName().equals("getURL")) continue;
        Object v;
        try { v = m.invoke(md); } catch (Exception e) { v = "EXC " + e.getCause(); }
        System.out.println("cap " + m.getName() + " = " + v);
      }
      int[] rsTypes = {ResultSet.TYPE_FORWARD_ONLY, ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.TYPE_SCROLL_SENSITIVE};
      for (int t : rsTypes) System.out.println("cap supportsResultSetType(" + t + ") = " + md.supportsResultSetType(t));
      for (int l : new int[]{0, 1, 2, 4, 8}) System.out.println("cap supportsTransactionIsolationLevel(" + l + ") = " + md.supportsTransactionIsolationLevel(l));
      for (int t : new int[]{Types.INTEGER, Types.BIGINT, Types.VARCHAR, Types.NUMERIC})
        for (int u : new int[]{Types.BIGINT, Types.VARCHAR, Types.DOUBLE}) System.out.println("cap supportsConvert(" + t + "," + u + ") = " + md.supportsConvert(t, u));
      dump("getCatalogs", () -> md.getCatalogs());
      dump("getSchemas()", () -> md.getSchemas());
      dump("getSchemas(null,sh%)", () -> md.getSchemas(null, "sh%"));
      dump("getTableTypes", () -> md.getTableTypes());
      dump("getTables(shop)", () -> md.getTables(null, "shop", "%", null));
      dump("getTables(public)", () -> md.getTables(null, "public", "%", null));
      dump("getTables(%,TABLE/VIEW)", () -> md.getTables(null, null, "%", new String[]{"TABLE", "VIEW"}));
      dump("getTables(pg_catalog,pg_c%)", () -> md.getTables(null, "pg_catalog", "pg_c%", null));
      dump("getTables(information_schema,%)", () -> md.getTables(null, "information_schema", "%", null));
      dump("getColumns(shop)", () -> md.getColumns(null, "shop", "%", "%"));
      dump("getColumns(public)", () -> md.getColumns(null, "public", "%", "%"));
      dump("getColumns(pg_catalog.pg_namespace)", () -> md.getColumns(null, "pg_catalog", "pg_namespace", "%"));
      dump("getTables(pg_catalog,%)", () -> md.getTables(null, "pg_catalog", "%", null));
      dump("getColumns(information_schema.columns)", () -> md.getColumns(null, "information_schema", "columns", "%"));
      dump("getColumns(pg_catalog.pg_class)", () -> md.getColumns(null, "pg_catalog", "pg_class", "%"));
      for (String t : new String[]{"customers", "orders", "order_summary"}) {
        dump("getPrimaryKeys(shop." + t + ")", () -> md.getPrimaryKeys(null, "shop", t));
        dump("getImportedKeys(shop." + t + ")", () -> md.getImportedKeys(null, "shop", t));
        dump("getExportedKeys(shop." + t + ")", () -> md.getExportedKeys(null, "shop", t));
        dump("getIndexInfo(shop." + t + ",false)", () -> md.getIndexInfo(null, "shop", t, false, true));
        dump("getIndexInfo(shop." + t + ",unique)", () -> md.getIndexInfo(null, "shop", t, true, false));
        dump("getBestRowIdentifier(shop." + t + ")", () -> md.getBestRowIdentifier(null, "shop", t, DatabaseMetaData.bestRowSession, true));
        dump("getVersionColumns(shop." + t + ")", () -> md.getVersionColumns(null, "shop", t));
        dump("getColumnPrivileges(shop." + t + ")", () -> md.getColumnPrivileges(null, "shop", t, "%"));
      }
      dump("getPrimaryKeys(public.notes)", () -> md.getPrimaryKeys(null, "public", "notes"));
      dump("getPrimaryKeys(null,null,orders)", () -> md.getPrimaryKeys(null, null, "orders"));
      dump("getImportedKeys(null,null,orders)", () -> md.getImportedKeys(null, null, "orders"));
      dump("getCrossReference", () -> md.getCrossReference(null, "shop", "customers", null, "shop", "orders"));
      dump("getIndexInfo(public.notes)", () -> md.getIndexInfo(null, "public", "notes", false, true));
      dump("getTablePrivileges(shop)", () -> md.getTablePrivileges(null, "shop", "%"));
      dump("getTablePrivileges(public)", () -> md.getTablePrivileges(null, "public", "%"));
      dump("getProcedures(shop)", () -> md.getProcedures(null, "shop", "%"));
      dump("getProcedures(pg_catalog,abs)", () -> md.getProcedures(null, "pg_catalog", "abs"));
      dump("getProcedureColumns(pg_catalog,abs)", () -> md.getProcedureColumns(null, "pg_catalog", "abs", "%"));
      dump("getProcedureColumns(pg_catalog,generate_series)", () -> md.getProcedureColumns(null, "pg_catalog", "generate_series", "%"));
      dump("getFunctions(pg_catalog,lower)", () -> md.getFunctions(null, "pg_catalog", "lower"));
      dump("getFunctions(pg_catalog,date_%)", () -> md.getFunctions(null, "pg_catalog", "date_%"));
      dump("getFunctionColumns(pg_catalog,date_part)", () -> md.getFunctionColumns(null, "pg_catalog", "date_part", "%"));
      dump("getFunctionColumns(pg_catalog,pg_get_keywords)", () -> md.getFunctionColumns(null, "pg_catalog", "pg_get_keywords", "%"));
      dump("getUDTs(shop)", () -> md.getUDTs(null, "shop", "%", null));
      dump("getUDTs(all)", () -> md.getUDTs(null, null, "%", null));
      dump("getSuperTypes", () -> md.getSuperTypes(null, "shop", "%"));
      dump("getSuperTables", () -> md.getSuperTables(null, "shop", "%"));
      dump("getAttributes", () -> md.getAttributes(null, "shop", "%", "%"));
      dump("getPseudoColumns", () -> md.getPseudoColumns(null, "shop", "%", "%"));
      dump("getTypeInfo", () -> md.getTypeInfo());
      dump("getClientInfoProperties", () -> md.getClientInfoProperties());
      String[] queries = {
        "SELECT * FROM shop.orders",
        "SELECT * FROM shop.customers",
        "SELECT * FROM shop.order_summary",
        "SELECT * FROM notes",
        "SELECT * FROM pg_catalog.pg_class LIMIT 0",
        "SELECT * FROM pg_catalog.pg_attribute LIMIT 0",
        "SELECT * FROM pg_catalog.pg_proc LIMIT 0",
        "SELECT * FROM pg_catalog.pg_type LIMIT 0",
        "SELECT * FROM information_schema.columns LIMIT 0",
        "SELECT 1::int2 a, 1::int4 b, 1::int8 c, 1.5::numeric(5,2) d, 1.5::numeric e, 1::float4 f, 1::float8 g, 'a'::text h, 'a'::varchar(10) i, 'a'::varchar j, 'a'::char(3) k, true l, date '2024-01-01' m, time '10:00' n, timetz '10:00+02' o, timestamp '2024-01-01' p, timestamptz '2024-01-01' q, interval '1 day' r, '\\x00'::bytea s, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid t, '{}'::json u, '{}'::jsonb v, '{1}'::int[] w, '{a}'::text[] x, 'x'::name y, 1::oid z, 'a'::\"char\" aa, '1.2.3.4'::inet ab, 'pg_class'::regclass ac, time(3) '10:00' ad, timestamp(2) '2024-01-01' ae, '{1.5}'::numeric(4,1)[] af, 1::smallint + 1 ag, null ah, 'x' ai",
      };
      for (String q : queries) {
        System.out.println("## RSMD " + q);
        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery(q)) {
          ResultSetMetaData m = rs.getMetaData();
          for (int i = 1; i <= m.getColumnCount(); i++) {
            System.out.println(m.getColumnName(i) + " label=" + m.getColumnLabel(i) + " type=" + m.getColumnType(i) + " typeName=" + m.getColumnTypeName(i)
              + " prec=" + m.getPrecision(i) + " scale=" + m.getScale(i) + " disp=" + m.getColumnDisplaySize(i) + " null=" + m.isNullable(i)
              + " auto=" + m.isAutoIncrement(i) + " signed=" + m.isSigned(i) + " case=" + m.isCaseSensitive(i) + " cur=" + m.isCurrency(i)
              + " class=" + m.getColumnClassName(i) + " table=" + m.getTableName(i) + " schema=" + m.getSchemaName(i) + " base=" + ((org.postgresql.PGResultSetMetaData) m).getBaseColumnName(i)
              + " ro=" + m.isReadOnly(i) + " w=" + m.isWritable(i) + " search=" + m.isSearchable(i));
          }
          while (rs.next()) {
            StringBuilder sb = new StringBuilder("row:");
            for (int i = 1; i <= m.getColumnCount(); i++) { Object o = rs.getObject(i); sb.append(' ').append(o == null ? "null" : o.getClass().getSimpleName() + ":" + o); }
            System.out.println(sb);
          }
        } catch (Exception e) {
          System.out.println("EXC " + e.getMessage().split("\n")[0]);
        }
      }
    }
    System.out.println("DONE");
  }
}
