/**
 * Doris refuses JSON, BITMAP and HLL (its semi-structured and sketch types) as a GROUP BY, ORDER BY,
 * DISTINCT or PARTITION BY key: the values have no order or equality of their own, so a query must
 * extract a typed value first (json_extract_int(j, '$.a'), bitmap_count(b)). The binder calls this on
 * each bound key.
 */
import { GaleneError } from '../common/errors';
import { isSketchType, type DataType } from '../common/types';

export function refuseJsonKey(type: DataType): void {
  if (type.name === 'JSON' || isSketchType(type)) throw new GaleneError('COMPLEX_TYPE_KEY', []);
}
