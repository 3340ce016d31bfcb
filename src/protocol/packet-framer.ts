/**
 * Cuts the incoming byte stream into logical packets: reads the 4-byte headers, waits for whole payloads
 * and joins payloads that the client split at 16 MiB - 1 (a long query text arrives that way).
 *
 * Only the bytes of an incomplete packet are kept between calls; a payload larger than
 * `maxPacketSize` is refused before it is buffered, so a bogus header cannot make the server allocate
 * gigabytes.
 */
import { MAX_PACKET_CHUNK } from './constants';
import { PROTOCOL_ERRORS } from './wire-error';

export interface IncomingPacket {
  readonly payload: Buffer;
  /** Sequence id of the last physical packet; the reply continues from it + 1. */
  readonly sequenceId: number;
}

/** Thrown by `next()` when a payload exceeds the limit; the connection answers 1153 and closes. */
export class PacketTooLargeError extends Error {
  readonly errno = PROTOCOL_ERRORS.PACKET_TOO_LARGE.errno;
  readonly sqlState = PROTOCOL_ERRORS.PACKET_TOO_LARGE.sqlState;
  constructor(readonly sequenceId: number) {
    super(PROTOCOL_ERRORS.PACKET_TOO_LARGE.message);
    this.name = 'PacketTooLargeError';
  }
}

export class PacketFramer {
  private buf: Buffer = Buffer.alloc(0);
  private start = 0;
  private end = 0;
  /** Chunks of a split payload received so far. */
  private parts: Buffer[] = [];
  private partsLength = 0;

  /**
   * Largest logical payload accepted; the connection raises it from the pre-login limit to
   * max_allowed_packet after login. Checked at each physical header, before its payload is buffered.
   */
  constructor(public maxPacketSize: number) {}

  /** Bytes received but not yet part of a returned packet. */
  get pendingBytes(): number {
    return this.end - this.start + this.partsLength;
  }

  push(chunk: Buffer): void {
    if (this.start === this.end) {
      // Nothing pending: read straight from the chunk (the common case, no copy).
      this.buf = chunk;
      this.start = 0;
      this.end = chunk.length;
      this.bufIsOwned = false;
      return;
    }
    const pending = this.end - this.start;
    const need = pending + chunk.length;
    if (this.bufIsOwned && this.buf.length - this.end >= chunk.length) {
      chunk.copy(this.buf, this.end);
      this.end += chunk.length;
      return;
    }
    // Size the buffer for the whole physical packet when its header is known (at most 16 MiB + 4), so a
    // long packet arriving in many socket chunks is copied once, not once per chunk.
    let capacity = need;
    if (pending >= 4) capacity = Math.max(need, 4 + Math.min(this.buf.readUIntLE(this.start, 3), this.maxPacketSize));
    else if (pending + chunk.length >= 4) {
      const header = Buffer.concat([this.buf.subarray(this.start, this.end), chunk.subarray(0, 4 - pending)]);
      capacity = Math.max(need, 4 + Math.min(header.readUIntLE(0, 3), this.maxPacketSize));
    }
    if (this.bufIsOwned && this.buf.length >= capacity) {
      this.buf.copy(this.buf, 0, this.start, this.end);
    } else {
      const next = Buffer.allocUnsafe(capacity);
      this.buf.copy(next, 0, this.start, this.end);
      this.buf = next;
      this.bufIsOwned = true;
    }
    chunk.copy(this.buf, pending);
    this.start = 0;
    this.end = need;
  }

  /** Whether `buf` is our own allocation (a socket chunk must not be written into). */
  private bufIsOwned = false;

  /** The next complete logical packet, or null when more bytes are needed. */
  next(): IncomingPacket | null {
    for (;;) {
      const available = this.end - this.start;
      if (available < 4) return null;
      const length = this.buf.readUIntLE(this.start, 3);
      const sequenceId = this.buf[this.start + 3];
      if (this.partsLength + length > this.maxPacketSize) throw new PacketTooLargeError(sequenceId);
      if (available < 4 + length) return null;
      const payloadStart = this.start + 4;
      // A socket 'data' chunk is never rewritten by Node, so a payload may view it; our own buffer is
      // compacted and refilled in place, so a payload taken from it is copied.
      const view = this.buf.subarray(payloadStart, payloadStart + length);
      const payload = this.bufIsOwned ? Buffer.from(view) : view;
      this.start = payloadStart + length;
      if (this.start === this.end) this.releaseBuffer();
      if (length === MAX_PACKET_CHUNK) {
        this.parts.push(payload);
        this.partsLength += length;
        continue;
      }
      if (this.parts.length === 0) return { payload, sequenceId };
      this.parts.push(payload);
      const joined = Buffer.concat(this.parts, this.partsLength + length);
      this.parts = [];
      this.partsLength = 0;
      return { payload: joined, sequenceId };
    }
  }

  private releaseBuffer(): void {
    this.buf = Buffer.alloc(0);
    this.start = 0;
    this.end = 0;
    this.bufIsOwned = false;
  }
}
