-- Queries Grafana's MySQL data source sends (grafana/grafana, pkg/tsdb/mysql: the connection test and
-- the macros $__timeGroup, $__timeFilter, $__unixEpochGroup as they expand for a 5 minute interval).
-- The dashboard supplies the table, columns and time range. Format as in dbeaver-mysql.sql.

-- source: data source health check
-- rows: 1
SELECT 1;

-- source: $__timeGroupAlias(added, '5m') with $__timeFilter(added) (macros.go)
-- expect: time, n
-- rows: 1
SELECT cast(cast(UNIX_TIMESTAMP(added)/(300) as signed)*300 as signed) AS "time", count(*) AS n
FROM corpus.items WHERE added BETWEEN FROM_UNIXTIME(1704067200) AND FROM_UNIXTIME(1704153600)
GROUP BY 1 ORDER BY 1;

-- source: hand-written time bucket (Grafana documentation's UNIX_TIMESTAMP(ts) DIV n * n form)
-- expect: time, n
-- rows: 1
SELECT UNIX_TIMESTAMP(added) DIV 300 * 300 AS time, count(*) AS n FROM corpus.items GROUP BY 1 ORDER BY 1;

-- source: $__unixEpochGroup over an epoch column (macros.go)
-- expect: time
SELECT floor(UNIX_TIMESTAMP(added)/300)*300 AS time FROM corpus.items ORDER BY 1;
