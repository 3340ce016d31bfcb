import java.sql.*;

/**
 * The Group Commit seed's JDBC example (PreparedStatement batches with group_commit=async_mode set through
 * the URL's sessionVariables), on the MariaDB driver: five executeBatch() calls of 10 rows each.
 * Usage: java -cp mariadb-java-client.jar GroupCommitJdbc.java JDBC_URL TABLE
 */
public class GroupCommitJdbc {
  private static final int INSERT_BATCH_SIZE = 10;

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String table = args[1];
    try (Connection conn = DriverManager.getConnection(url, "root", "")) {
      String query = "insert into " + table + " values(?, ?, ?)";
      int total = 0;
      try (PreparedStatement stmt = conn.prepareStatement(query)) {
        for (int j = 0; j < 5; j++) {
          // 10 rows per insert
          for (int i = 0; i < INSERT_BATCH_SIZE; i++) {
            stmt.setInt(1, i);
            stmt.setString(2, "name" + i);
            stmt.setInt(3, i + 10);
            stmt.addBatch();
          }
          int[] result = stmt.executeBatch();
          for (int count : result) total += count == Statement.SUCCESS_NO_INFO ? 1 : count;
        }
      }
      System.out.println("inserted " + total);
      try (Statement statement = conn.createStatement(); ResultSet rs = statement.executeQuery("SELECT @@group_commit")) {
        rs.next();
        System.out.println("group_commit " + rs.getString(1));
      }
    }
  }
}
