-- Queries DBeaver's MySQL plugin (dbeaver/dbeaver, plugins/org.jkiss.dbeaver.ext.mysql) sends on connect
-- and while browsing a database: MySQLDataSource.initialize / loadParameters, MySQLCatalog's
-- TableCache, IndexCache, ConstraintCache, ProceduresCache, TriggerCache, EventCache, MySQLTable's DDL
-- and data views. The tool substitutes the database and table names; `corpus` and `items` here.
-- Format: `-- expect: COL, COL, ...` (leading result columns, in order) and `-- rows: N` or `-- rows: >=N`
-- before a statement check its shape; every statement must succeed.

-- source: MySQLDataSource.initialize (engines)
-- expect: Engine, Support, Comment
-- rows: >=1
SHOW ENGINES;

-- source: MySQLDataSource.initialize (charsets)
-- expect: Charset, Description, Default collation, Maxlen
-- rows: >=1
SHOW CHARSET;

-- source: MySQLDataSource.initialize (collations)
-- expect: Collation, Charset, Id, Default, Compiled, Sortlen
-- rows: >=1
SHOW COLLATION;

-- source: MySQLDataSource.CatalogCache (databases)
-- expect: CATALOG_NAME, SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME
-- rows: >=2
SELECT * FROM information_schema.SCHEMATA;

-- source: MySQLUtils.determineCurrentDatabase
-- rows: 1
SELECT DATABASE();

-- source: MySQLDataSource.useDatabase
use `corpus`;

-- source: MySQLCatalog.TableCache.prepareLookupStatement
-- expect: Tables_in_corpus, Table_type
-- rows: 3
SHOW FULL TABLES FROM `corpus`;

-- source: MySQLCatalog.TableCache.prepareLookupStatement (one table)
-- expect: Tables_in_corpus, Table_type
-- rows: 1
SHOW FULL TABLES FROM `corpus` LIKE 'items';

-- source: MySQLCatalog.TableCache.prepareChildrenStatement (all columns of the database)
-- expect: TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, COLUMN_DEFAULT, IS_NULLABLE, DATA_TYPE
-- rows: >=8
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='corpus' ORDER BY ORDINAL_POSITION;

-- source: MySQLCatalog.TableCache.prepareChildrenStatement (one table)
-- expect: TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME
-- rows: 4
SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='corpus' AND TABLE_NAME='items' ORDER BY ORDINAL_POSITION;

-- source: MySQLCatalog.IndexCache.prepareObjectsStatement
-- expect: TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, NON_UNIQUE, INDEX_SCHEMA, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME
-- rows: 3
SELECT * FROM information_schema.STATISTICS WHERE TABLE_SCHEMA='corpus' AND TABLE_NAME='items' ORDER BY INDEX_NAME,SEQ_IN_INDEX;

-- source: MySQLCatalog.ConstraintCache.prepareObjectsStatement
-- expect: CONSTRAINT_NAME, TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION
-- rows: 2
SELECT kc.CONSTRAINT_NAME,kc.TABLE_NAME,kc.COLUMN_NAME,kc.ORDINAL_POSITION
FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE kc WHERE kc.TABLE_SCHEMA='corpus' AND kc.REFERENCED_TABLE_NAME IS NULL AND kc.TABLE_NAME='items'
ORDER BY kc.CONSTRAINT_NAME,kc.ORDINAL_POSITION;

-- source: MySQLTable foreign keys (MySQLTable.loadForeignKeys)
-- rows: 0
SELECT kc.CONSTRAINT_NAME,kc.ORDINAL_POSITION,kc.TABLE_SCHEMA,kc.TABLE_NAME,kc.COLUMN_NAME,kc.REFERENCED_TABLE_SCHEMA,kc.REFERENCED_TABLE_NAME,kc.REFERENCED_COLUMN_NAME,rc.UPDATE_RULE,rc.DELETE_RULE
FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE kc JOIN INFORMATION_SCHEMA.REFERENTIAL_CONSTRAINTS rc ON rc.CONSTRAINT_SCHEMA=kc.TABLE_SCHEMA AND rc.CONSTRAINT_NAME=kc.CONSTRAINT_NAME
WHERE kc.TABLE_SCHEMA='corpus' AND kc.REFERENCED_TABLE_NAME IS NOT NULL AND kc.TABLE_NAME='items'
ORDER BY kc.CONSTRAINT_NAME,kc.ORDINAL_POSITION;

-- source: MySQLCatalog.ProceduresCache.prepareLookupStatement
-- expect: SPECIFIC_NAME, ROUTINE_CATALOG, ROUTINE_SCHEMA, ROUTINE_NAME
-- rows: 0
SELECT * FROM information_schema.ROUTINES
WHERE ROUTINE_SCHEMA='corpus'
ORDER BY ROUTINE_NAME;

-- source: MySQLCatalog.TriggerCache.prepareObjectsStatement
-- expect: Trigger, Event, Table, Statement, Timing
-- rows: 0
SHOW FULL TRIGGERS FROM `corpus`;

-- source: MySQLCatalog.EventCache.prepareObjectsStatement
-- expect: EVENT_CATALOG, EVENT_SCHEMA, EVENT_NAME
-- rows: 0
SELECT * FROM information_schema.EVENTS WHERE EVENT_SCHEMA='corpus';

-- source: MySQLTable.loadAdditionalInfo
-- expect: Name, Engine, Version, Row_format, Rows, Avg_row_length, Data_length, Max_data_length, Index_length, Data_free, Auto_increment, Create_time, Update_time, Check_time, Collation, Checksum, Create_options, Comment
-- rows: 1
SHOW TABLE STATUS FROM `corpus` LIKE 'items';

-- source: MySQLTable.getObjectDefinitionText (DDL tab)
-- expect: Table, Create Table
-- rows: 1
SHOW CREATE TABLE `corpus`.`items`;

-- source: MySQLDataSource.loadParameters (session variables, global status)
-- expect: Variable_name, Value
-- rows: >=10
SHOW VARIABLES;

-- source: MySQLDataSource.loadParameters (global status)
-- expect: Variable_name, Value
SHOW GLOBAL STATUS;

-- source: MySQLDataSource.loadPrivileges
-- expect: Privilege, Context, Comment
SHOW PRIVILEGES;

-- DBeaver reads Id, User, Host, db, Command, Time, State and Info by name (JDBC names match case-insensitively);
-- Doris's SHOW PROCESSLIST has them among its own columns, in Doris's order.
-- source: MySQLSessionManager.getSessions (session manager)
-- expect: CurrentConnected, Id, User, Host, LoginTime, Catalog, Db, Command, Time, State, QueryId, Info
-- rows: >=1
SHOW FULL PROCESSLIST;

-- source: data editor (QueryTransformerLimit: LIMIT offset, count)
-- expect: id, name, price, added
-- rows: 2
SELECT * FROM `corpus`.`items` LIMIT 0, 200;

-- source: data editor row count (Calculate total row count)
-- rows: 1
SELECT COUNT(*) FROM `corpus`.`items`;
