/*
 * pgJDBC executeBatch with autocommit: Parse/Bind/Execute for each row, then one Sync. The batch is one
 * implicit transaction: a row that fails undoes the rows before it. Prints one line per batch:
 * `<name> <SQLSTATE or ok> <update counts> count=<rows committed, seen by another connection>`, then DONE.
 * Run by ../jdbc-batch.test.ts against lakegate (or PostgreSQL with PG_COMPAT=1); table jb.t (id int4 PRIMARY KEY, v text NOT NULL).
 */
import java.sql.*;
import java.util.Arrays;

public class JdbcBatch {
  public static void main(String[] args) throws Exception {
    String url = "jdbc:postgresql://" + System.getenv("PGHOST") + ":" + System.getenv("PGPORT") + "/" + System.getenv("PGDATABASE");
    try (Connection c = DriverManager.getConnection(url, "postgres", ""); Connection other = DriverManager.getConnection(url, "postgres", "")) {
      c.setAutoCommit(true);
      batch(c, other, "notnull", new Object[][] { { 1, "a" }, { 2, "b" }, { 3, null } });
      batch(c, other, "dupkey", new Object[][] { { 1, "a" }, { 2, "b" }, { 1, "c" } });
      batch(c, other, "valid", new Object[][] { { 1, "a" }, { 2, "b" }, { 3, "c" } });
      // past prepareThreshold (5 uses), pgJDBC switches to a named server-side statement: same rule
      for (int i = 0; i < 5; i++) {
        batch(c, other, "named" + i, new Object[][] { { 10 + i, "x" }, { 20 + i, i == 4 ? null : "y" } });
      }
    }
    System.out.println("DONE");
  }

  static void batch(Connection c, Connection other, String name, Object[][] rows) throws SQLException {
    String outcome = "ok";
    int[] counts = new int[0];
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO jb.t VALUES (?, ?)")) {
      for (Object[] row : rows) {
        ps.setInt(1, (Integer) row[0]);
        if (row[1] == null) ps.setNull(2, Types.VARCHAR); else ps.setString(2, (String) row[1]);
        ps.addBatch();
      }
      counts = ps.executeBatch();
    } catch (BatchUpdateException e) {
      SQLException next = e.getNextException();
      outcome = next != null ? next.getSQLState() : e.getSQLState();
      counts = e.getUpdateCounts();
    }
    try (Statement st = other.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM jb.t")) {
      rs.next();
      System.out.println(name + " " + outcome + " " + Arrays.toString(counts) + " count=" + rs.getLong(1));
    }
  }
}
