/**
 * Dense group ids for GROUP BY keys, one table per key shape so the common cases avoid JS strings:
 *  - no key: every row is group 0 (global aggregate);
 *  - one fixed-width numeric key (INT, DATE, DOUBLE, ...): open addressing over a Float64Array of keys;
 *  - one string key: dictionary vectors map each dictionary code once per dictionary (code -> group id),
 *    plain strings go through a Map keyed by the decoded value;
 *  - one BIGINT key: open addressing over the two 32-bit halves of each value (no BigInt per row);
 *  - several keys or a LARGEINT key: a Map keyed by the value or a length-prefixed serialization.
 * NULL is a group of its own. Each table keeps one representative value per group in VectorBuilders.
 */
import { decodeUtf8, getRaw, VectorBuilder, type DictVector, type Vector } from '../../common/column';
import { physicalKind, type DataType } from '../../common/types';
import { formatValue } from '../../common/convert';

export interface GroupKeyTable {
  readonly groupCount: number;
  /** Writes the group id of rows [0, rowCount) into `out`, creating groups as needed. */
  assign(keys: readonly Vector[], rowCount: number, out: Int32Array): void;
  /** One value per group, in group id order. */
  finishKeys(): Vector[];
}

class NoKeyTable implements GroupKeyTable {
  readonly groupCount = 1;
  assign(_keys: readonly Vector[], rowCount: number, out: Int32Array): void {
    out.fill(0, 0, rowCount);
  }
  finishKeys(): Vector[] {
    return [];
  }
}

const scratchF64 = new Float64Array(1);
const scratchI32 = new Int32Array(scratchF64.buffer);

function hashNumber(value: number): number {
  if ((value | 0) === value) return Math.imul(value, 0x9e3779b1) >>> 0;
  scratchF64[0] = value;
  return Math.imul(scratchI32[0] ^ Math.imul(scratchI32[1], 0x85ebca6b), 0x9e3779b1) >>> 0;
}

/**
 * What the one-key tables share: the group count, the representative value of each group, and the group
 * of NULL (a group of its own, created the first time a NULL key is seen).
 */
abstract class SingleKeyTable implements GroupKeyTable {
  groupCount = 0;
  private nullGroup = -1;
  protected readonly builder: VectorBuilder;

  constructor(type: DataType) {
    this.builder = new VectorBuilder(type);
  }

  abstract assign(keys: readonly Vector[], rowCount: number, out: Int32Array): void;

  protected nullGroupId(): number {
    if (this.nullGroup < 0) {
      this.nullGroup = this.groupCount++;
      this.builder.append(null);
    }
    return this.nullGroup;
  }

  finishKeys(): Vector[] {
    return [this.builder.finish()];
  }
}

/** Open addressing on numeric keys (all fixed kinds except BIGINT, which needs bigint equality). */
class NumericKeyTable extends SingleKeyTable {
  private slotKeys = new Float64Array(1024);
  private slotGroups = new Int32Array(1024).fill(-1);

  private grow(): void {
    const oldKeys = this.slotKeys;
    const oldGroups = this.slotGroups;
    const capacity = oldKeys.length * 2;
    this.slotKeys = new Float64Array(capacity);
    this.slotGroups = new Int32Array(capacity).fill(-1);
    const mask = capacity - 1;
    for (let slotIdx = 0; slotIdx < oldKeys.length; slotIdx++) {
      if (oldGroups[slotIdx] < 0) continue;
      let slot = hashNumber(oldKeys[slotIdx]) & mask;
      while (this.slotGroups[slot] >= 0) slot = (slot + 1) & mask;
      this.slotKeys[slot] = oldKeys[slotIdx];
      this.slotGroups[slot] = oldGroups[slotIdx];
    }
  }

