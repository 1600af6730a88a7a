/*
 * pgJDBC compat: DatabaseMetaData calls, a PreparedStatement run 7 times (pgJDBC switches to a named
 * server statement and binary transfer after prepareThreshold=5), ResultSetMetaData / ParameterMetaData,
 * setFetchSize inside a transaction (Execute with maxRows → PortalSuspended), setQueryTimeout cancelling
 * pg_sleep(5). Prints "ok <step>" per check and DONE; exits 1 on the first failure.
 * Env: PGHOST PGPORT PGUSER PGDATABASE COMPAT_SCHEMA (set by test/compat/jdbc.test.ts).
 */
import java.math.BigDecimal;
import java.sql.*;
import java.util.*;

public class JdbcCompat {
  static void check(String name, Object actual, Object expected) {
    if (!Objects.equals(actual, expected)) {
      System.out.println("FAIL " + name + ": expected " + expected + ", got " + actual);
      System.exit(1);
    }
    System.out.println("ok " + name);
  }

  static List<String> column(ResultSet rs, String col) throws SQLException {
    List<String> out = new ArrayList<>();
    while (rs.next()) out.add(rs.getString(col));
    rs.close();
    return out;
  }

  public static void main(String[] args) throws Exception {
    String env = System.getenv().getOrDefault("PGHOST", "127.0.0.1");
    String url = "jdbc:postgresql://" + env + ":" + System.getenv().getOrDefault("PGPORT", "5432") + "/"
        + System.getenv().getOrDefault("PGDATABASE", "postgres");
    String schema = System.getenv().getOrDefault("COMPAT_SCHEMA", "public");
    Properties props = new Properties();
    props.setProperty("user", System.getenv().getOrDefault("PGUSER", "postgres"));
    props.setProperty("prepareThreshold", "5");
    props.setProperty("connectTimeout", "10");
    try (Connection conn = DriverManager.getConnection(url, props)) {
      DatabaseMetaData md = conn.getMetaData();
      check("product name", md.getDatabaseProductName(), "PostgreSQL");
      check("major version", md.getDatabaseMajorVersion(), 15);
      check("catalogs", column(md.getCatalogs(), "TABLE_CAT").contains(conn.getCatalog()), true);
      check("schemas", column(md.getSchemas(), "TABLE_SCHEM").contains(schema), true);
      check("schemas pattern", column(md.getSchemas(null, schema), "TABLE_SCHEM"), List.of(schema));
      check("table types", column(md.getTableTypes(), "TABLE_TYPE").containsAll(List.of("TABLE", "VIEW")), true);
      check("tables", column(md.getTables(null, schema, "%", new String[] {"TABLE"}), "TABLE_NAME"), List.of("customers", "orders"));
      check("views", column(md.getTables(null, schema, "%", new String[] {"VIEW"}), "TABLE_NAME"), List.of("order_summary"));
      ResultSet cols = md.getColumns(null, schema, "customers", "%");
      List<String> colDesc = new ArrayList<>();
      while (cols.next()) colDesc.add(cols.getString("COLUMN_NAME") + ":" + cols.getString("TYPE_NAME") + ":" + cols.getInt("DATA_TYPE") + ":" + cols.getString("IS_NULLABLE"));
      cols.close();
      check("columns", colDesc, List.of("id:int4:4:NO", "name:text:12:NO", "email:varchar:12:YES", "balance:numeric:2:YES", "created:timestamptz:93:YES", "active:bool:-7:YES"));
      check("primary keys", column(md.getPrimaryKeys(null, schema, "orders"), "COLUMN_NAME"), List.of("id"));
      ResultSet fk = md.getImportedKeys(null, schema, "orders");
      List<String> fks = new ArrayList<>();
      while (fk.next()) fks.add(fk.getString("FKCOLUMN_NAME") + "->" + fk.getString("PKTABLE_NAME") + "." + fk.getString("PKCOLUMN_NAME"));
      fk.close();
      check("imported keys", fks, List.of("customer_id->customers.id"));
      check("exported keys", column(md.getExportedKeys(null, schema, "customers"), "FKTABLE_NAME"), List.of("orders"));
      List<String> types = column(md.getTypeInfo(), "TYPE_NAME");
      check("type info", types.containsAll(List.of("int4", "int8", "text", "numeric", "timestamptz", "bool")), true);
      List<String> indexes = column(md.getIndexInfo(null, schema, "orders", false, false), "INDEX_NAME");
      if (!"1".equals(System.getenv("COMPAT_NO_INDEX"))) check("index info", indexes.contains("orders_customer_idx"), true);

      String sql = "SELECT o.id, o.amount, o.ordered_on, o.ordered_at, o.ratio, c.created, c.name FROM " + schema
          + ".orders o JOIN " + schema + ".customers c ON c.id = o.customer_id WHERE o.id = ? AND o.amount > ?";
      try (PreparedStatement ps = conn.prepareStatement(sql)) {
        for (int i = 0; i < 7; i++) {
          ps.setLong(1, 100 + (i % 3));
          ps.setBigDecimal(2, new BigDecimal("1.00"));
          try (ResultSet rs = ps.executeQuery()) {
            check("prepared row " + i, rs.next(), true);
            long id = rs.getLong(1);
            check("prepared id " + i, id, 100L + (i % 3));
            BigDecimal[] amounts = {new BigDecimal("19.99"), new BigDecimal("5.00"), new BigDecimal("250.00")};
            check("prepared numeric " + i, rs.getBigDecimal(2), amounts[i % 3]);
            String[] dates = {"2024-03-01", "2024-03-02", "2024-04-15"};
            check("prepared date " + i, rs.getDate(3).toString(), dates[i % 3]);
            check("prepared timestamp " + i, rs.getTimestamp(4).toLocalDateTime().toLocalDate().toString(), dates[i % 3]);
            double[] ratios = {0.5, 0.25, 1.5};
            check("prepared float8 " + i, rs.getDouble(5), ratios[i % 3]);
            check("prepared timestamptz " + i, rs.getTimestamp(6).toInstant().toString(), "2024-01-01T00:00:00Z");
            check("prepared no more rows " + i, rs.next(), false);
          }
        }
        ResultSetMetaData rsmd = ps.getMetaData();
        check("rsmd count", rsmd.getColumnCount(), 7);
        check("rsmd names", List.of(rsmd.getColumnName(1), rsmd.getColumnName(2), rsmd.getColumnName(7)), List.of("id", "amount", "name"));
        check("rsmd types", List.of(rsmd.getColumnTypeName(1), rsmd.getColumnTypeName(2), rsmd.getColumnTypeName(6)), List.of("int8", "numeric", "timestamptz"));
        ParameterMetaData pmd = ps.getParameterMetaData();
        check("param count", pmd.getParameterCount(), 2);
        check("param types", List.of(pmd.getParameterTypeName(1), pmd.getParameterTypeName(2)), List.of("int8", "numeric"));
      }

      conn.setAutoCommit(false);
      try (Statement st = conn.createStatement()) {
        st.setFetchSize(3);
        try (ResultSet rs = st.executeQuery("SELECT g FROM generate_series(1, 10) g ORDER BY g")) {
          int n = 0;
          while (rs.next()) check("fetch row " + (n + 1), rs.getInt(1), ++n);
          check("fetchSize rows", n, 10);
        }
      }
      conn.commit();
      conn.setAutoCommit(true);

      try (Statement st = conn.createStatement()) {
        st.setQueryTimeout(1);
        long start = System.currentTimeMillis();
        try {
          st.execute("SELECT pg_sleep(5)");
          check("query timeout raised", false, true);
        } catch (SQLException e) {
          check("query timeout sqlstate", e.getSQLState(), "57014");
          check("query timeout fast", System.currentTimeMillis() - start < 4000, true);
        }
      }
      try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
        check("usable after cancel", rs.next() && rs.getInt(1) == 1, true);
      }
      try (Statement st = conn.createStatement()) {
        st.executeQuery("SELECT * FROM no_such_table");
        check("error raised", false, true);
      } catch (SQLException e) {
        check("error sqlstate", e.getSQLState(), "42P01");
      }
    }
    System.out.println("DONE");
  }
}
