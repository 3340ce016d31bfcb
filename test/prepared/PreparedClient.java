import java.math.BigDecimal;
import java.sql.*;

/** Galene test client: a PreparedStatement batch insert and a parameterized select; prints what it reads. */
public class PreparedClient {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String table = args[1];
    try (Connection conn = DriverManager.getConnection(url, "root", "")) {
      try (Statement stmt = conn.createStatement()) {
        stmt.execute("CREATE TABLE " + table + " (id INT, name VARCHAR(20), amount DECIMAL(10,2), day DATE) UNIQUE KEY(id) DISTRIBUTED BY HASH(id) BUCKETS 2");
      }
      try (PreparedStatement insert = conn.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
        for (int id = 1; id <= 40; id++) {
          insert.setInt(1, id);
          insert.setString(2, "n" + id);
          insert.setBigDecimal(3, new BigDecimal(id + ".25"));
          if (id % 10 == 0) insert.setNull(4, Types.DATE); else insert.setDate(4, Date.valueOf("2024-05-" + String.format("%02d", id % 28 + 1)));
          insert.addBatch();
        }
        int total = 0;
        for (int count : insert.executeBatch()) total += count == Statement.SUCCESS_NO_INFO ? 1 : count;
        System.out.println("inserted " + total);
      }
      try (PreparedStatement select = conn.prepareStatement("SELECT id, name, amount, day FROM " + table + " WHERE id >= ? AND name <> ? ORDER BY id LIMIT ?")) {
        for (int[] run : new int[][] {{28, 29, 3}, {38, 40, 5}}) {
          select.setInt(1, run[0]);
          select.setString(2, "n" + run[1]);
          select.setInt(3, run[2]);
          try (ResultSet rs = select.executeQuery()) {
            StringBuilder line = new StringBuilder("rows");
            while (rs.next()) line.append(" ").append(rs.getInt(1)).append("|").append(rs.getString(2)).append("|").append(rs.getBigDecimal(3)).append("|").append(rs.getDate(4));
            System.out.println(line);
          }
        }
      }
    }
  }
}