  assign(keys: readonly Vector[], rowCount: number, out: Int32Array): void {
    const vec = keys[0];
    const values = (vec as { values: ArrayLike<number> }).values;
    const nulls = vec.nulls;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx] === 1) {
        out[rowIdx] = this.nullGroupId();
        continue;
      }
      let value = values[rowIdx];
      if (value === 0) value = 0; // -0 and 0 are one group
      const mask = this.slotKeys.length - 1;
      let slot = hashNumber(value) & mask;
      for (;;) {
        const group = this.slotGroups[slot];
        if (group < 0) {
          const created = this.groupCount++;
          this.slotGroups[slot] = created;
          this.slotKeys[slot] = value;
          this.builder.appendFrom(vec, rowIdx);
          out[rowIdx] = created;
          if (this.groupCount * 2 > this.slotKeys.length) this.grow();
          break;
        }
        const stored = this.slotKeys[slot];
        if (stored === value || (stored !== stored && value !== value)) {
          out[rowIdx] = group;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
}

/** The BIGINT values of a key vector as a BigInt64Array (the vector's own array when it is one). */
function int64Values(vec: Vector, rowCount: number): BigInt64Array {
  if (vec.kind === 'fixed' && vec.values instanceof BigInt64Array) return vec.values;
  const values = new BigInt64Array(rowCount);
  for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
    const raw = vec.nulls !== null && vec.nulls[rowIdx] === 1 ? null : getRaw(vec, rowIdx);
    values[rowIdx] = raw === null ? 0n : BigInt(raw as number | bigint);
  }
  return values;
}

function hashHalves(lo: number, hi: number): number {
  return Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1) >>> 0;
}

/** One BIGINT key: open addressing on each value's low and high 32-bit halves, compared as two ints. */
class Int64KeyTable extends SingleKeyTable {
  private slotLo = new Int32Array(1024);
  private slotHi = new Int32Array(1024);
  private slotGroups = new Int32Array(1024).fill(-1);

  private grow(): void {
    const { slotLo: oldLo, slotHi: oldHi, slotGroups: oldGroups } = this;
    const capacity = oldGroups.length * 2;
    this.slotLo = new Int32Array(capacity);
    this.slotHi = new Int32Array(capacity);
    this.slotGroups = new Int32Array(capacity).fill(-1);
    const mask = capacity - 1;
    for (let slotIdx = 0; slotIdx < oldGroups.length; slotIdx++) {
      if (oldGroups[slotIdx] < 0) continue;
      let slot = hashHalves(oldLo[slotIdx], oldHi[slotIdx]) & mask;
      while (this.slotGroups[slot] >= 0) slot = (slot + 1) & mask;
      this.slotLo[slot] = oldLo[slotIdx];
      this.slotHi[slot] = oldHi[slotIdx];
      this.slotGroups[slot] = oldGroups[slotIdx];
    }
  }

  assign(keys: readonly Vector[], rowCount: number, out: Int32Array): void {
    const vec = keys[0];
    const values = int64Values(vec, rowCount);
    const halves = new Int32Array(values.buffer, values.byteOffset, rowCount * 2);
    const nulls = vec.nulls;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx] === 1) {
        out[rowIdx] = this.nullGroupId();
        continue;
      }
      const lo = halves[2 * rowIdx];
      const hi = halves[2 * rowIdx + 1];
      const mask = this.slotGroups.length - 1;
      let slot = hashHalves(lo, hi) & mask;
      for (;;) {
        const group = this.slotGroups[slot];
        if (group < 0) {
          const created = this.groupCount++;
          this.slotGroups[slot] = created;
          this.slotLo[slot] = lo;
          this.slotHi[slot] = hi;
          this.builder.appendFrom(vec, rowIdx);
          out[rowIdx] = created;
          if (this.groupCount * 2 > this.slotGroups.length) this.grow();
          break;
        }
        if (this.slotLo[slot] === lo && this.slotHi[slot] === hi) {
          out[rowIdx] = group;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
  }
}

/** One string key: per-dictionary code -> group maps for dict vectors, a Map for plain strings. */
class StringKeyTable extends SingleKeyTable {
  private readonly groups = new Map<string, number>();
  private lastDict: readonly string[] | null = null;
  private codeGroups = new Int32Array(0);

