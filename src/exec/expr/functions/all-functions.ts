/**
 * Registers every scalar function family with the registry, once. Add a family file's array here.
 */
import { registerFunctions } from '../function-registry';
import { ARITHMETIC_FUNCTIONS } from './arithmetic';
import { ARRAY_ELEMENT_FUNCTIONS } from './array-element-functions';
import { ARRAY_FUNCTIONS } from './array-functions';
import { BITMAP_FUNCTIONS } from './bitmap-functions';
import { ARRAY_HIGHER_ORDER_FUNCTIONS } from './array-higher-order-functions';
import { COMPARISON_FUNCTIONS } from './comparison';
import { CONDITIONAL_FUNCTIONS } from './conditional-functions';
import { DATETIME_FUNCTIONS } from './datetime-functions';
import { GIS_FUNCTIONS } from './gis-functions';
import { HASH_FUNCTIONS } from './hash-functions';
import { MISC_SCALAR_FUNCTIONS } from './misc-scalar-functions';
import { IP_FUNCTIONS } from './ip-functions';
import { JSON_FUNCTIONS } from './json-functions';
import { LIKE_FUNCTIONS } from './like-functions';
import { MAP_FUNCTIONS } from './map-functions';
import { MATCH_FUNCTIONS } from './match-functions';
import { MATH_FUNCTIONS } from './math-functions';
import { NUMBER_FUNCTIONS } from './number-functions';
import { REGEXP_FUNCTIONS } from './regexp-functions';
import { SEARCH_FUNCTIONS } from './search-functions';
import { SESSION_FUNCTIONS } from './session-functions';
import { STRING_FUNCTIONS } from './string-functions';
import { STRING_MORE_FUNCTIONS } from './string-more';
import { TEXT_FUNCTIONS } from './text-functions';
import { URL_FUNCTIONS } from './url-functions';
import { XML_FUNCTIONS } from './xml-functions';

let registered = false;

/** Idempotent: the first call registers all families. */
export function ensureFunctionsRegistered(): void {
  if (registered) return;
  registered = true;
  for (const family of [ARITHMETIC_FUNCTIONS, COMPARISON_FUNCTIONS, CONDITIONAL_FUNCTIONS, STRING_FUNCTIONS, LIKE_FUNCTIONS, MATH_FUNCTIONS, DATETIME_FUNCTIONS, SESSION_FUNCTIONS, ARRAY_FUNCTIONS, ARRAY_ELEMENT_FUNCTIONS, ARRAY_HIGHER_ORDER_FUNCTIONS, MATCH_FUNCTIONS, SEARCH_FUNCTIONS, NUMBER_FUNCTIONS, TEXT_FUNCTIONS, JSON_FUNCTIONS, STRING_MORE_FUNCTIONS, REGEXP_FUNCTIONS, URL_FUNCTIONS, HASH_FUNCTIONS, MISC_SCALAR_FUNCTIONS, IP_FUNCTIONS, BITMAP_FUNCTIONS, GIS_FUNCTIONS, XML_FUNCTIONS, MAP_FUNCTIONS]) {
    registerFunctions(family);
  }
}
