/**
 * Doris refuses JSON (and its other semi-structured types) as a GROUP BY, ORDER BY or PARTITION BY key:
 * the values have no order or equality of their own, so a query must extract a typed value first
 * (json_extract_int(j, '$.a')). The binder calls this on each bound key.
 */
import { GaleneError } from '../common/errors';
import type { DataType } from '../common/types';

export function refuseJsonKey(type: DataType): void {
  if (type.name === 'JSON') throw new GaleneError('COMPLEX_TYPE_KEY', []);
}
