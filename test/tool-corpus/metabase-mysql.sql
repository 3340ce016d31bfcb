-- Queries Metabase's MySQL / MariaDB driver (metabase/metabase, src/metabase/driver/mysql.clj and the
-- sql-jdbc sync it builds on) sends when it connects, syncs and scans a database. The driver fills in
-- the database; `corpus` here. Format as in dbeaver-mysql.sql.

-- source: sql-jdbc connection test (can-connect?)
-- rows: 1
SELECT 1;

-- source: mysql.clj db-default-timezone
-- expect: global_tz, system_tz, offset
-- rows: 1
SELECT @@GLOBAL.time_zone AS global_tz, @@system_time_zone AS system_tz, time_format(timediff(now(), convert_tz(now(), @@GLOBAL.time_zone, '+00:00')), '%H:%i') AS 'offset';

-- source: mysql.clj describe-database / sql-jdbc.sync tables (information_schema.tables)
-- expect: TABLE_SCHEMA, TABLE_NAME, TABLE_COMMENT
-- rows: 3
SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_COMMENT FROM information_schema.tables
WHERE TABLE_SCHEMA NOT IN ('information_schema', 'performance_schema', 'sys', 'mysql') AND TABLE_SCHEMA = 'corpus' AND TABLE_TYPE IN ('BASE TABLE', 'VIEW');

-- source: mysql.clj describe-fields-sql
-- expect: name, database-type, database-position, table-schema, table-name, pk?, field-comment, database-required, database-is-auto-increment
-- rows: >=8
SELECT c.column_name AS name,
       c.data_type AS `database-type`,
       c.ordinal_position - 1 AS `database-position`,
       c.table_schema AS `table-schema`,
       c.table_name AS `table-name`,
       IF(c.column_key = 'PRI', TRUE, FALSE) AS `pk?`,
       NULLIF(c.column_comment, '') AS `field-comment`,
       ((c.column_default IS NULL OR c.column_default = 'NULL') AND c.is_nullable = 'NO' AND NOT (c.extra IN ('auto_increment', 'VIRTUAL GENERATED', 'STORED GENERATED'))) AS `database-required`,
       (c.extra = 'auto_increment') AS `database-is-auto-increment`
FROM information_schema.columns AS c
WHERE c.table_schema = 'corpus'
ORDER BY c.table_schema ASC, c.table_name ASC, c.ordinal_position ASC;

-- source: mysql.clj describe-fks-sql
-- expect: fk-table-schema, fk-table-name, fk-column-name, pk-table-schema, pk-table-name, pk-column-name
-- rows: 0
SELECT table_schema AS `fk-table-schema`, table_name AS `fk-table-name`, column_name AS `fk-column-name`,
       referenced_table_schema AS `pk-table-schema`, referenced_table_name AS `pk-table-name`, referenced_column_name AS `pk-column-name`
FROM information_schema.key_column_usage
WHERE referenced_table_name IS NOT NULL AND table_schema = 'corpus'
ORDER BY `fk-table-schema`, `fk-table-name`;

-- source: mysql.clj describe-table-indexes (information_schema.statistics)
-- expect: table_schema, table_name, index_name, column_name
SELECT table_schema, table_name, index_name, column_name FROM information_schema.statistics
WHERE table_schema = 'corpus' AND seq_in_index = 1 ORDER BY table_name, index_name;

-- source: MariaDB Connector/J DatabaseMetaData.getColumns NULLABLE expression (Metabase's jdbc fallback)
-- expect: COLUMN_NAME, NULLABLE
-- rows: 4
SELECT COLUMN_NAME, IF(IS_NULLABLE = 'yes', 1, 0) AS NULLABLE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'corpus' AND TABLE_NAME = 'items' ORDER BY ORDINAL_POSITION;

-- source: sync fingerprinting / field values scan (LIMIT after ORDER-less SELECT)
-- expect: name
-- rows: 2
SELECT `corpus`.`items`.`name` AS `name` FROM `corpus`.`items` GROUP BY `corpus`.`items`.`name` ORDER BY `corpus`.`items`.`name` ASC LIMIT 1000;

-- source: query processor date bucketing (week / month) on a DATETIME column
-- expect: added, count
SELECT str_to_date(date_format(`corpus`.`items`.`added`, '%Y-%m'), '%Y-%m') AS `added`, count(*) AS `count` FROM `corpus`.`items` GROUP BY str_to_date(date_format(`corpus`.`items`.`added`, '%Y-%m'), '%Y-%m') ORDER BY str_to_date(date_format(`corpus`.`items`.`added`, '%Y-%m'), '%Y-%m') ASC;