  private groupOf(value: string): number {
    let group = this.groups.get(value);
    if (group === undefined) {
      group = this.groupCount++;
      this.groups.set(value, group);
      this.builder.append(value);
    }
    return group;
  }

  assign(keys: readonly Vector[], rowCount: number, out: Int32Array): void {
    const vec = keys[0];
    const nulls = vec.nulls;
    if (vec.kind === 'dict') {
      if (vec.dict !== this.lastDict) {
        this.lastDict = vec.dict;
        this.codeGroups = new Int32Array(vec.dict.length).fill(-1);
      }
      const codeGroups = this.codeGroups;
      const codes = vec.codes;
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        if (nulls !== null && nulls[rowIdx] === 1) {
          out[rowIdx] = this.nullGroupId();
          continue;
        }
        const code = codes[rowIdx];
        let group = codeGroups[code];
        if (group < 0) {
          group = this.groupOf(vec.dict[code]);
          codeGroups[code] = group;
        }
        out[rowIdx] = group;
      }
      return;
    }
    if (vec.kind !== 'string') throw new TypeError('string group key expects a string vector');
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      if (nulls !== null && nulls[rowIdx] === 1) out[rowIdx] = this.nullGroupId();
      else out[rowIdx] = this.groupOf(decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]));
    }
  }
}

/** A per-row key usable in a Map, or `undefined` when `skipNulls` and some key is NULL (join probes). */
export type RowKeyFn = (rowIdx: number) => string | number | bigint | null | undefined;

function valueReader(vec: Vector): (rowIdx: number) => string | number | bigint {
  switch (vec.kind) {
    case 'fixed': {
      const values = vec.values as ArrayLike<number | bigint>;
      return (rowIdx) => {
        const value = values[rowIdx];
        return value === 0 ? 0 : value;
      };
    }
    case 'object':
      return (rowIdx) => vec.values[rowIdx];
    case 'dict':
      return (rowIdx) => vec.dict[vec.codes[rowIdx]];
    case 'string':
      return (rowIdx) => decodeUtf8(vec.bytes, vec.offsets[rowIdx], vec.offsets[rowIdx + 1]);
    case 'array':
    case 'struct':
      // An array's (a map's, a struct's) key is its text form (distinct arrays print differently).
      return (rowIdx) => formatValue(vec.type, getRaw(vec, rowIdx)) ?? '';
  }
}

/**
 * Row keys for Map-based tables. One key column: the value itself (NULL as null). Several: a
 * length-prefixed serialization, so no separator inside a string can make two keys collide.
 */
export function makeRowKey(keys: readonly Vector[], skipNulls: boolean): RowKeyFn {
  const readers = keys.map(valueReader);
  if (keys.length === 1) {
    const nulls = keys[0].nulls;
    const read = readers[0];
    if (nulls === null) return read;
    return (rowIdx) => (nulls[rowIdx] === 1 ? (skipNulls ? undefined : null) : read(rowIdx));
  }
  return (rowIdx) => {
    let out = '';
    for (let keyIdx = 0; keyIdx < keys.length; keyIdx++) {
      const nulls = keys[keyIdx].nulls;
      if (nulls !== null && nulls[rowIdx] === 1) {
        if (skipNulls) return undefined;
        out += 'N|';
        continue;
      }
      const value = readers[keyIdx](rowIdx);
      if (typeof value === 'string') out += `s${value.length}:${value}|`;
      else out += `${typeof value === 'bigint' ? 'b' : 'n'}${String(value)}|`;
    }
    return out;
  };
}

/** Most combinations of dictionary codes (NULL counted as one more code) the code-combination cache covers. */
const MAX_DICT_COMBINATIONS = 1 << 16;

/**
 * Several keys, or a key with no faster table. When every key of a batch is a dictionary vector (typical
 * for low-cardinality string keys such as Q1's CHAR(1) flags) the codes are combined into one small
 * integer per row, and a per-dictionary-set array maps each combination to its group id: the serialized
 * Map key is built once per combination, not once per row.
 */
