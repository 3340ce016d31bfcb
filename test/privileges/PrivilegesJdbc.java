import java.sql.*;

/** Galene test client: runs each statement as the given user; prints "ok" or the error code, SQLState and message. */
public class PrivilegesJdbc {
  public static void main(String[] args) throws Exception {
    try (Connection conn = DriverManager.getConnection(args[0], args[1], args[2]); Statement stmt = conn.createStatement()) {
      for (int argIdx = 3; argIdx < args.length; argIdx++) {
        try {
          stmt.execute(args[argIdx]);
          System.out.println("ok");
        } catch (SQLException err) {
          System.out.println(err.getErrorCode() + " " + err.getSQLState() + " " + err.getMessage());
        }
      }
    }
  }
}
