/**
 * Date and time functions over DATE (Int32Array of days since 1970-01-01) and DATETIME (Float64Array of
 * microseconds), in three files:
 * - datetime-fields.ts: calendar helpers, argument typing, field extraction and dates from parts;
 * - datetime-arithmetic.ts: intervals (years_add ... microseconds_sub; the binder maps
 *   `d + INTERVAL n UNIT` / `date_add(d, INTERVAL n UNIT)` to them through intervalFunctionName()),
 *   differences, timestampdiff / timestampadd, date_add / date_sub, EXTRACT, date_trunc.
 *   date_add/adddate/date_sub/subdate(d, n) add days; the generic 3-argument form date_add(d, n, 'UNIT')
 *   returns DATETIME (its type cannot depend on the unit's value);
 * - datetime-format.ts: date_format / str_to_date / from_unixtime and the clock (now(), curdate(),
 *   unix_timestamp() use the server's local time zone, the statement's start time for now());
 * - datetime-rounding.ts: year_floor / year_ceil ... second_floor / second_ceil;
 * - datetime-more.ts: TIME-text helpers, epochs, ISO 8601, periods, months_between, next_day and the rest.
 */
import type { FunctionDef } from '../function-registry';
import { DATETIME_ARITHMETIC_FUNCTIONS } from './datetime-arithmetic';
import { DATETIME_FIELD_FUNCTIONS } from './datetime-fields';
import { DATETIME_FORMAT_FUNCTIONS } from './datetime-format';
import { DATETIME_MORE_FUNCTIONS } from './datetime-more';
import { DATETIME_ROUNDING_FUNCTIONS } from './datetime-rounding';

export { intervalFunctionName, isIntervalUnit } from './datetime-arithmetic';
export type { IntervalUnit } from './datetime-arithmetic';

export const DATETIME_FUNCTIONS: readonly FunctionDef[] = [...DATETIME_FIELD_FUNCTIONS, ...DATETIME_ARITHMETIC_FUNCTIONS, ...DATETIME_FORMAT_FUNCTIONS, ...DATETIME_ROUNDING_FUNCTIONS, ...DATETIME_MORE_FUNCTIONS];
