/**
 * Cluster membership over a real SQLite meta store: durable across a reopen (ids, groups, alive, last
 * heartbeat, decommission), identity by unique id (a BE on new ports keeps its id), heartbeat failures
 * marking a BE not alive after max_backend_heartbeat_failure_times, and placement following membership
 * with the previous owner of each moved tablet recorded.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { GaleneError } from '../../src/common/errors';
import { ClusterMembership, parseHostPort } from '../../src/meta/cluster-membership';
import { MetaStore } from '../../src/meta/meta-store';
import { TabletPlacement } from '../../src/meta/tablet-placement';

const TABLETS = Array.from({ length: 200 }, (_v, idx) => 30000 + idx);
const report = (heartbeatPort: number) => ({ host: '127.0.0.1', heartbeatPort, httpPort: heartbeatPort + 1, brpcPort: heartbeatPort + 2, startTime: Date.now(), version: 'v' });
const uid = (ch: string): string => ch.repeat(32);

describe('cluster membership', () => {
  it('survives a reopen, keeps ids by unique id, marks dead BEs and moves their tablets with previous owners', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-membership-'));
    try {
      let meta = new MetaStore(dir);
      let cluster = new ClusterMembership(meta);
      const placement = new TabletPlacement();
      cluster.onChange(() => placement.update(cluster.list(), TABLETS));
      const a = cluster.register(uid('a'), report(9100), 'g1');
      const b = cluster.register(uid('b'), report(9200), 'g1');
      const c = cluster.register(uid('c'), report(9300), 'g2');
      assert.deepEqual(cluster.groups().map((group) => [group.name, group.backends.length]), [['g1', 2], ['g2', 1]]);
      const ownedByA = TABLETS.filter((tablet) => placement.ownerOf('g1', tablet) === a.id);
      assert.ok(ownedByA.length > 50 && ownedByA.length < 150);
      // Two failures are not enough (max 3); the third marks A not alive and its tablets go to B.
      for (let round = 0; round < 2; round++) cluster.heartbeatFailed(a.id, 'connection refused', 3);
      assert.equal(cluster.get(a.id)!.alive, true);
      cluster.heartbeatFailed(a.id, 'connection refused', 3);
      assert.equal(cluster.get(a.id)!.alive, false);
      for (const tablet of ownedByA) {
        assert.equal(placement.ownerOf('g1', tablet), b.id);
        assert.equal(placement.previousOwnerOf('g1', tablet), a.id);
      }
      cluster.decommission([{ host: '127.0.0.1', port: 9300 }]);
      meta.close();

      meta = new MetaStore(dir);
      cluster = new ClusterMembership(meta);
      const reopened = cluster.list();
      assert.deepEqual(reopened.map((backend) => [backend.id, backend.computeGroup, backend.alive, backend.decommissioned]), [[a.id, 'g1', false, false], [b.id, 'g1', true, false], [c.id, 'g2', true, true]]);
      assert.ok(cluster.get(b.id)!.lastHeartbeat > 0);
      // A restarted on other ports: same id, new ports, alive; the FE's group wins over the BE's flag.
      const again = cluster.register(uid('a'), report(9400), 'other');
      assert.equal(again.id, a.id);
      assert.equal(again.heartbeatPort, 9400);
      assert.equal(again.computeGroup, 'g1');
      assert.equal(again.alive, true);
      // Renamed: same group id; ids of new BEs never reuse a dropped one's.
      const groupId = cluster.get(c.id)!.computeGroupId;
      cluster.renameGroup('g2', 'g3');
      assert.equal(cluster.get(c.id)!.computeGroupId, groupId);
      cluster.drop([{ host: '127.0.0.1', port: 9300 }]);
      assert.ok(cluster.add('127.0.0.1', 9500, 'g3').id > c.id);
      assert.throws(() => cluster.add('127.0.0.1', 9500, 'g3'), (err: GaleneError) => err.code === 'BACKEND_EXISTS');
      assert.throws(() => cluster.drop([{ host: '127.0.0.1', port: 9500 }, { host: '127.0.0.1', port: 1 }]), (err: GaleneError) => err.code === 'BACKEND_NOT_EXISTS_DROP');
      assert.ok(cluster.list().some((backend) => backend.heartbeatPort === 9500), 'a failed DROP changes nothing');
      meta.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses host:port as Doris does', () => {
    assert.deepEqual(parseHostPort(' 10.0.0.1 : 9050 '), { host: '10.0.0.1', port: 9050 });
    assert.deepEqual(parseHostPort('[::1]:9050'), { host: '::1', port: 9050 });
    for (const bad of ['', 'host', 'host:', ':9050', 'a:b:c', 'h:12x']) assert.throws(() => parseHostPort(bad), (err: GaleneError) => err.code === 'INVALID_HOST_PORT', bad);
    for (const bad of ['h:0', 'h:65536']) assert.throws(() => parseHostPort(bad), (err: GaleneError) => err.code === 'PORT_OUT_OF_RANGE', bad);
  });
});
