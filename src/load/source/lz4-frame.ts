/**
 * A streaming decoder for the LZ4 frame format (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md),
 * what the `lz4` command writes and Doris reads for Stream Load `compress_type: lz4` (LZ4FRAME). Input
 * arrives in slices of any size; each block is decoded as soon as it is complete (at most the frame's
 * block size, 4 MB, is held), linked blocks read the previous 64 KB, skippable frames are skipped and
 * frames may follow one another. Checksums are not verified: a corrupt block fails to decode (offsets
 * and lengths are bounds-checked), it never reads outside its buffers.
 */
const FRAME_MAGIC = 0x184d2204;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const WINDOW_BYTES = 64 * 1024;

class Lz4Error extends Error {}

/** Decode one LZ4 block `src` into `dst` from `dstPos` (bytes before it are the history); returns the end. */
function decodeBlock(src: Uint8Array, dst: Uint8Array, dstPos: number): number {
  const srcEnd = src.length;
  let srcPos = 0;
  let out = dstPos;
  const extend = (length: number): number => {
    let byte: number;
    do {
      if (srcPos >= srcEnd) throw new Lz4Error('truncated block');
      byte = src[srcPos++];
      length += byte;
    } while (byte === 255);
    return length;
  };
  while (srcPos < srcEnd) {
    const token = src[srcPos++];
    let literals = token >>> 4;
    if (literals === 15) literals = extend(literals);
    if (srcPos + literals > srcEnd || out + literals > dst.length) throw new Lz4Error('literal run out of bounds');
    dst.set(src.subarray(srcPos, srcPos + literals), out);
    srcPos += literals;
    out += literals;
    if (srcPos >= srcEnd) break; // the last sequence has literals only
    if (srcPos + 2 > srcEnd) throw new Lz4Error('truncated match offset');
    const offset = src[srcPos] | (src[srcPos + 1] << 8);
    srcPos += 2;
    let length = (token & 15) + 4;
    if ((token & 15) === 15) length = extend(length);
    if (offset === 0 || offset > out) throw new Lz4Error('match offset out of bounds');
    if (out + length > dst.length) throw new Lz4Error('match out of bounds');
    let from = out - offset;
    if (offset >= length) {
      dst.copyWithin(out, from, from + length);
      out += length;
    } else {
      for (let copied = 0; copied < length; copied++) dst[out++] = dst[from++];
    }
  }
  return out;
}

const u32 = (bytes: Uint8Array, pos: number): number => (bytes[pos] | (bytes[pos + 1] << 8) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 24)) >>> 0;

export class Lz4FrameDecoder {
  private chunks: Uint8Array[] = [];
  private total = 0;
  private state: 'magic' | 'descriptor' | 'skip' | 'blockSize' | 'block' | 'contentChecksum' = 'magic';
  private skipLeft = 0;
  private blockLength = 0;
  private blockRaw = false;
  private blockMax = 0;
  private blockChecksum = false;
  private contentChecksum = false;
  private independent = true;
  private history: Uint8Array = new Uint8Array(0);

