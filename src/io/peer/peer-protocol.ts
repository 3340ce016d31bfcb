/**
 * The peer RPC (`proto/peer.proto`, Doris's `fetch_peer_data`): its message shapes, the service
 * definition, the block-aligned request a read needs, the checks both sides make, and the gRPC client.
 *
 * The requester checks every answer (doris-facts A.4): each returned range must be one it asked for, in
 * order, and the bytes must add up; anything else is "peer cache read incomplete" / "out of requested
 * ranges", a failed peer read that storage then answers. The server checks a request the same way before
 * it touches its cache: block-aligned ranges inside the file, at most MAX_BLOCKS_PER_REQUEST of them.
 */
import { GaleneError } from '../../common/errors';
import { loadRpcService, type RpcClientCache, type RpcService } from '../rpc';
import { endpointOf, type PeerEndpoint } from './peer-candidates';

export interface PeerBlockRange {
  readonly block_offset: number;
  readonly block_size: number;
}

export interface PeerFetchRequest {
  readonly path: string;
  readonly file_size: number;
  readonly cache_req: readonly PeerBlockRange[];
  readonly tablet_id: number;
  readonly request_cache_fill: boolean;
}

export type PeerFetchStatus = 'OK' | 'NOT_FOUND' | 'BUSY' | 'FILL_TIMEOUT' | 'INVALID_ARGUMENT' | 'FILL_FAILED';

export interface PeerBlockData extends PeerBlockRange {
  readonly data: Buffer;
}

export interface PeerFetchResponse {
  readonly status: PeerFetchStatus;
  readonly error_msg: string;
  readonly datas: readonly PeerBlockData[];
}

/** Most blocks one request may name (64 MiB at 1 MiB blocks): a bound on what one call makes a server read. */
export const MAX_BLOCKS_PER_REQUEST = 64;

/** Doris's RPC timeouts (A.4): a fill must outlast the server's fill timeout. */
export const PEER_RPC_TIMEOUT_MS = 5000;
export const PEER_FILL_RPC_TIMEOUT_MS = 7000;

let service: RpcService | null = null;
export function peerService(): RpcService {
  service ??= loadRpcService('peer.proto', 'galene.rpc.PeerService');
  return service;
}

/** The block-aligned ranges covering [offset, offset + length) of a file (the last block may be short). */
export function blockRangesOf(offset: number, length: number, fileSize: number, blockSize: number): PeerBlockRange[] {
  const ranges: PeerBlockRange[] = [];
  if (length <= 0) return ranges;
  const first = Math.floor(offset / blockSize);
  const last = Math.floor((offset + length - 1) / blockSize);
  for (let blockIdx = first; blockIdx <= last; blockIdx++) {
    const blockOffset = blockIdx * blockSize;
    ranges.push({ block_offset: blockOffset, block_size: Math.min(blockSize, fileSize - blockOffset) });
  }
  return ranges;
}

/** Why a request is not one a server of `blockSize` blocks serves; null when it is. */
export function requestProblem(request: PeerFetchRequest, blockSize: number): string | null {
  if (typeof request.path !== 'string' || request.path.length === 0 || request.path.length > 4096) return 'path must be a non-empty object key';
  if (!Number.isSafeInteger(request.file_size) || request.file_size <= 0) return `bad file_size ${request.file_size}`;
  if (!Array.isArray(request.cache_req) || request.cache_req.length === 0) return 'cache_req is empty';
  if (request.cache_req.length > MAX_BLOCKS_PER_REQUEST) return `cache_req has ${request.cache_req.length} blocks (at most ${MAX_BLOCKS_PER_REQUEST})`;
  for (const range of request.cache_req) {
    const { block_offset: offset, block_size: size } = range;
    if (!Number.isSafeInteger(offset) || offset < 0 || offset % blockSize !== 0 || offset >= request.file_size) return `block_offset ${offset} is not a block of the file (block size ${blockSize})`;
    if (size !== Math.min(blockSize, request.file_size - offset)) return `block_size ${size} at ${offset} is not the block's size`;
  }
  return null;
}

/**
 * The bytes of the requested ranges from an OK answer, one buffer in request order; a GaleneError when the
 * answer does not match the request (A.4's client checks).
 */
export function blocksOfResponse(request: PeerFetchRequest, response: PeerFetchResponse, from: string): Buffer {
  const wanted = request.cache_req;
  const datas = response.datas;
  let expected = 0;
  for (const range of wanted) expected += range.block_size;
  let got = 0;
  for (const block of datas) got += block.data.length;
  if (datas.length !== wanted.length || got !== expected) {
    throw new GaleneError('IO_ERROR', [`peer cache read incomplete from ${from}: ${got} bytes in ${datas.length} blocks for ${expected} bytes in ${wanted.length} blocks of ${request.path}`]);
  }
  for (let blockIdx = 0; blockIdx < datas.length; blockIdx++) {
    const block = datas[blockIdx]!;
    const range = wanted[blockIdx]!;
    if (block.block_offset !== range.block_offset || block.block_size !== range.block_size || block.data.length !== range.block_size) {
      throw new GaleneError('IO_ERROR', [`peer cache read out of requested ranges from ${from}: block [${block.block_offset}, +${block.data.length}) for [${range.block_offset}, +${range.block_size}) of ${request.path}`]);
    }
  }
  return datas.length === 1 ? datas[0]!.data : Buffer.concat(datas.map((block) => block.data), expected);
}

/** How a requester asks a peer (gRPC here; an interface so the read path does not know the transport). */
export interface PeerClient {
  fetch(peer: PeerEndpoint, request: PeerFetchRequest, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<PeerFetchResponse>;
}

/** The peer RPC over the process's gRPC clients (one channel per BE). */
export class GrpcPeerClient implements PeerClient {
  constructor(private readonly clients: RpcClientCache) {}

  fetch(peer: PeerEndpoint, request: PeerFetchRequest, options: { readonly timeoutMs: number; readonly signal?: AbortSignal }): Promise<PeerFetchResponse> {
    return this.clients.get(endpointOf(peer)).unary<PeerFetchResponse>(peerService(), 'FetchPeerData', request, options);
  }
}
