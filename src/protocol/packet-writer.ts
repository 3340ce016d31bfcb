/**
 * Builds outgoing packets into one growing buffer, so a whole reply (column definitions, rows, EOF) leaves
 * in a few large socket writes instead of one write per packet.
 *
 * `begin()` reserves the 4-byte header, the field writers append the payload, `end()` fills in the length
 * and the next sequence id. A payload of 16 MiB - 1 or more is split into several physical packets as
 * the protocol requires (and followed by an empty packet when it is an exact multiple), so callers never
 * think about packet size.
 */
import { MAX_PACKET_CHUNK } from './constants';

/** Byte count of a length-encoded integer. */
export function lenencIntSize(value: number): number {
  if (value < 0xfb) return 1;
  if (value < 0x10000) return 3;
  if (value < 0x1000000) return 4;
  return 9;
}

/** Replies smaller than this are copied out so the big buffer is kept; larger ones hand the buffer over. */
const COPY_OUT_LIMIT = 4096;

export class PacketWriter {
  private buf: Buffer;
  private pos = 0;
  private packetStart = -1;
  /** Sequence id of the next packet (wraps at 256). */
  sequenceId = 0;

  constructor(initialCapacity = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(initialCapacity);
  }

  /** Bytes buffered and not yet taken. */
  get length(): number {
    return this.pos;
  }

  /** Make room for `count` more bytes. */
  ensure(count: number): void {
    const need = this.pos + count;
    if (need <= this.buf.length) return;
    let capacity = this.buf.length * 2;
    while (capacity < need) capacity *= 2;
    const next = Buffer.allocUnsafe(capacity);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  begin(): void {
    this.ensure(4);
    this.packetStart = this.pos;
    this.pos += 4;
  }

  /** Drop a packet begun but not ended (an error while building it). */
  abortPacket(): void {
    if (this.packetStart >= 0) {
      this.pos = this.packetStart;
      this.packetStart = -1;
    }
  }

  get inPacket(): boolean {
    return this.packetStart >= 0;
  }

  end(): void {
    const start = this.packetStart;
    this.packetStart = -1;
    const payloadLength = this.pos - start - 4;
    if (payloadLength < MAX_PACKET_CHUNK) {
      this.buf.writeUIntLE(payloadLength, start, 3);
      this.buf[start + 3] = this.nextSequence();
      return;
    }
    // Split: copy the payload out, then lay it down again as chunks with their own headers.
    const payload = Buffer.from(this.buf.subarray(start + 4, this.pos));
    this.pos = start;
    const chunkCount = Math.floor(payloadLength / MAX_PACKET_CHUNK) + 1; // the last may be empty
    this.ensure(payloadLength + 4 * chunkCount);
    for (let chunkIdx = 0; chunkIdx < chunkCount; chunkIdx++) {
      const chunkStart = chunkIdx * MAX_PACKET_CHUNK;
      const chunkEnd = Math.min(chunkStart + MAX_PACKET_CHUNK, payloadLength);
      this.buf.writeUIntLE(chunkEnd - chunkStart, this.pos, 3);
      this.buf[this.pos + 3] = this.nextSequence();
      this.pos += 4;
      payload.copy(this.buf, this.pos, chunkStart, chunkEnd);
      this.pos += chunkEnd - chunkStart;
    }
  }

  private nextSequence(): number {
    const seq = this.sequenceId;
    this.sequenceId = (seq + 1) & 0xff;
    return seq;
  }

  /** Everything buffered, as one Buffer the caller may keep (the writer starts empty again). */
  take(): Buffer {
    let out: Buffer;
    if (this.pos <= COPY_OUT_LIMIT) {
      out = Buffer.from(this.buf.subarray(0, this.pos));
    } else {
      out = this.buf.subarray(0, this.pos);
      this.buf = Buffer.allocUnsafe(Math.max(16 * 1024, Math.min(this.buf.length, 1024 * 1024)));
    }
    this.pos = 0;
    return out;
  }

  /** Drop everything buffered. */
  reset(): void {
    this.pos = 0;
    this.packetStart = -1;
  }

  int1(value: number): void {
    this.ensure(1);
    this.buf[this.pos++] = value & 0xff;
  }

  int2(value: number): void {
    this.ensure(2);
    this.buf.writeUInt16LE(value & 0xffff, this.pos);
    this.pos += 2;
  }

  int3(value: number): void {
    this.ensure(3);
    this.buf.writeUIntLE(value & 0xffffff, this.pos, 3);
    this.pos += 3;
  }

  int4(value: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  int8(value: number | bigint): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt.asUintN(64, BigInt(value)), this.pos);
    this.pos += 8;
  }

