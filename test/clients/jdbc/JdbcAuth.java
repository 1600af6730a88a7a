// pgJDBC's own MD5 and SCRAM clients (it does not use libpq): connects with the URL, user and password given and
// prints `ok <select 3>` or `error <SQLState> <message>`. Run as a single-file program:
//   java -cp /usr/share/java/postgresql.jar JdbcAuth.java jdbc:postgresql://127.0.0.1:5433/x?sslmode=disable alice pencil
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

public class JdbcAuth {
  public static void main(String[] args) {
    Properties props = new Properties();
    props.setProperty("user", args[1]);
    props.setProperty("password", args[2]);
    try (Connection c = DriverManager.getConnection(args[0], props); ResultSet rs = c.createStatement().executeQuery("select 3")) {
      rs.next();
      System.out.println("ok " + rs.getInt(1));
    } catch (SQLException e) {
      System.out.println("error " + e.getSQLState() + " " + e.getMessage());
    }
  }
}
