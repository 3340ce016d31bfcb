/**
 * An HLL value: Doris's HyperLogLog of 2^14 six-bit registers over 64-bit hashes (hll_hash is
 * MurmurHash64A, murmur-hash.ts), with its explicit set of up to 160 hashes before the registers, its
 * estimate (linear counting below 2.5 * 2^14, the bias correction below 72,000) and its serialized form,
 * so counts and hll_to_base64 match Doris's: a type byte, then EMPTY (0), EXPLICIT (1: a count byte and
 * that many u64 LE hashes), SPARSE (2: an i32 LE count of (u16 LE index, u8 value) non-zero registers)
 * or FULL (3: the 16,384 registers).
 * https://github.com/apache/doris/blob/master/be/src/olap/hll.h
 */

export const HLL_PRECISION = 14;
export const HLL_REGISTERS = 1 << HLL_PRECISION;
/** Doris's HLL_EXPLICIT_INT64_NUM: hashes kept as a set before the registers take over. */
const HLL_EXPLICIT_MAX = 160;
/** Doris's HLL_SPARSE_THRESHOLD: above this many non-zero registers the full form is smaller. */
const HLL_SPARSE_THRESHOLD = 4096;
const REGISTER_MASK = BigInt(HLL_REGISTERS - 1);
/** Doris ORs this bit in before counting trailing zeros, so a register value is at most 51. */
const ZERO_COUNT_GUARD = 1n << BigInt(64 - HLL_PRECISION);

const TYPE_EMPTY = 0;
const TYPE_EXPLICIT = 1;
const TYPE_SPARSE = 2;
const TYPE_FULL = 3;

function trailingZeros64(value: bigint): number {
  const low = Number(value & 0xffffffffn);
  if (low !== 0) return 31 - Math.clz32(low & -low);
  const high = Number(value >> 32n);
  return 32 + 31 - Math.clz32(high & -high);
}

export class HllValue {
  private explicit: Set<bigint> | null = null;
  private registers: Uint8Array | null = null;

  /** Adds one 64-bit hash. */
  update(hash: bigint): void {
    if (this.registers !== null) return this.updateRegister(hash);
    const set = (this.explicit ??= new Set());
    if (set.size < HLL_EXPLICIT_MAX || set.has(hash)) {
      set.add(hash);
      return;
    }
    this.toRegisters();
    this.updateRegister(hash);
  }

  private toRegisters(): Uint8Array {
    if (this.registers !== null) return this.registers;
    const registers = new Uint8Array(HLL_REGISTERS);
    this.registers = registers;
    if (this.explicit !== null) for (const hash of this.explicit) this.updateRegister(hash);
    this.explicit = null;
    return registers;
  }

  private updateRegister(hash: bigint): void {
    const index = Number(hash & REGISTER_MASK);
    const rank = trailingZeros64((hash >> BigInt(HLL_PRECISION)) | ZERO_COUNT_GUARD) + 1;
    const registers = this.registers!;
    if (rank > registers[index]) registers[index] = rank;
  }

  /** this = this ∪ other */
  merge(other: HllValue): this {
    if (other.registers !== null) {
      const registers = this.toRegisters();
      const theirs = other.registers;
      for (let idx = 0; idx < HLL_REGISTERS; idx++) if (theirs[idx] > registers[idx]) registers[idx] = theirs[idx];
    } else if (other.explicit !== null) {
      for (const hash of other.explicit) this.update(hash);
    }
    return this;
  }

  get isEmpty(): boolean {
    return this.registers === null && (this.explicit === null || this.explicit.size === 0);
  }

  /** Doris's estimate_cardinality (float harmonic mean, as Doris computes it). */
  cardinality(): number {
    if (this.registers === null) return this.explicit?.size ?? 0;
    const registers = this.registers;
    let harmonic = 0;
    let zeros = 0;
    for (let idx = 0; idx < HLL_REGISTERS; idx++) {
      harmonic = Math.fround(harmonic + Math.fround(2 ** -registers[idx]));
      if (registers[idx] === 0) zeros++;
    }
    harmonic = Math.fround(1 / harmonic);
    const alpha = Math.fround(0.7213 / (1 + 1.079 / HLL_REGISTERS));
    let estimate = alpha * HLL_REGISTERS * HLL_REGISTERS * harmonic;
    if (estimate <= HLL_REGISTERS * 2.5 && zeros !== 0) {
      estimate = HLL_REGISTERS * Math.log(Math.fround(HLL_REGISTERS / zeros));
    } else if (estimate < 72000) {
      const bias = 5.9119e-18 * estimate ** 4 - 1.4253e-12 * estimate ** 3 + 1.294e-7 * estimate ** 2 - 5.2921e-3 * estimate + 83.3216;
      estimate -= estimate * (bias / 100);
    }
    return Math.floor(estimate + 0.5);
  }

