/**
 * Reads the fields of one packet payload (Protocol::FixedLengthInteger, LengthEncodedInteger, strings).
 *
 * Every read checks the bounds and throws GaleneError MALFORMED_PACKET on a truncated payload, so a bad
 * client costs one error reply, never an exception the connection does not expect.
 */
import { GaleneError } from '../common/errors';

export class PacketReader {
  private pos: number;

  constructor(
    readonly payload: Buffer,
    start = 0,
  ) {
    this.pos = start;
  }

  get offset(): number {
    return this.pos;
  }

  get remaining(): number {
    return this.payload.length - this.pos;
  }

  private need(count: number): void {
    if (this.pos + count > this.payload.length) throw new GaleneError('MALFORMED_PACKET');
  }

  skip(count: number): void {
    this.need(count);
    this.pos += count;
  }

  int1(): number {
    this.need(1);
    return this.payload[this.pos++];
  }

  int2(): number {
    this.need(2);
    const value = this.payload.readUInt16LE(this.pos);
    this.pos += 2;
    return value;
  }

  int3(): number {
    this.need(3);
    const value = this.payload.readUIntLE(this.pos, 3);
    this.pos += 3;
    return value;
  }

  int4(): number {
    this.need(4);
    const value = this.payload.readUInt32LE(this.pos);
    this.pos += 4;
    return value;
  }

  /** An 8-byte integer as a number (exact up to 2^53; larger lengths cannot occur in a valid packet). */
  int8(): number {
    this.need(8);
    const value = Number(this.payload.readBigUInt64LE(this.pos));
    this.pos += 8;
    return value;
  }

  /** Length-encoded integer; null for the 0xFB (NULL) marker. */
  lenencInt(): number | null {
    const first = this.int1();
    if (first < 0xfb) return first;
    if (first === 0xfb) return null;
    if (first === 0xfc) return this.int2();
    if (first === 0xfd) return this.int3();
    if (first === 0xfe) return this.int8();
    throw new GaleneError('MALFORMED_PACKET');
  }

  bytes(count: number): Buffer {
    this.need(count);
    const out = this.payload.subarray(this.pos, this.pos + count);
    this.pos += count;
    return out;
  }

  lenencBytes(): Buffer | null {
    const length = this.lenencInt();
    return length === null ? null : this.bytes(length);
  }

  lenencString(): string | null {
    const bytes = this.lenencBytes();
    return bytes === null ? null : bytes.toString('utf8');
  }

  /** Bytes up to a NUL (consumed, not returned). Without a NUL the payload is malformed. */
  bytesNul(): Buffer {
    const end = this.payload.indexOf(0, this.pos);
    if (end < 0) throw new GaleneError('MALFORMED_PACKET');
    const out = this.payload.subarray(this.pos, end);
    this.pos = end + 1;
    return out;
  }

  stringNul(): string {
    return this.bytesNul().toString('utf8');
  }

  /** A NUL-terminated string, or the rest of the payload when the NUL is missing (lenient clients). */
  stringNulOrRest(): string {
    const end = this.payload.indexOf(0, this.pos);
    if (end < 0) return this.restString();
    const out = this.payload.toString('utf8', this.pos, end);
    this.pos = end + 1;
    return out;
  }

  /** The rest of the payload. */
  restBytes(): Buffer {
    const out = this.payload.subarray(this.pos);
    this.pos = this.payload.length;
    return out;
  }

  restString(): string {
    return this.restBytes().toString('utf8');
  }
}
