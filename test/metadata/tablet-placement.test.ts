/** Rendezvous placement: balanced, stable as BEs come and go (only moved tablets change owner), previous owners recorded. */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { rendezvousOwner, TabletPlacement, type PlacementBackend } from '../../src/meta/tablet-placement';

const TABLETS = Array.from({ length: 2000 }, (_v, idx) => 20000 + idx * 3);
const be = (id: number, computeGroup: string, alive = true, decommissioned = false): PlacementBackend => ({ id, computeGroup, alive, decommissioned });

function owners(placement: TabletPlacement, group: string): Map<number, number | null> {
  return new Map(TABLETS.map((tablet) => [tablet, placement.ownerOf(group, tablet)]));
}

describe('tablet placement', () => {
  it('spreads tablets evenly over the BEs of a group, and is the same in every process', () => {
    const counts = new Map<number, number>();
    for (const tablet of TABLETS) {
      const owner = rendezvousOwner(tablet, [10001, 10002, 10003, 10004])!;
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    assert.equal(counts.size, 4);
    for (const count of counts.values()) assert.ok(count > 400 && count < 600, `unbalanced: ${[...counts.values()]}`);
    assert.equal(rendezvousOwner(20000, [10002, 10001]), rendezvousOwner(20000, [10001, 10002]));
    assert.equal(rendezvousOwner(1, []), null);
  });

  it('a BE that dies loses only its own tablets, recorded as their previous owner; the others keep theirs', () => {
    const placement = new TabletPlacement();
    const members = [be(1, 'g1'), be(2, 'g1'), be(3, 'g1'), be(4, 'g2'), be(5, 'g2')];
    placement.update(members, TABLETS);
    const before = owners(placement, 'g1');
    const otherGroup = owners(placement, 'g2');
    placement.update(members.map((member) => (member.id === 2 ? be(2, 'g1', false) : member)), TABLETS);
    const after = owners(placement, 'g1');
    let moved = 0;
    for (const tablet of TABLETS) {
      if (before.get(tablet) === 2) {
        moved++;
        assert.notEqual(after.get(tablet), 2);
        assert.equal(placement.previousOwnerOf('g1', tablet), 2);
      } else {
        assert.equal(after.get(tablet), before.get(tablet));
        assert.equal(placement.previousOwnerOf('g1', tablet), null);
      }
    }
    assert.ok(moved > 0);
    assert.deepEqual(owners(placement, 'g2'), otherGroup, 'another group is untouched');
    // It comes back: its tablets return to it, and the BE they were on meanwhile is their previous owner.
    placement.update(members, TABLETS);
    assert.deepEqual(owners(placement, 'g1'), before);
    for (const tablet of TABLETS) if (before.get(tablet) === 2) assert.equal(placement.previousOwnerOf('g1', tablet), after.get(tablet));
  });

  it('a joining BE takes tablets only from the others, and a decommissioned one owns none', () => {
    const placement = new TabletPlacement();
    placement.update([be(1, 'g'), be(2, 'g')], TABLETS);
    const before = owners(placement, 'g');
    placement.update([be(1, 'g'), be(2, 'g'), be(3, 'g')], TABLETS);
    for (const [tablet, owner] of owners(placement, 'g')) assert.ok(owner === 3 || owner === before.get(tablet));
    placement.update([be(1, 'g'), be(2, 'g'), be(3, 'g', true, true)], TABLETS);
    assert.deepEqual(owners(placement, 'g'), before);
    assert.deepEqual(placement.eligibleBackends('g'), [1, 2]);
  });

  it('a group with no eligible BE owns nothing; a renamed group keeps its owners and history', () => {
    const placement = new TabletPlacement();
    placement.update([be(1, 'a', false)], TABLETS);
    assert.equal(placement.ownerOf('a', TABLETS[0]!), null);
    assert.equal(placement.ownerOf('missing', TABLETS[0]!), null);
    placement.update([be(1, 'b'), be(2, 'b')], TABLETS);
    placement.update([be(1, 'b'), be(2, 'b', false)], TABLETS);
    const owner = owners(placement, 'b');
    const moved = TABLETS.find((tablet) => placement.previousOwnerOf('b', tablet) === 2)!;
    placement.renameGroup('b', 'c');
    assert.deepEqual(owners(placement, 'c'), owner);
    assert.equal(placement.previousOwnerOf('c', moved), 2);
  });
});
