import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;

/**
 * Prints what the MariaDB JDBC driver's DatabaseMetaData answers for a database, one line per row with
 * the named columns joined by '|', under a header per call. Run by test/metadata/jdbc-metadata.test.ts.
 * Arguments: JDBC URL, database, then the tables to ask keys and indexes of.
 * getColumns' NULLABLE is Connector/J's IF(IS_NULLABLE = 'yes', 1, 0), true only under MySQL's
 * case-insensitive information_schema collation, which Galene's binder applies there.
 */
public class MetadataClient {
  static void dump(String title, ResultSet rs, String... columns) throws Exception {
    System.out.println("# " + title);
    while (rs.next()) {
      StringBuilder line = new StringBuilder();
      for (String column : columns) {
        if (line.length() > 0) line.append('|');
        line.append(rs.getString(column));
      }
      System.out.println(line);
    }
    rs.close();
  }

  public static void main(String[] args) throws Exception {
    String db = args[1];
    try (Connection conn = DriverManager.getConnection(args[0], "root", "")) {
      DatabaseMetaData meta = conn.getMetaData();
      dump("catalogs", meta.getCatalogs(), "TABLE_CAT");
      dump("schemas", meta.getSchemas(), "TABLE_SCHEM");
      dump("tables", meta.getTables(db, null, "%", new String[] {"TABLE"}), "TABLE_CAT", "TABLE_NAME", "TABLE_TYPE", "REMARKS");
      dump("columns", meta.getColumns(db, null, "%", "%"), "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "IS_NULLABLE", "NULLABLE", "ORDINAL_POSITION", "REMARKS");
      for (int argIdx = 2; argIdx < args.length; argIdx++) {
        String table = args[argIdx];
        dump("primary keys " + table, meta.getPrimaryKeys(db, null, table), "TABLE_CAT", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
        dump("index info " + table, meta.getIndexInfo(db, null, table, false, false), "TABLE_NAME", "NON_UNIQUE", "INDEX_NAME", "ORDINAL_POSITION", "COLUMN_NAME");
        dump("imported keys " + table, meta.getImportedKeys(db, null, table), "PKTABLE_NAME", "PKCOLUMN_NAME", "FKTABLE_NAME", "FKCOLUMN_NAME");
      }
    }
  }
}
