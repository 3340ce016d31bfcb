/**
 * Little-endian byte writer and reader for page and index formats.
 *
 * The writer aligns typed sections to their element size (relative to the start of the buffer) so that
 * the reader can hand out zero-copy typed-array views over a decoded page whenever the page buffer itself
 * sits at an aligned address; when it does not, the reader copies that one section. Every read is
 * bounds-checked and a short buffer throws CORRUPTION (the segment reader adds the file name).
 */
import { GaleneError } from '../../common/errors';

type TypedCtor<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; new (length: number): T; readonly BYTES_PER_ELEMENT: number };

/** Growable little-endian writer. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  pos = 0;

  constructor(capacity = 1024) {
    this.buf = new Uint8Array(Math.max(64, capacity));
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(extra: number): void {
    const need = this.pos + extra;
    if (need <= this.buf.length) return;
    const next = new Uint8Array(Math.max(need, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value;
  }

  u32(value: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, value, true);
    this.pos += 4;
  }

  i32(value: number): void {
    this.ensure(4);
    this.view.setInt32(this.pos, value, true);
    this.pos += 4;
  }

  f64(value: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, value, true);
    this.pos += 8;
  }

  /** An unsigned LEB128 varint (any safe integer >= 0, not limited to 32 bits). */
  varint(value: number): void {
    this.ensure(8);
    while (value >= 0x80) {
      this.buf[this.pos++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buf[this.pos++] = value;
  }

  /** Pad with zeros up to a multiple of `alignment` bytes. */
  align(alignment: number): void {
    const pad = (alignment - (this.pos % alignment)) % alignment;
    this.ensure(pad);
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  bytes(src: Uint8Array): void {
    this.ensure(src.length);
    this.buf.set(src, this.pos);
    this.pos += src.length;
  }

  /** A typed array's bytes, aligned to its element size (the machine is little-endian, as the format). */
  typed(src: ArrayBufferView & { readonly BYTES_PER_ELEMENT: number }): void {
    this.align(src.BYTES_PER_ELEMENT);
    this.bytes(new Uint8Array(src.buffer, src.byteOffset, src.byteLength));
  }

  finish(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** Bounds-checked reader over one buffer; `what` names the structure in corruption messages. */
export class ByteReader {
  readonly buf: Uint8Array;
  private readonly view: DataView;
  pos: number;
  private readonly what: string;

  constructor(buf: Uint8Array, what: string, pos = 0) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.pos = pos;
    this.what = what;
  }

  private need(count: number): void {
    if (count < 0 || this.pos + count > this.buf.length) {
      throw new GaleneError('CORRUPTION', [`${this.what}: truncated (need ${count} bytes at ${this.pos} of ${this.buf.length})`]);
    }
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return value;
  }

  i32(): number {
    this.need(4);
    const value = this.view.getInt32(this.pos, true);
    this.pos += 4;
    return value;
  }

  f64(): number {
    this.need(8);
    const value = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return value;
  }

  /** An unsigned LEB128 varint written by ByteWriter.varint. */
  varint(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      this.need(1);
      const byte = this.buf[this.pos++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) this.fail('varint too long');
    }
  }

  align(alignment: number): void {
    this.pos += (alignment - (this.pos % alignment)) % alignment;
  }

  bytes(count: number): Uint8Array {
    this.need(count);
    const out = this.buf.subarray(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  /** `count` elements as a typed array: a view when aligned in memory, else a copy. */
  typed<T extends ArrayBufferView>(ctor: TypedCtor<T>, count: number): T {
    const size = ctor.BYTES_PER_ELEMENT;
    this.align(size);
    this.need(count * size);
    const absolute = this.buf.byteOffset + this.pos;
    let out: T;
    if (absolute % size === 0) {
      out = new ctor(this.buf.buffer, absolute, count);
    } else {
      out = new ctor(count);
      new Uint8Array(out.buffer, out.byteOffset, count * size).set(this.buf.subarray(this.pos, this.pos + count * size));
    }
    this.pos += count * size;
    return out;
  }

  fail(why: string): never {
    throw new GaleneError('CORRUPTION', [`${this.what}: ${why}`]);
  }
}
