/**
 * `/api/peer_cache` on the BE web port (doris-facts A.7): the peer candidate table for operators.
 *   GET  ?op=show&tablet_id=N        one tablet's entry
 *   GET  ?op=show_all[&limit=1000]   the entries of up to `limit` tablets
 *   POST ?op=set&tablet_id=N         body `[{"host":"h","brpc_port":8060,"compute_group_id":"g"}, ...]`
 *                                    (or `{"candidates": [...]}`): the tablet's manual candidates
 *   POST ?op=remove&tablet_id=N      forget the tablet's entry
 *   POST ?op=reset_cooldown&tablet_id=N
 * The answer is JSON; a bad request gets 400 with a message and changes nothing. The HTTP server that
 * mounts it checks that the caller is an admin.
 */
import type { PeerCandidateTable, PeerEndpoint } from './peer-candidates';

export interface PeerCacheApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

const SHOW_ALL_DEFAULT_LIMIT = 1000;

export function peerCacheApi(table: PeerCandidateTable, method: string, params: URLSearchParams, body: string): PeerCacheApiAnswer {
  const op = params.get('op') ?? '';
  const bad = (msg: string): PeerCacheApiAnswer => ({ status: 400, body: { status: 'INVALID_ARGUMENT', msg } });
  if (op === 'show_all') {
    const limitText = params.get('limit');
    const limit = limitText === null ? SHOW_ALL_DEFAULT_LIMIT : Number(limitText);
    if (!Number.isSafeInteger(limit) || limit < 0) return bad(`limit must be a non-negative integer, got '${limitText}'`);
    return { status: 200, body: { tablets: table.showAll(limit), total: table.size } };
  }
  const tabletText = params.get('tablet_id');
  const tabletId = Number(tabletText);
  if (!['show', 'set', 'remove', 'reset_cooldown'].includes(op)) return bad(`unknown op '${op}' (show, show_all, set, remove, reset_cooldown)`);
  if (tabletText === null || !/^\d+$/.test(tabletText) || !Number.isSafeInteger(tabletId)) return bad(`tablet_id must be a tablet id, got '${tabletText ?? ''}'`);
  if (op === 'show') {
    const view = table.show(tabletId);
    return view === null ? { status: 404, body: { status: 'NOT_FOUND', msg: `no peer cache entry for tablet ${tabletId}` } } : { status: 200, body: view };
  }
  if (method !== 'POST') return bad(`op=${op} needs POST`);
  if (op === 'remove') return { status: 200, body: { status: 'OK', removed: table.remove(tabletId) } };
  if (op === 'reset_cooldown') return { status: 200, body: { status: 'OK', reset: table.resetCooldown(tabletId) } };
  const peers = manualPeersOf(body);
  if (typeof peers === 'string') return bad(peers);
  table.setManual(tabletId, peers);
  return { status: 200, body: table.show(tabletId) };
}

/** The candidates of an op=set body, or why it is not a list of them. */
function manualPeersOf(body: string): PeerEndpoint[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body must be JSON: [{"host": "h", "brpc_port": 8060, "compute_group_id": "g"}, ...]';
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { candidates?: unknown } | null)?.candidates;
  if (!Array.isArray(list)) return 'the body must be a JSON array of candidates (or {"candidates": [...]})';
  const peers: PeerEndpoint[] = [];
  for (const item of list as unknown[]) {
    const { host, brpc_port: port, compute_group_id: group } = (item ?? {}) as Record<string, unknown>;
    if (typeof host !== 'string' || host === '') return 'each candidate needs a host';
    if (!Number.isInteger(port) || (port as number) <= 0 || (port as number) > 65535) return `candidate ${host}: brpc_port must be a port number`;
    peers.push({ host, brpcPort: port as number, computeGroupId: group === undefined || group === null ? '' : String(group) });
  }
  return peers;
}
