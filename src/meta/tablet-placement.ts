/**
 * Which BE of a compute group owns each tablet: rendezvous (highest random weight) hashing over the
 * group's live, non-decommissioned BEs. Each (tablet, BE) pair gets a pseudo-random score and the best
 * score wins, so when a BE joins, leaves or is decommissioned only the tablets it wins or loses change
 * owner; every other tablet keeps its BE (and its warm cache). When a tablet moves, its previous owner is
 * remembered (the first candidate Peer Read will ask). Pure: the FE feeds it membership (update) and asks
 * it (ownerOf / previousOwnerOf); the coordinator routes fragments with it.
 */

import { mix32 } from '../common/bucket-hash';

/** What placement needs to know of a BE. */
export interface PlacementBackend {
  readonly id: number;
  readonly computeGroup: string;
  readonly alive: boolean;
  readonly decommissioned: boolean;
}

/** A 32-bit mix of the pair (murmur3's finaliser over both words): the rendezvous score. */
function score(tabletId: number, backendId: number): number {
  let h = Math.imul(tabletId | 0, 0x9e3779b1) ^ Math.imul((tabletId / 0x100000000) | 0, 0x85ebca77);
  h ^= Math.imul(backendId | 0, 0xc2b2ae3d);
  return mix32(h);
}

/** The owner of `tabletId` among `backendIds` (null when there are none); ties go to the lower id. */
export function rendezvousOwner(tabletId: number, backendIds: readonly number[]): number | null {
  let best: number | null = null;
  let bestScore = -1;
  for (const backendId of backendIds) {
    const s = score(tabletId, backendId);
    if (s > bestScore || (s === bestScore && best !== null && backendId < best)) {
      best = backendId;
      bestScore = s;
    }
  }
  return best;
}

/** The BEs of each group that may own tablets: alive and not decommissioned, sorted by id. */
export function eligibleByGroup(backends: readonly PlacementBackend[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const backend of backends) {
    if (!groups.has(backend.computeGroup)) groups.set(backend.computeGroup, []);
    if (backend.alive && !backend.decommissioned) groups.get(backend.computeGroup)!.push(backend.id);
  }
  for (const ids of groups.values()) ids.sort((a, b) => a - b);
  return groups;
}

export class TabletPlacement {
  private eligible = new Map<string, number[]>();
  /** group -> tablet -> the BE that owned it before it last moved. */
  private readonly previous = new Map<string, Map<number, number>>();

  /**
   * New membership. For every group whose eligible BEs changed, each of `tabletIds` that changes owner
   * records its old owner as its previous one.
   */
  update(backends: readonly PlacementBackend[], tabletIds: Iterable<number>): void {
    const next = eligibleByGroup(backends);
    const changed = [...next].filter(([group, ids]) => !sameIds(this.eligible.get(group) ?? [], ids)).map(([group]) => group);
    const tablets = changed.length > 0 ? [...tabletIds] : [];
    for (const group of changed) {
      const before = this.eligible.get(group) ?? [];
      const after = next.get(group)!;
      let moved = this.previous.get(group);
      for (const tabletId of tablets) {
        const oldOwner = rendezvousOwner(tabletId, before);
        if (oldOwner === null || oldOwner === rendezvousOwner(tabletId, after)) continue;
        if (moved === undefined) this.previous.set(group, (moved = new Map()));
        moved.set(tabletId, oldOwner);
      }
    }
    for (const group of this.previous.keys()) if (!next.has(group)) this.previous.delete(group);
    this.eligible = next;
  }

  /** A group renamed: its owners and history go with it. */
  renameGroup(oldName: string, newName: string): void {
    for (const map of [this.eligible, this.previous] as Map<string, unknown>[]) {
      if (!map.has(oldName)) continue;
      map.set(newName, map.get(oldName));
      map.delete(oldName);
    }
  }

  /** The BE of `computeGroup` that owns the tablet now; null when the group has no eligible BE. */
  ownerOf(computeGroup: string, tabletId: number): number | null {
    return rendezvousOwner(tabletId, this.eligible.get(computeGroup) ?? []);
  }

  /** The BE that owned the tablet in `computeGroup` before it last moved; null if it never moved. */
  previousOwnerOf(computeGroup: string, tabletId: number): number | null {
    return this.previous.get(computeGroup)?.get(tabletId) ?? null;
  }

  /** The BEs of `computeGroup` that may own tablets now. */
  eligibleBackends(computeGroup: string): readonly number[] {
    return this.eligible.get(computeGroup) ?? [];
  }
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, idx) => id === b[idx]);
}
