/**
 * The cluster FE's scan route over a real membership (SQLite meta store) and placement: a tablet's BE is
 * its placement owner at that BE's brpc_port, the failover candidates are the group's live BEs, and the
 * group a statement reads through is the session's choice, else default_compute_group, else the first
 * group with a live BE; a group without a live BE is Doris's error, a cluster without BEs is null (the
 * FE's own BE reads).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ClusterMembership } from '../../src/meta/cluster-membership';
import { MetaStore } from '../../src/meta/meta-store';
import { TabletPlacement } from '../../src/meta/tablet-placement';
import { clusterScanRoute } from '../../src/fe/cluster-scan-route';

const TABLETS = Array.from({ length: 50 }, (_v, idx) => 40000 + idx);
const report = (heartbeatPort: number) => ({ host: '127.0.0.1', heartbeatPort, httpPort: heartbeatPort + 1, brpcPort: heartbeatPort + 2, startTime: Date.now(), version: 'v' });

describe('cluster scan route', () => {
  it('routes tablets to their placement owners and picks the statement\'s group', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-scan-route-'));
    const meta = new MetaStore(dir);
    try {
      const cluster = new ClusterMembership(meta);
      const placement = new TabletPlacement();
      cluster.onChange(() => placement.update(cluster.list(), TABLETS));
      const route = clusterScanRoute(cluster, placement);
      assert.equal(route.groupFor(null), null, 'no BE process: the FE reads itself');

      const a = cluster.register('a'.repeat(32), report(9100), 'etl');
      const b = cluster.register('b'.repeat(32), report(9200), 'etl');
      cluster.register('c'.repeat(32), report(9300), 'zeta');
      assert.equal(route.groupFor(null), 'etl', 'no default group: the first group with a live BE');
      assert.equal(route.groupFor('zeta'), 'zeta');
      for (const tablet of TABLETS) {
        const owner = route.router.ownerOf('etl', tablet)!;
        assert.equal(owner.id, placement.ownerOf('etl', tablet));
        assert.equal(owner.port, owner.id === a.id ? 9102 : 9202, 'the BE\'s brpc_port');
      }
      assert.deepEqual(route.router.liveBackends('etl').map((backend) => backend.id), [a.id, b.id]);

      // A dead BE is no owner and no failover candidate; a group with none left is refused.
      for (let round = 0; round < 3; round++) cluster.heartbeatFailed(a.id, 'connection refused', 3);
      assert.ok(TABLETS.every((tablet) => route.router.ownerOf('etl', tablet)!.id === b.id));
      assert.deepEqual(route.router.liveBackends('etl').map((backend) => backend.id), [b.id]);
      for (let round = 0; round < 3; round++) cluster.heartbeatFailed(b.id, 'connection refused', 3);
      assert.equal(route.router.ownerOf('etl', TABLETS[0]), null);
      assert.throws(() => route.groupFor('etl'), /There is no scanNode Backend available\.\[no alive backend in compute group etl\]/);
      assert.equal(route.groupFor(null), 'zeta', 'a session that chose no group goes to one with a live BE');

      cluster.register('d'.repeat(32), report(9400), 'default_compute_group');
      assert.equal(route.groupFor(null), 'default_compute_group', 'the default group first when it has a live BE');
      route.close();
    } finally {
      meta.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
