/**
 * A QUANTILE_STATE value, as Doris's QuantileState: the values themselves while there are at most 2048
 * (quantile_percent then interpolates between the sorted values exactly), then a t-digest of the state's
 * compression (t-digest.ts). Serialized form (Galene's; Doris has no function that exports the bytes): a
 * type byte — EMPTY (0), EXPLICIT (1: f32 compression, u32 count, f64 values) or TDIGEST (2: f32
 * compression, u32 centroid count, f64 means, f64 weights) — little-endian.
 * https://github.com/apache/doris/blob/master/be/src/util/quantile_state.h
 */
import { TDigest } from './t-digest';

/** Doris's QUANTILE_STATE_EXPLICIT_NUM. */
const EXPLICIT_MAX = 2048;
/** Doris's compression range and default for to_quantile_state. */
export const QUANTILE_COMPRESSION_MIN = 2048;
export const QUANTILE_COMPRESSION_MAX = 10000;

const TYPE_EMPTY = 0;
const TYPE_EXPLICIT = 1;
const TYPE_TDIGEST = 2;

export class QuantileStateValue {
  private explicit: number[] = [];
  private digest: TDigest | null = null;

  constructor(readonly compression = QUANTILE_COMPRESSION_MIN) {}

  add(value: number): void {
    if (this.digest !== null) return this.digest.add(value);
    this.explicit.push(value);
    if (this.explicit.length > EXPLICIT_MAX) {
      const digest = new TDigest(this.compression);
      for (const kept of this.explicit) digest.add(kept);
      this.digest = digest;
      this.explicit = [];
    }
  }

  /** this = this ∪ other (as multisets of values). */
  merge(other: QuantileStateValue): this {
    if (other.digest === null) {
      for (const value of other.explicit) this.add(value);
      return this;
    }
    if (this.digest === null) {
      const digest = new TDigest(Math.max(this.compression, other.compression));
      for (const value of this.explicit) digest.add(value);
      this.digest = digest;
      this.explicit = [];
    }
    other.digest.compress();
    this.digest.addCentroids(other.digest.means, other.digest.weights);
    return this;
  }

  get isEmpty(): boolean {
    return this.digest === null && this.explicit.length === 0;
  }

  /** The p-quantile (p in [0, 1]); NaN when the state is empty. */
  percent(p: number): number {
    if (this.digest !== null) return this.digest.quantile(p);
    const count = this.explicit.length;
    if (count === 0) return NaN;
    const sorted = Float64Array.from(this.explicit).sort();
    const index = (count - 1) * p;
    const low = Math.floor(index);
    if (low >= count - 1) return sorted[count - 1];
    return sorted[low] + (index - low) * (sorted[low + 1] - sorted[low]);
  }

  serialize(): Uint8Array {
    if (this.isEmpty) return Uint8Array.of(TYPE_EMPTY);
    if (this.digest === null) {
      const out = new Uint8Array(9 + this.explicit.length * 8);
      const view = new DataView(out.buffer);
      out[0] = TYPE_EXPLICIT;
      view.setFloat32(1, this.compression, true);
      view.setUint32(5, this.explicit.length, true);
      this.explicit.forEach((value, valueIdx) => view.setFloat64(9 + valueIdx * 8, value, true));
      return out;
    }
    const digest = this.digest;
    digest.compress();
    const count = digest.means.length;
    const out = new Uint8Array(9 + count * 16);
    const view = new DataView(out.buffer);
    out[0] = TYPE_TDIGEST;
    view.setFloat32(1, this.compression, true);
    view.setUint32(5, count, true);
    for (let centroid = 0; centroid < count; centroid++) {
      view.setFloat64(9 + centroid * 8, digest.means[centroid], true);
      view.setFloat64(9 + (count + centroid) * 8, digest.weights[centroid], true);
    }
    return out;
  }

  /** A state from bytes[start, end); null when they are not one. */
  static deserialize(bytes: Uint8Array, start: number, end: number): QuantileStateValue | null {
    const length = end - start;
    if (length < 1) return null;
    if (bytes[start] === TYPE_EMPTY) return length === 1 ? new QuantileStateValue() : null;
    if (length < 9) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset + start, length);
    const compression = view.getFloat32(1, true);
    const count = view.getUint32(5, true);
    if (!(compression >= 1)) return null;
    const out = new QuantileStateValue(compression);
    if (bytes[start] === TYPE_EXPLICIT) {
      if (length !== 9 + count * 8) return null;
      for (let valueIdx = 0; valueIdx < count; valueIdx++) out.explicit.push(view.getFloat64(9 + valueIdx * 8, true));
      return out;
    }
    if (bytes[start] !== TYPE_TDIGEST || length !== 9 + count * 16) return null;
    const means: number[] = [];
    const weights: number[] = [];
    for (let centroid = 0; centroid < count; centroid++) {
      means.push(view.getFloat64(9 + centroid * 8, true));
      weights.push(view.getFloat64(9 + (count + centroid) * 8, true));
    }
    out.digest = new TDigest(compression);
    out.digest.addCentroids(means, weights);
    return out;
  }
}
