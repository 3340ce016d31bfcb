/**
 * storage/encoding/: the byte layout of one data page (page-encoding.ts: encodePage / decodePage) and its
 * pieces: null maps (bitmap or run lengths on disk, one byte per row in memory), fixed-width values with
 * frame-of-reference and bit packing, string dictionaries, and the byte reader/writer with its corruption
 * errors. Pure functions over bytes and column vectors: may import only common/ and each other; used by
 * the segment writer and reader in ../.
 */
export { decodePage, encodePage } from './page-encoding';
