import java.sql.*;

/** Galene test client: Statement.setMaxRows and PreparedStatement.setMaxRows; prints the keys it reads. */
public class MaxRowsClient {
  public static void main(String[] args) throws Exception {
    try (Connection conn = DriverManager.getConnection(args[0], "root", "")) {
      try (Statement stmt = conn.createStatement()) {
        stmt.setMaxRows(4);
        System.out.println(keys("statement", stmt.executeQuery("SELECT k AS jdbc_k FROM t ORDER BY k")));
        System.out.println(keys("limit", stmt.executeQuery("SELECT k FROM t ORDER BY k LIMIT 2")));
      }
      try (PreparedStatement ps = conn.prepareStatement("SELECT k FROM t WHERE k > ? ORDER BY k")) {
        ps.setMaxRows(4);
        ps.setInt(1, 10);
        System.out.println(keys("prepared", ps.executeQuery()));
      }
      try (Statement stmt = conn.createStatement(); ResultSet rs = stmt.executeQuery("SELECT count(*) FROM (SELECT k FROM t) s")) {
        rs.next();
        System.out.println("after " + rs.getInt(1));
      }
    }
  }

  private static String keys(String label, ResultSet rs) throws SQLException {
    StringBuilder line = new StringBuilder(label);
    try (rs) {
      while (rs.next()) line.append(' ').append(rs.getInt(1));
    }
    return line.toString();
  }
}