class GenericKeyTable implements GroupKeyTable {
  groupCount = 0;
  private readonly groups = new Map<string | number | bigint | null, number>();
  private readonly builders: VectorBuilder[];
  private comboDicts: (readonly string[])[] = [];
  private comboGroups = new Int32Array(0);
  private comboIds = new Int32Array(0);

  constructor(types: readonly DataType[]) {
    this.builders = types.map((type) => new VectorBuilder(type));
  }

  assign(keys: readonly Vector[], rowCount: number, out: Int32Array): void {
    if (keys.length > 1 && this.assignDictCombos(keys, rowCount, out)) return;
    const rowKey = makeRowKey(keys, false);
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) out[rowIdx] = this.groupOfRow(keys, rowKey, rowIdx);
  }

  private groupOfRow(keys: readonly Vector[], rowKey: RowKeyFn, rowIdx: number): number {
    const key = rowKey(rowIdx) as string | number | bigint | null;
    let group = this.groups.get(key);
    if (group === undefined) {
      group = this.groupCount++;
      this.groups.set(key, group);
      for (let keyIdx = 0; keyIdx < keys.length; keyIdx++) this.builders[keyIdx].appendFrom(keys[keyIdx], rowIdx);
    }
    return group;
  }

  /** The dictionary-code path; false when some key is not a dictionary vector or the codes combine too widely. */
  private assignDictCombos(keys: readonly Vector[], rowCount: number, out: Int32Array): boolean {
    let combinations = 1;
    for (const key of keys) {
      if (key.kind !== 'dict') return false;
      combinations *= key.dict.length + 1;
      if (combinations > MAX_DICT_COMBINATIONS) return false;
    }
    let sameDicts = this.comboDicts.length === keys.length;
    for (let keyIdx = 0; sameDicts && keyIdx < keys.length; keyIdx++) sameDicts = this.comboDicts[keyIdx] === (keys[keyIdx] as DictVector).dict;
    if (!sameDicts) {
      this.comboDicts = keys.map((key) => (key as DictVector).dict);
      this.comboGroups = new Int32Array(combinations).fill(-1);
    }
    if (this.comboIds.length < rowCount) this.comboIds = new Int32Array(Math.max(rowCount, 4096));
    const comboIds = this.comboIds;
    // comboId = sum over keys of (code, or dict length for NULL) * stride, the last key varying fastest.
    comboIds.fill(0, 0, rowCount);
    for (const key of keys as readonly DictVector[]) {
      const width = key.dict.length + 1;
      const codes = key.codes;
      const nulls = key.nulls;
      if (nulls === null) for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) comboIds[rowIdx] = comboIds[rowIdx] * width + codes[rowIdx];
      else {
        const nullCode = width - 1;
        for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) comboIds[rowIdx] = comboIds[rowIdx] * width + (nulls[rowIdx] === 1 ? nullCode : codes[rowIdx]);
      }
    }
    const comboGroups = this.comboGroups;
    let rowKey: RowKeyFn | null = null;
    for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
      const comboId = comboIds[rowIdx];
      let group = comboGroups[comboId];
      if (group < 0) {
        rowKey ??= makeRowKey(keys, false);
        group = this.groupOfRow(keys, rowKey, rowIdx);
        comboGroups[comboId] = group;
      }
      out[rowIdx] = group;
    }
    return true;
  }

  finishKeys(): Vector[] {
    return this.builders.map((builder) => builder.finish());
  }
}

/** The fastest table for these key types. */
export function createGroupKeyTable(keyTypes: readonly DataType[]): GroupKeyTable {
  if (keyTypes.length === 0) return new NoKeyTable();
  if (keyTypes.length === 1) {
    const kind = physicalKind(keyTypes[0]);
    if (kind === 'string') return new StringKeyTable(keyTypes[0]);
    if (kind === 'i64') return new Int64KeyTable(keyTypes[0]);
    if (kind !== 'bigint' && kind !== 'list' && kind !== 'struct') return new NumericKeyTable(keyTypes[0]);
  }
  return new GenericKeyTable(keyTypes);
}