  /** Doris's serialized form (see the header). */
  serialize(): Uint8Array {
    if (this.registers === null) {
      const hashes = [...(this.explicit ?? [])].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
      if (hashes.length === 0) return Uint8Array.of(TYPE_EMPTY);
      const out = new Uint8Array(2 + hashes.length * 8);
      const view = new DataView(out.buffer);
      out[0] = TYPE_EXPLICIT;
      out[1] = hashes.length;
      hashes.forEach((hash, hashIdx) => view.setBigUint64(2 + hashIdx * 8, hash, true));
      return out;
    }
    const registers = this.registers;
    let nonZero = 0;
    for (let idx = 0; idx < HLL_REGISTERS; idx++) if (registers[idx] !== 0) nonZero++;
    if (nonZero > HLL_SPARSE_THRESHOLD) {
      const out = new Uint8Array(1 + HLL_REGISTERS);
      out[0] = TYPE_FULL;
      out.set(registers, 1);
      return out;
    }
    const out = new Uint8Array(5 + nonZero * 3);
    const view = new DataView(out.buffer);
    out[0] = TYPE_SPARSE;
    view.setInt32(1, nonZero, true);
    let pos = 5;
    for (let idx = 0; idx < HLL_REGISTERS; idx++) {
      if (registers[idx] === 0) continue;
      view.setUint16(pos, idx, true);
      out[pos + 2] = registers[idx];
      pos += 3;
    }
    return out;
  }

  /** The serialized form of an HLL of one hash (or of none for null), without building it: hll_hash's per-row output. */
  static serializeSingle(hash: bigint | null): Uint8Array {
    if (hash === null) return Uint8Array.of(TYPE_EMPTY);
    const out = new Uint8Array(10);
    out[0] = TYPE_EXPLICIT;
    out[1] = 1;
    new DataView(out.buffer).setBigUint64(2, hash, true);
    return out;
  }

  /**
   * this ∪= the HLL serialized in bytes[start, end); false (and nothing changed) when the bytes are not one.
   * Empty and one-hash states are added without building an HLL (HLL_UNION over hll_hash()).
   */
  mergeSerialized(bytes: Uint8Array, start: number, end: number): boolean {
    const length = end - start;
    if (bytes[start] === TYPE_EMPTY && length === 1) return true;
    if (bytes[start] === TYPE_EXPLICIT && length === 10 && bytes[start + 1] === 1) {
      this.update(new DataView(bytes.buffer, bytes.byteOffset + start + 2, 8).getBigUint64(0, true));
      return true;
    }
    const other = HllValue.deserialize(bytes, start, end);
    if (other === null) return false;
    this.merge(other);
    return true;
  }

  /** An HLL from bytes[start, end) in Doris's format; null when they are not one. */
  static deserialize(bytes: Uint8Array, start: number, end: number): HllValue | null {
    if (end <= start) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out = new HllValue();
    const length = end - start;
    switch (bytes[start]) {
      case TYPE_EMPTY:
        return length === 1 ? out : null;
      case TYPE_EXPLICIT: {
        if (length < 2 || length !== 2 + bytes[start + 1] * 8) return null;
        const set = new Set<bigint>();
        for (let hashIdx = 0; hashIdx < bytes[start + 1]; hashIdx++) set.add(view.getBigUint64(start + 2 + hashIdx * 8, true));
        out.explicit = set;
        return out;
      }
      case TYPE_SPARSE: {
        if (length < 5) return null;
        const count = view.getInt32(start + 1, true);
        if (count < 0 || length !== 5 + count * 3) return null;
        const registers = new Uint8Array(HLL_REGISTERS);
        for (let pos = start + 5; pos < end; pos += 3) {
          const index = view.getUint16(pos, true);
          if (index >= HLL_REGISTERS) return null;
          registers[index] = bytes[pos + 2];
        }
        out.registers = registers;
        return out;
      }
      case TYPE_FULL:
        if (length !== 1 + HLL_REGISTERS) return null;
        out.registers = bytes.slice(start + 1, end);
        return out;
      default:
        return null;
    }
  }
}
