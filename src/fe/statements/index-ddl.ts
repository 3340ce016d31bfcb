/**
 * Index definitions of CREATE TABLE ... INDEX, CREATE INDEX and ALTER TABLE ADD INDEX, checked with
 * Doris's rules and messages before anything changes (DESIGN §6: bad input changes nothing), and the
 * metadata side of DROP INDEX. An ANN index (doris-facts D.1) must have valid PROPERTIES (parsed by
 * storage/ann parseAnnProperties, Doris's messages), one ARRAY<FLOAT> NOT NULL column, and a DUPLICATE
 * KEY or merge-on-write UNIQUE KEY table (Doris IndexDef.checkColumn; Doris 4 also accepts merge-on-write
 * UNIQUE KEY tables, whose deleted rows the scan's delete bitmap hides from the index's answers).
 * An INVERTED index (doris-facts E) is checked as Doris IndexDefinition.checkColumn and
 * InvertedIndexUtil.checkInvertedIndexParser do: one column of a scalar type or an ARRAY of one, a key
 * column on AGGREGATE KEY tables, no parser on value columns of merge-on-read UNIQUE KEY tables, a parser
 * only on string columns, and PROPERTIES with Doris's keys and values (storage/inverted
 * invertedPropertiesProblem); it is stored with the defaults Doris adds (storedInvertedProperties).
 */
import { GaleneError } from '../../common/errors';
import { isArrayType, isStringType, typeToSql, type DataType } from '../../common/types';
import type { IndexSchema, KeysType } from '../../meta/schema';
import type { IndexDef } from '../../sql/ast';
import { parseAnnProperties } from '../../storage/ann';
import { chineseParserAvailable, chineseUnavailableError, invertedPropertiesProblem, storedInvertedProperties } from '../../storage/inverted';

const bad = (message: string): GaleneError => new GaleneError('INVALID_TABLE_DEFINITION', [message]);

/** What an index definition is checked against: the table's model and columns (CREATE or existing). */
export interface IndexTarget {
  readonly keysType: KeysType;
  /** enable_unique_key_merge_on_write of a UNIQUE KEY table. */
  readonly mergeOnWrite: boolean;
  readonly columns: readonly { readonly name: string; readonly type: DataType; readonly nullable: boolean; readonly isKey: boolean }[];
}

const sameName = (left: string, right: string): boolean => left.toLowerCase() === right.toLowerCase();

/** Check one ANN index definition (its column already found); throws Doris's message. */
function checkAnnIndex(target: IndexTarget, def: IndexDef): void {
  parseAnnProperties(def.properties);
  if (def.columns.length !== 1) throw bad(`ANN index can only apply to a single column. invalid index: ${def.name}`);
  const column = target.columns.find((candidate) => sameName(candidate.name, def.columns[0]))!;
  if (column.nullable) throw bad('ANN index must be built on a column that is not nullable');
  if (!isArrayType(column.type)) throw bad(`ANN index column must be array type, invalid index: ${def.name}`);
  if (column.type.element?.name !== 'FLOAT') throw bad(`ANN index column item type must be float type, invalid index: ${def.name}`);
  if (target.keysType !== 'DUPLICATE' && !(target.keysType === 'UNIQUE' && target.mergeOnWrite)) {
    throw bad('ANN index can only be used in DUP_KEYS table or UNIQUE_KEYS table with merge-on-write enabled');
  }
}

/** Check one INVERTED index definition (its column already found); its PROPERTIES as Doris stores them. */
function checkInvertedIndex(target: IndexTarget, def: IndexDef): Record<string, string> {
  if (def.columns.length !== 1) throw bad('INVERTED index can only apply to a single column.');
  if (def.name.length > 64) throw bad('index name too long, the index name length at most is 64.');
  const column = target.columns.find((candidate) => sameName(candidate.name, def.columns[0]))!;
  const element = isArrayType(column.type) ? column.type.element! : column.type;
  if (isArrayType(element)) throw bad(`${typeToSql(column.type)} is not supported in INVERTED index. invalid index: ${def.name}`);
  const parser = def.properties.parser;
  if (!column.isKey) {
    if (target.keysType === 'AGGREGATE') throw bad(`index should only be used in columns of DUP_KEYS/UNIQUE_KEYS table or key columns of AGG_KEYS table. invalid index: ${def.name}`);
    if (target.keysType === 'UNIQUE' && !target.mergeOnWrite && parser !== undefined) {
      throw bad(`INVERTED index with parser can NOT be used in value columns of UNIQUE_KEYS table with merge_on_write disable. invalid index: ${def.name}`);
    }
  }
  const problem = invertedPropertiesProblem(def.properties);
  if (problem !== undefined) throw bad(`invalid INVERTED index:${problem}`);
  if (parser !== undefined && parser !== 'none' && !isStringType(element)) {
    throw bad(`invalid INVERTED index:INVERTED index with parser: ${parser} is not supported for column: ${column.name} of type ${element.name}`);
  }
  if (parser === 'chinese' && !chineseParserAvailable()) throw chineseUnavailableError();
  return storedInvertedProperties(def.properties);
}

/**
 * The schema entry of index definition `def` on `target`, next to `existing` indexes (Doris
 * SchemaChangeHandler.processAddIndex: a name or a column set used twice is refused).
 */
export function checkIndexDef(target: IndexTarget, def: IndexDef, existing: readonly IndexSchema[]): IndexSchema {
  const indexType = def.indexType.toUpperCase();
  if (existing.some((index) => sameName(index.name, def.name))) throw bad(`index \`${def.name}\` already exist.`);
  const columnSet = (columns: readonly string[]): string => [...new Set(columns.map((name) => name.toLowerCase()))].sort().join(',');
  if (existing.some((index) => columnSet(index.columns) === columnSet(def.columns))) throw bad(`index for columns (${def.columns.join(',')} ) already exist.`);
  for (const name of def.columns) if (!target.columns.some((column) => sameName(column.name, name))) throw new GaleneError('UNKNOWN_COLUMN', [name, 'index definition']);
  if (indexType === 'ANN') checkAnnIndex(target, def);
  const properties = indexType === 'INVERTED' ? checkInvertedIndex(target, def) : { ...def.properties };
  const columns = def.columns.map((name) => target.columns.find((column) => sameName(column.name, name))!.name);
  return { name: def.name, columns, indexType, properties, comment: def.comment ?? '' };
}

/** Every index definition of a CREATE TABLE, checked in order against the ones before it. */
export function checkTableIndexes(target: IndexTarget, defs: readonly IndexDef[]): IndexSchema[] {
  const out: IndexSchema[] = [];
  for (const def of defs) out.push(checkIndexDef(target, def, out));
  return out;
}

/** The index named `name` of `indexes`, or Doris's "does not exist" error. */
export function findIndexToDrop(indexes: readonly IndexSchema[], name: string): IndexSchema {
  const found = indexes.find((index) => sameName(index.name, name));
  if (!found) throw bad(`index ${name} does not exist`);
  return found;
}
