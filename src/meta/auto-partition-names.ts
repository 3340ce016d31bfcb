/**
 * The names Doris gives auto partitions (PartitionExprUtil): RANGE — `p` + the lower bound as
 * yyyyMMddHHmmss (p20240101000000); LIST — `p` + each value (non-alphanumeric characters as hex code
 * points, a leading minus as `_`; a string value followed by its length, NULL as `X`), joined by `_`.
 * Used by AUTO PARTITION loads and by the auto_partition_name() function, so both name alike.
 */

/** A RANGE auto partition's name from its lower bound's 'YYYY-MM-DD HH:MM:SS' text. */
export function rangePartitionName(lowerDatetimeText: string): string {
  return `p${lowerDatetimeText.replace(/[^0-9]/g, '').slice(0, 14)}`;
}

/** A LIST auto partition's name from its value tuple's texts (`isString`: the column is a string type). */
export function listPartitionName(texts: readonly (string | null)[], isString: readonly boolean[]): string {
  return `p${texts.map((text, colIdx) => (text === null ? 'X' : nameOfValue(text) + (isString[colIdx] ? String([...text].length) : ''))).join('_')}`;
}

function nameOfValue(text: string): string {
  let out = text.startsWith('-') ? '_' : '';
  for (const char of text) out += /[0-9A-Za-z]/.test(char) ? char : char.codePointAt(0)!.toString(16);
  return out;
}