  /** The first `n` buffered bytes as one array (null when fewer are buffered), consumed when `consume`. */
  private read(n: number, consume: boolean): Uint8Array | null {
    if (this.total < n) return null;
    if (this.chunks[0].length < n) {
      const whole = new Uint8Array(this.total);
      let pos = 0;
      for (const chunk of this.chunks) {
        whole.set(chunk, pos);
        pos += chunk.length;
      }
      this.chunks = [whole];
    }
    const first = this.chunks[0];
    const head = first.subarray(0, n);
    if (consume) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.total -= n;
    }
    return head;
  }

  /** Feed compressed bytes; `emit` gets each decoded piece (the decoder keeps no reference to it). */
  push(data: Uint8Array, emit: (piece: Uint8Array) => void): void {
    if (data.length > 0) {
      this.chunks.push(data);
      this.total += data.length;
    }
    try {
      while (this.step(emit));
    } catch (err) {
      if (err instanceof Lz4Error) throw new Error(`corrupt LZ4 frame: ${err.message}`);
      throw err;
    }
  }

  /** The end of the input: it must not end inside a frame. */
  finish(): void {
    if (this.state !== 'magic' || this.total > 0) throw new Error('the body ends inside an LZ4 frame');
  }

  /** One unit of the format; false when more input is needed. */
  private step(emit: (piece: Uint8Array) => void): boolean {
    switch (this.state) {
      case 'magic': {
        const head = this.read(4, true);
        if (head === null) return false;
        const magic = u32(head, 0);
        if (magic === FRAME_MAGIC) this.state = 'descriptor';
        else if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE_MAGIC) {
          const size = this.read(4, true);
          if (size === null) {
            // Put the magic back until the size arrives.
            this.chunks.unshift(head);
            this.total += 4;
            return false;
          }
          this.skipLeft = u32(size, 0);
          this.state = 'skip';
        } else throw new Lz4Error(`not an LZ4 frame (magic number 0x${magic.toString(16)})`);
        return true;
      }
      case 'descriptor': {
        const head = this.read(2, false);
        if (head === null) return false;
        const flags = head[0];
        if (flags >>> 6 !== 1) throw new Lz4Error(`unsupported frame version ${flags >>> 6}`);
        const length = 3 + (flags & 0x08 ? 8 : 0) + (flags & 0x01 ? 4 : 0);
        const descriptor = this.read(length, true);
        if (descriptor === null) return false;
        if (flags & 0x01) throw new Lz4Error('frames with a dictionary are not supported');
        const sizeId = (descriptor[1] >>> 4) & 7;
        if (sizeId < 4) throw new Lz4Error(`invalid block maximum size ${sizeId}`);
        this.blockMax = 1 << (8 + 2 * sizeId);
        this.independent = (flags & 0x20) !== 0;
        this.blockChecksum = (flags & 0x10) !== 0;
        this.contentChecksum = (flags & 0x04) !== 0;
        this.history = new Uint8Array(0);
        this.state = 'blockSize';
        return true;
      }
      case 'skip': {
        const skipped = Math.min(this.skipLeft, this.total);
        if (skipped > 0) this.read(skipped, true);
        this.skipLeft -= skipped;
        if (this.skipLeft > 0) return false;
        this.state = 'magic';
        return true;
      }
      case 'blockSize': {
        const head = this.read(4, true);
        if (head === null) return false;
        const size = u32(head, 0);
        if (size === 0) {
          this.state = this.contentChecksum ? 'contentChecksum' : 'magic';
          return true;
        }
        this.blockRaw = size >>> 31 === 1;
        this.blockLength = size & 0x7fffffff;
        if (this.blockLength > this.blockMax) throw new Lz4Error(`block of ${this.blockLength} bytes is larger than the frame's maximum ${this.blockMax}`);
        this.state = 'block';
        return true;
      }
      case 'block': {
        const block = this.read(this.blockLength + (this.blockChecksum ? 4 : 0), true);
        if (block === null) return false;
        const data = block.subarray(0, this.blockLength);
        const historyLength = this.independent ? 0 : this.history.length;
        let decoded: Uint8Array;
        if (this.blockRaw) decoded = new Uint8Array(data);
        else {
          const dst = new Uint8Array(historyLength + this.blockMax);
          if (historyLength > 0) dst.set(this.history, 0);
          const end = decodeBlock(data, dst, historyLength);
          decoded = dst.subarray(historyLength, end);
        }
        if (!this.independent) {
          const joined = new Uint8Array(historyLength + decoded.length);
          joined.set(this.history.subarray(0, historyLength), 0);
          joined.set(decoded, historyLength);
          this.history = joined.slice(Math.max(0, joined.length - WINDOW_BYTES));
        }
        if (decoded.length > 0) emit(decoded);
        this.state = 'blockSize';
        return true;
      }
      case 'contentChecksum': {
        if (this.read(4, true) === null) return false;
        this.state = 'magic';
        return true;
      }
    }
  }
}