  lenencInt(value: number | bigint): void {
    if (typeof value === 'bigint' || value >= 0x1000000 || value < 0) {
      this.int1(0xfe);
      this.int8(value);
      return;
    }
    if (value < 0xfb) this.int1(value);
    else if (value < 0x10000) {
      this.int1(0xfc);
      this.int2(value);
    } else {
      this.int1(0xfd);
      this.int3(value);
    }
  }

  /** IEEE-754 single, little-endian (binary protocol FLOAT). */
  float4(value: number): void {
    this.ensure(4);
    this.buf.writeFloatLE(value, this.pos);
    this.pos += 4;
  }

  /** IEEE-754 double, little-endian (binary protocol DOUBLE). */
  float8(value: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /** Reserve `count` zero bytes and return their offset, to be filled later with `orByteAt` (NULL bitmaps). */
  reserve(count: number): number {
    const at = this.pos;
    this.zeros(count);
    return at;
  }

  /** OR `bits` into a byte reserved earlier in the current buffer. */
  orByteAt(offset: number, bits: number): void {
    this.buf[offset] |= bits;
  }

  zeros(count: number): void {
    this.ensure(count);
    this.buf.fill(0, this.pos, this.pos + count);
    this.pos += count;
  }

  bytes(src: Uint8Array, start = 0, end = src.length): void {
    const count = end - start;
    this.ensure(count);
    this.buf.set(start === 0 && end === src.length ? src : src.subarray(start, end), this.pos);
    this.pos += count;
  }

  /** A string with no length prefix (string<EOF> or string<fix> fields). */
  string(text: string): void {
    this.ensure(text.length * 3);
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  stringNul(text: string): void {
    this.string(text);
    this.int1(0);
  }

  lenencString(text: string): void {
    const byteLength = Buffer.byteLength(text, 'utf8');
    this.lenencInt(byteLength);
    this.ensure(byteLength);
    this.pos += this.buf.write(text, this.pos, 'utf8');
  }

  lenencBytes(src: Uint8Array, start: number, end: number): void {
    const count = end - start;
    this.lenencInt(count);
    this.ensure(count);
    this.buf.set(src.subarray(start, end), this.pos);
    this.pos += count;
  }

  /**
   * A length-encoded cell copied from `src[start, end)`; short cells are copied byte by byte so the hot
   * row loop allocates no subarray views.
   */
  lenencCell(src: Uint8Array, start: number, end: number): void {
    const count = end - start;
    this.ensure(count + 9);
    const buf = this.buf;
    let pos = this.pos;
    if (count < 0xfb) buf[pos++] = count;
    else if (count < 0x10000) {
      buf[pos++] = 0xfc;
      buf[pos++] = count & 0xff;
      buf[pos++] = count >>> 8;
    } else if (count < 0x1000000) {
      buf[pos++] = 0xfd;
      buf[pos++] = count & 0xff;
      buf[pos++] = (count >>> 8) & 0xff;
      buf[pos++] = count >>> 16;
    } else {
      buf[pos++] = 0xfe;
      buf.writeUInt32LE(count, pos);
      buf.writeUInt32LE(0, pos + 4);
      pos += 8;
    }
    if (count <= 32) {
      for (let byteIdx = start; byteIdx < end; byteIdx++) buf[pos++] = src[byteIdx];
    } else {
      buf.set(src.subarray(start, end), pos);
      pos += count;
    }
    this.pos = pos;
  }
}
